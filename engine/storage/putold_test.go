package storage

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestTree_PutOld_ReturnsReplacedValue checks that PutOld and DeleteOld
// hand back exactly the value they replace or remove, for inline and
// overflowing old and new values, with and without a Get of the same key
// just before (which leaves the write its path), and that the tree ends
// equal to a map model and passes the integrity check.
func TestTree_PutOld_ReturnsReplacedValue(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	root := newTreeT(t, s)
	model := map[string][]byte{}
	r := rand.New(rand.NewPCG(3, 4))
	sizes := []int{0, 10, 200, 3000, 9000} // the last two overflow a 4 KiB page
	for round := range 10 {
		tx := mustWrite(t, s)
		tr := tx.Tree(root)
		for op := range 300 {
			k := key(r.IntN(200))
			if r.IntN(2) == 0 {
				if _, _, err := tr.Get(k); err != nil {
					t.Fatal(err)
				}
			}
			want, in := model[string(k)]
			prefix := []byte("undo:")
			if r.IntN(4) == 0 {
				out, found, err := tr.DeleteOld(k, prefix)
				if err != nil {
					t.Fatal(err)
				}
				if found != in || (found && !bytes.Equal(out[len(prefix):], want)) || !found && len(out) != len(prefix) {
					t.Fatalf("round %d op %d: DeleteOld(%s) = %d bytes, %v; want %d bytes, %v", round, op, k, len(out)-len(prefix), found, len(want), in)
				}
				delete(model, string(k))
				continue
			}
			val := bytes.Repeat([]byte{byte('a' + op%26)}, sizes[r.IntN(len(sizes))])
			out, existed, err := tr.PutOld(k, val, prefix)
			if err != nil {
				t.Fatal(err)
			}
			if existed != in || (existed && !bytes.Equal(out[len(prefix):], want)) {
				t.Fatalf("round %d op %d: PutOld(%s) old = %d bytes, %v; want %d bytes, %v", round, op, k, len(out)-len(prefix), existed, len(want), in)
			}
			model[string(k)] = val
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		checkIntegrity(t, s)
	}
	rd := mustRead(t, s)
	defer rd.Rollback()
	tr := rd.Tree(root)
	for k, want := range model {
		v, ok, err := tr.Get([]byte(k))
		if err != nil || !ok || !bytes.Equal(v, want) {
			t.Fatalf("Get(%s) = %d bytes, %v, %v; want %d bytes", k, len(v), ok, err, len(want))
		}
	}
	if n, err := tr.Count(); err != nil || n != int64(len(model)) {
		t.Fatalf("Count = %d, %v; want %d", n, err, len(model))
	}
}
