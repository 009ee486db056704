package storage

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ladybugsql/ladybug/vfs"
)

// TestTree_DeleteSorted_RandomBatchesMatchMap deletes random sorted
// batches (present and absent keys, duplicates, contiguous ranges, big
// keys, overflow values) from a small-page tree with a tiny cache, and
// checks the tree against a map and the integrity check after each batch.
func TestTree_DeleteSorted_RandomBatchesMatchMap(t *testing.T) {
	seed := modelSeed(t)
	t.Logf("seed %d (rerun with LADYBUG_SEED=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s := openT(t, vfs.NewMemFS(), Options{PageSize: 1024, CacheSize: 16 * 1024, CheckpointFrames: 200})
	defer s.Close()
	model := map[string][]byte{}
	tx := mustWrite(t, s)
	root, err := tx.CreateTree()
	if err != nil {
		t.Fatal(err)
	}
	tr := tx.Tree(root)
	for range 3000 {
		k, v := randKey(r, 4000), randValue(r)
		if err := tr.Put(k, v); err != nil {
			t.Fatal(err)
		}
		model[string(k)] = v
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for round := range 8 {
		keys := deleteBatch(r, model, round)
		tx := mustWrite(t, s)
		n, err := tx.Tree(root).DeleteSorted(keys)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		want := 0
		for _, k := range keys {
			if _, ok := model[string(k)]; ok {
				delete(model, string(k))
				want++
			}
		}
		if n != want {
			t.Fatalf("round %d: deleted %d, want %d", round, n, want)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		verifyModel(t, s, root, model)
		checkIntegrity(t, s)
	}
}

// deleteBatch returns sorted keys to delete: some present, some absent,
// a few duplicated; every third round a contiguous range of present keys.
func deleteBatch(r *rand.Rand, model map[string][]byte, round int) [][]byte {
	present := make([]string, 0, len(model))
	for k := range model {
		present = append(present, k)
	}
	slices.Sort(present)
	var keys [][]byte
	if round%3 == 2 && len(present) > 0 {
		lo := r.IntN(len(present))
		for _, k := range present[lo:min(len(present), lo+400)] {
			keys = append(keys, []byte(k))
		}
	} else {
		for _, k := range present {
			if r.IntN(4) == 0 {
				keys = append(keys, []byte(k))
				if r.IntN(10) == 0 {
					keys = append(keys, []byte(k))
				}
			}
		}
		for range 100 {
			keys = append(keys, randKey(r, 8000))
		}
	}
	slices.SortFunc(keys, bytes.Compare)
	return keys
}

// TestTree_DeleteSorted_EverythingEmptiesTree deletes every key of a
// multi-level tree in one batch.
func TestTree_DeleteSorted_EverythingEmptiesTree(t *testing.T) {
	s := openT(t, nil, Options{PageSize: 512})
	defer s.Close()
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	tr := tx.Tree(root)
	keys := make([][]byte, 2000)
	for i := range keys {
		keys[i] = key(i)
		if err := tr.Put(keys[i], []byte("value")); err != nil {
			t.Fatal(err)
		}
	}
	n, err := tr.DeleteSorted(keys)
	if err != nil || n != len(keys) {
		t.Fatalf("DeleteSorted = %d, %v; want %d", n, err, len(keys))
	}
	if c, err := tr.Count(); err != nil || c != 0 {
		t.Fatalf("count %d %v after deleting everything", c, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	checkIntegrity(t, s)
}

// TestTree_DeleteSorted_UnsortedIsInvalid rejects keys out of order and
// changes nothing.
func TestTree_DeleteSorted_UnsortedIsInvalid(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	tx := mustWrite(t, s)
	defer tx.Rollback()
	root, _ := tx.CreateTree()
	tr := tx.Tree(root)
	for i := range 3 {
		if err := tr.Put(key(i), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tr.DeleteSorted([][]byte{key(2), key(1)}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
	if c, _ := tr.Count(); c != 3 {
		t.Fatalf("count %d after a rejected batch, want 3", c)
	}
}
