package storage

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// commitPuts commits one write transaction putting key(i) = val for each i.
func commitPuts(t *testing.T, s *Store, root uint32, val string, ids ...int) {
	t.Helper()
	tx := mustWrite(t, s)
	for _, i := range ids {
		if err := tx.Tree(root).Put(key(i), []byte(val)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// recycledBy returns how many page buffers f's commits recycled.
func recycledBy(s *Store, f func()) uint64 {
	before := s.Stats().Cache.Recycled
	f()
	return s.Stats().Cache.Recycled - before
}

func TestTx_Commit_RecyclesUnreachableVersions(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	root := newTreeT(t, s)
	for i := range 200 {
		commitPuts(t, s, root, "v", i)
	}
	st := s.Stats().Cache
	if st.Recycled < 150 {
		t.Fatalf("one-row commits recycled %d superseded leaf buffers, want most of 200", st.Recycled)
	}
	rt := mustRead(t, s)
	defer rt.Rollback()
	for i := range 200 {
		if v, ok, err := rt.Tree(root).Get(key(i)); err != nil || !ok || string(v) != "v" {
			t.Fatalf("key %d: %q %v %v", i, v, ok, err)
		}
	}
	checkIntegrity(t, s)
}

// A value handed out by Get stays intact after its transaction ends, however
// many commits supersede the page it was read from. A reader's value is a
// slice of the page, which is then never recycled; a writer's is a copy
// (see Tree.getWrite), so its page is recycled like any other.
func TestTx_Commit_KeepsExposedValuesIntact(t *testing.T) {
	for _, reader := range []bool{true, false} {
		t.Run(fmt.Sprintf("reader=%v", reader), func(t *testing.T) {
			s := openT(t, nil, Options{})
			defer s.Close()
			root := newTreeT(t, s)
			commitPuts(t, s, root, "first", 1, 2, 3)
			var tx *Tx
			if reader {
				tx = mustRead(t, s)
			} else {
				tx = mustWrite(t, s)
			}
			v, ok, err := tx.Tree(root).Get(key(2))
			if err != nil || !ok {
				t.Fatal(ok, err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			n := recycledBy(s, func() { commitPuts(t, s, root, "second", 1) })
			if reader && n != 0 {
				t.Fatalf("the leaf a value was read from was recycled (%d buffers)", n)
			}
			if !reader && n != 1 {
				t.Fatalf("the leaf a writer read was not recycled (%d buffers)", n)
			}
			for i := range 50 {
				commitPuts(t, s, root, fmt.Sprintf("later%03d", i), 1, 2, 3, 100+i)
			}
			if string(v) != "first" {
				t.Fatalf("value read before the commits now reads %q", v)
			}
		})
	}
}

// A cursor's keys and values stay intact after the cursor and its
// transaction end.
func TestTx_Commit_KeepsCursorBytesIntact(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	root := newTreeT(t, s)
	commitPuts(t, s, root, "first", 1, 2, 3)
	rt := mustRead(t, s)
	c := rt.Tree(root).Cursor()
	if !c.First() {
		t.Fatal("empty tree")
	}
	k := c.Key()
	v, err := c.Value()
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	rt.Rollback()
	if n := recycledBy(s, func() { commitPuts(t, s, root, "second", 2) }); n != 0 {
		t.Fatalf("the leaf a cursor read was recycled (%d buffers)", n)
	}
	for i := range 50 {
		commitPuts(t, s, root, fmt.Sprintf("later%03d", i), 1, 2, 3, 200+i)
	}
	if !bytes.Equal(k, key(1)) || string(v) != "first" {
		t.Fatalf("cursor bytes now %q = %q", k, v)
	}
}

// Readers of every snapshot read their own version while a writer commits
// and recycles: run with -race, it also checks that no recycled buffer is
// read.
func TestTx_Commit_RecycleWithConcurrentReaders(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	root := newTreeT(t, s)
	commitPuts(t, s, root, "0000", 1, 2)
	const commits = 300
	var wg sync.WaitGroup
	errc := make(chan error, 4)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range commits {
				rt, err := s.BeginRead()
				if err != nil {
					errc <- err
					return
				}
				v1, _, err1 := rt.Tree(root).Get(key(1))
				v2, _, err2 := rt.Tree(root).Get(key(2))
				if err1 != nil || err2 != nil {
					errc <- fmt.Errorf("get: %v %v", err1, err2)
				} else if string(v1) != string(v2) {
					// One commit writes both keys: a snapshot sees both or neither.
					errc <- fmt.Errorf("torn snapshot: %q %q", v1, v2)
				}
				rt.Rollback()
				if string(v1) != string(v2) {
					return
				}
			}
		}()
	}
	for i := range commits {
		commitPuts(t, s, root, fmt.Sprintf("%04d", i), 1, 2)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	checkIntegrity(t, s)
}

// A rolled-back transaction supersedes nothing: the version it copied stays.
func TestTx_Rollback_RecyclesNothing(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	root := newTreeT(t, s)
	commitPuts(t, s, root, "kept", 1)
	n := recycledBy(s, func() {
		tx := mustWrite(t, s)
		if err := tx.Tree(root).Put(key(1), []byte("dropped")); err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Fatalf("rollback recycled %d buffers", n)
	}
	rt := mustRead(t, s)
	defer rt.Rollback()
	if v, _, _ := rt.Tree(root).Get(key(1)); string(v) != "kept" {
		t.Fatalf("after rollback: %q", v)
	}
}
