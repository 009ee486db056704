package storage

import (
	"bytes"
	"fmt"
	"testing"
)

// runTree makes a tree of 2000 short entries with an overflow value every
// 97th, and returns a read transaction on it and the entries in key order.
func runTree(t *testing.T) (*Tx, uint32, []Entry) {
	s := openT(t, nil, Options{})
	t.Cleanup(func() { s.Close() })
	tx := mustWrite(t, s)
	root, err := tx.CreateTree()
	if err != nil {
		t.Fatal(err)
	}
	tr := tx.Tree(root)
	var want []Entry
	for i := range 2000 {
		k := []byte(fmt.Sprintf("k%05d", i))
		v := []byte(fmt.Sprintf("v%d", i))
		if i%97 == 0 {
			v = bytes.Repeat([]byte{byte(i)}, 9000) // overflow pages
		}
		if err := tr.Put(k, v); err != nil {
			t.Fatal(err)
		}
		want = append(want, Entry{k, v})
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rt := mustRead(t, s)
	t.Cleanup(func() { rt.Rollback() })
	return rt, root, want
}

// sameEntries fails t unless got holds want's entries.
func sameEntries(t *testing.T, got, want []Entry) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i].Key, want[i].Key) || !bytes.Equal(got[i].Value, want[i].Value) {
			t.Fatalf("entry %d = %q, want %q", i, got[i].Key, want[i].Key)
		}
	}
}

// TestCursor_AppendRun_MatchesNext walks a tree holding short entries and
// overflow values with runs of several sizes and checks it sees exactly
// what Next, Key and Value see.
func TestCursor_AppendRun_MatchesNext(t *testing.T) {
	rt, root, want := runTree(t)
	for _, max := range []int{1, 3, 1024} {
		c := rt.Tree(root).Cursor()
		var got []Entry
		var run []Entry
		for ok := c.First(); ok; ok = c.Next() {
			run = c.AppendRun(run[:0], max)
			if len(run) == 0 || len(run) > max {
				t.Fatalf("max %d: run of %d", max, len(run))
			}
			for _, e := range run {
				got = append(got, Entry{bytes.Clone(e.Key), bytes.Clone(e.Value)})
			}
			if !bytes.Equal(c.Key(), run[len(run)-1].Key) {
				t.Fatalf("max %d: cursor not on the run's last entry", max)
			}
		}
		if err := c.Err(); err != nil {
			t.Fatal(err)
		}
		c.Close()
		sameEntries(t, got, want)
	}
}

// AppendRun appends nothing and Cells gives no run off an entry, for max 0
// or on a closed transaction.
func TestCursor_AppendRun_UnpositionedOrZeroMax_AppendsNothing(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	if err := tx.Tree(root).Put([]byte("a"), []byte("1")); err != nil {
		t.Fatal(err)
	}
	c := tx.Tree(root).Cursor()
	defer c.Close()
	if got := c.AppendRun(nil, 10); len(got) != 0 {
		t.Fatalf("unpositioned: %d entries", len(got))
	}
	if _, ok := c.Cells(10); ok {
		t.Fatal("unpositioned: Cells gave a run")
	}
	if !c.First() {
		t.Fatal(c.Err())
	}
	if got := c.AppendRun(nil, 0); len(got) != 0 {
		t.Fatalf("max 0: %d entries", len(got))
	}
	if _, ok := c.Cells(0); ok {
		t.Fatal("max 0: Cells gave a run")
	}
	if r, ok := c.Cells(10); !ok || r.Len() != 1 || string(r.Value(0)) != "1" {
		t.Fatalf("Cells: run of %d, %v", r.Len(), ok)
	}
	tx.Rollback()
	if _, ok := c.Cells(10); ok {
		t.Fatal("closed tx: Cells gave a run")
	}
	if got := c.AppendRun(nil, 10); len(got) != 0 || c.Err() == nil {
		t.Fatalf("closed tx: %d entries, err %v", len(got), c.Err())
	}
}

// AppendRun into a slice with room allocates nothing: a scan calls it once
// per batch, and a heap-allocated span buffer there cost one allocation
// per call.
func TestCursor_AppendRun_WithRoom_DoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	rt, root, _ := runTree(t)
	c := rt.Tree(root).Cursor()
	defer c.Close()
	run := make([]Entry, 0, 64)
	if !c.Seek([]byte("k00001")) {
		t.Fatal(c.Err())
	}
	allocs := testing.AllocsPerRun(100, func() {
		if !c.Seek([]byte("k00001")) {
			t.Fatal(c.Err())
		}
		run = c.AppendRun(run[:0], 32)
	})
	if len(run) != 32 {
		t.Fatalf("run of %d entries, want 32", len(run))
	}
	if allocs != 0 {
		t.Fatalf("AppendRun allocated %.0f times per call", allocs)
	}
}
