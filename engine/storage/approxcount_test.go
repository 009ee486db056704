package storage

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestTree_ApproxCount_WithinFactorOfCount checks the one-path estimate
// against the exact count for trees filled in key order (a rowid table's
// appends), in random order, and after deleting most entries at random:
// exact for an empty and a one-page tree, within a factor of two
// otherwise, in the write transaction that made the entries (it sees
// them) and in a later read.
func TestTree_ApproxCount_WithinFactorOfCount(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	r := rand.New(rand.NewPCG(24, 1))
	val := make([]byte, 40)
	for _, n := range []int{0, 1, 7, 60, 500, 5_000, 60_000} {
		for _, order := range []string{"sequential", "random", "thinned"} {
			root := newTreeT(t, s)
			tx := mustWrite(t, s)
			tr := tx.Tree(root)
			keys := r.Perm(n)
			if order == "sequential" {
				for i := range keys {
					keys[i] = i
				}
			}
			var k [8]byte
			for _, i := range keys {
				binary.BigEndian.PutUint64(k[:], uint64(i))
				if err := tr.Put(k[:], val); err != nil {
					t.Fatal(err)
				}
			}
			if order == "thinned" {
				for _, i := range keys[:n*3/4] {
					binary.BigEndian.PutUint64(k[:], uint64(i))
					if _, err := tr.Delete(k[:]); err != nil {
						t.Fatal(err)
					}
				}
			}
			check := func(when string, tr *Tree) {
				t.Helper()
				exact, err := tr.Count()
				if err != nil {
					t.Fatal(err)
				}
				got, err := tr.ApproxCount()
				if err != nil {
					t.Fatal(err)
				}
				if exact < 100 && got != exact || got < exact/2 || got > exact*2 {
					t.Errorf("%d keys %s, %s: ApproxCount = %d, Count = %d", n, order, when, got, exact)
				}
			}
			check("in the writing tx", tr)
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			rd := mustRead(t, s)
			check("in a later read", rd.Tree(root))
			rd.Rollback()
		}
	}
}

// TestTree_ApproxCount_DamagedPage checks that a tree page of the wrong
// type is an error, not a count.
func TestTree_ApproxCount_DamagedPage(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	rd := mustRead(t, s)
	defer rd.Rollback()
	if n, err := rd.ApproxCount(0); err == nil {
		t.Fatalf("ApproxCount of page 0 = %d, want an error", n)
	}
}
