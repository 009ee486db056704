package storage

import (
	"bytes"
	"fmt"
	"testing"
)

// TestCursor_Cells_MatchesNext walks a tree of short entries and overflow
// values reading in-place runs where the cursor allows and AppendRun
// where it does not, and checks it sees exactly the tree's entries.
func TestCursor_Cells_MatchesNext(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
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
	defer rt.Rollback()
	for _, max := range []int{1, 3, 1024} {
		c := rt.Tree(root).Cursor()
		var got []Entry
		var run []Entry
		inPlace := 0
		for ok := c.First(); ok; ok = c.Next() {
			if r, ok := c.Cells(max); ok {
				if r.Len() == 0 || r.Len() > max {
					t.Fatalf("max %d: run of %d", max, r.Len())
				}
				for i := 0; i < r.Len(); i++ {
					got = append(got, Entry{bytes.Clone(r.Key(i)), bytes.Clone(r.Value(i))})
				}
				inPlace += r.Len()
				if !bytes.Equal(c.Key(), r.Key(r.Len()-1)) {
					t.Fatalf("max %d: cursor not on the run's last cell", max)
				}
				continue
			}
			run = c.AppendRun(run[:0], max)
			for _, e := range run {
				got = append(got, Entry{bytes.Clone(e.Key), bytes.Clone(e.Value)})
			}
		}
		if err := c.Err(); err != nil {
			t.Fatal(err)
		}
		c.Close()
		if len(got) != len(want) || inPlace < len(want)*9/10 {
			t.Fatalf("max %d: %d entries (%d in place), want %d", max, len(got), inPlace, len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i].Key, want[i].Key) || !bytes.Equal(got[i].Value, want[i].Value) {
				t.Fatalf("max %d: entry %d = %q, want %q", max, i, got[i].Key, want[i].Key)
			}
		}
	}
}

func TestCursor_Cells_UnpositionedOrZeroMax_ReturnsFalse(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	if err := tx.Tree(root).Put([]byte("a"), []byte("1")); err != nil {
		t.Fatal(err)
	}
	c := tx.Tree(root).Cursor()
	defer c.Close()
	if _, ok := c.Cells(10); ok {
		t.Fatal("unpositioned cursor gave a run")
	}
	if !c.First() {
		t.Fatal(c.Err())
	}
	if _, ok := c.Cells(0); ok {
		t.Fatal("max 0 gave a run")
	}
	if r, ok := c.Cells(10); !ok || r.Len() != 1 || string(r.Value(0)) != "1" {
		t.Fatalf("run %v %v", r.Len(), ok)
	}
	tx.Rollback()
	if _, ok := c.Cells(10); ok {
		t.Fatal("closed tx gave a run")
	}
}
