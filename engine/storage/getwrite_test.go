package storage

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestTree_Get_WriterPathServesNextWrite checks that the path a writer's
// Get leaves behind is used only while exact: interleaved Gets, Puts and
// Deletes of keys in the same and other leaves (shifting cell indexes,
// splitting and merging leaves) leave the tree equal to a map model.
func TestTree_Get_WriterPathServesNextWrite(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	root := newTreeT(t, s)
	other := newTreeT(t, s)
	model := map[string]string{}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		tx := mustWrite(t, s)
		tr, ot := tx.Tree(root), tx.Tree(other)
		for op := range 400 {
			k := key(r.IntN(600))
			v, found, err := tr.Get(k)
			if err != nil {
				t.Fatal(err)
			}
			want, in := model[string(k)]
			if found != in || (found && string(v) != want) {
				t.Fatalf("round %d op %d: Get(%s) = %q, %v; want %q, %v", round, op, k, v, found, want, in)
			}
			// Something else in between, sometimes: another key of the
			// same tree (often the same leaf) or a key of another tree.
			switch r.IntN(4) {
			case 0:
				k2 := key(r.IntN(600))
				val := bytes.Repeat([]byte{'x'}, r.IntN(200))
				if err := tr.Put(k2, val); err != nil {
					t.Fatal(err)
				}
				model[string(k2)] = string(val)
			case 1:
				if err := ot.Put(k, []byte("o")); err != nil {
					t.Fatal(err)
				}
			case 2:
				if _, _, err := tr.Get(key(r.IntN(600))); err != nil {
					t.Fatal(err)
				}
			}
			if r.IntN(3) == 0 {
				if _, err := tr.Delete(k); err != nil {
					t.Fatal(err)
				}
				delete(model, string(k))
				continue
			}
			val := []byte(fmt.Sprintf("v%d-%d-%s", round, op, bytes.Repeat([]byte{'y'}, r.IntN(300))))
			if err := tr.Put(k, val); err != nil {
				t.Fatal(err)
			}
			model[string(k)] = string(val)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		checkIntegrity(t, s)
	}
	rd := mustRead(t, s)
	defer rd.Rollback()
	c := rd.Tree(root).Cursor()
	defer c.Close()
	n := 0
	for ok := c.First(); ok; ok = c.Next() {
		v, err := c.Value()
		if err != nil {
			t.Fatal(err)
		}
		if want, in := model[string(c.Key())]; !in || want != string(v) {
			t.Fatalf("key %s: value %.20q, model %.20q (present %v)", c.Key(), v, want, in)
		}
		n++
	}
	if n != len(model) {
		t.Fatalf("%d keys, model has %d", n, len(model))
	}
}
