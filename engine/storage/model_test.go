package storage

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/ladybugsql/ladybug/vfs"
)

// modelSeed returns a seed, from LADYBUG_SEED when set.
func modelSeed(t *testing.T) uint64 {
	if v := os.Getenv("LADYBUG_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	return rand.Uint64()
}

func randValue(r *rand.Rand) []byte {
	var n int
	switch r.IntN(20) {
	case 0:
		n = 2000 + r.IntN(20000) // overflow
	case 1, 2:
		n = 200 + r.IntN(800)
	default:
		n = r.IntN(40)
	}
	v := make([]byte, n)
	for i := range v {
		v[i] = byte(r.IntN(256))
	}
	return v
}

func randKey(r *rand.Rand, space int) []byte {
	n := r.IntN(space)
	k := []byte(fmt.Sprintf("%06d", n))
	switch r.IntN(16) {
	case 0, 1:
		k = append(k, bytes.Repeat([]byte{'x'}, r.IntN(200))...)
	case 2:
		// A big key (the model's page size inlines at most 235 bytes):
		// deterministic per n, so it can be looked up and deleted again.
		k = append(k, bytes.Repeat([]byte{'B'}, 100+n%3000)...)
	}
	return k
}

// TestTree_Model_RandomOpsMatchMap runs random inserts, updates, deletes
// and range scans against a Go map with a 16-page cache, committing,
// rolling back and reopening along the way.
func TestTree_Model_RandomOpsMatchMap(t *testing.T) {
	seed := modelSeed(t)
	t.Logf("seed %d (rerun with LADYBUG_SEED=%d)", seed, seed)
	defer func() {
		if t.Failed() {
			t.Logf("FAILED with seed %d", seed)
		}
	}()
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	fsys := vfs.NewMemFS()
	opts := Options{PageSize: 1024, CacheSize: 16 * 1024, CheckpointFrames: 200}
	s := openT(t, fsys, opts)
	defer func() { s.Close() }()
	root := newTreeT(t, s)
	model := map[string][]byte{}
	var spilled uint64
	ops := 6000
	if testing.Short() || raceEnabled {
		ops = 3000
	}
	for round := 0; round < ops/100; round++ {
		tx := mustWrite(t, s)
		work := cloneMap(model)
		tr := tx.Tree(root)
		for i := 0; i < 100; i++ {
			modelOp(t, r, tr, work)
		}
		switch r.IntN(10) {
		case 0:
			tx.Rollback()
		default:
			if err := tx.Commit(); err != nil {
				t.Fatalf("round %d commit: %v", round, err)
			}
			model = work
		}
		if round%15 == 7 {
			if err := s.Vacuum(context.Background()); err != nil {
				t.Fatalf("round %d vacuum: %v", round, err)
			}
			checkIntegrity(t, s)
		}
		if round%10 == 9 {
			spilled += s.Stats().SpilledPages
			s.Close()
			s = openT(t, fsys, opts)
		}
		verifyModel(t, s, root, model)
	}
	checkIntegrity(t, s)
	st := s.Stats()
	t.Logf("stats: %+v", st)
	if spilled+st.SpilledPages == 0 || st.Cache.Evictions == 0 {
		t.Fatalf("the 16-page cache never spilled or evicted: %+v", st)
	}
}

func cloneMap(m map[string][]byte) map[string][]byte {
	out := make(map[string][]byte, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func modelOp(t *testing.T, r *rand.Rand, tr *Tree, work map[string][]byte) {
	t.Helper()
	k := randKey(r, 3000)
	switch op := r.IntN(10); {
	case op < 5:
		v := randValue(r)
		if err := tr.Put(k, v); err != nil {
			t.Fatalf("put: %v", err)
		}
		work[string(k)] = v
	case op < 8:
		found, err := tr.Delete(k)
		if err != nil {
			t.Fatalf("delete: %v", err)
		}
		if _, ok := work[string(k)]; ok != found {
			t.Fatalf("delete %q found=%v, model %v", k, found, ok)
		}
		delete(work, string(k))
	case op < 9:
		v, ok, err := tr.Get(k)
		want, wok := work[string(k)]
		if err != nil || ok != wok || !bytes.Equal(v, want) {
			t.Fatalf("get %q: %v %v, want %v", k, ok, err, wok)
		}
	default:
		scanRange(t, r, tr, work)
	}
}

// scanRange checks a forward or backward range scan against the model.
func scanRange(t *testing.T, r *rand.Rand, tr *Tree, work map[string][]byte) {
	t.Helper()
	keys := make([]string, 0, len(work))
	for k := range work {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	from := string(randKey(r, 3000))
	i, _ := slices.BinarySearch(keys, from)
	c := tr.Cursor()
	defer c.Close()
	ok := c.Seek([]byte(from))
	for n := 0; n < 50; n++ {
		if i >= len(keys) {
			if ok {
				t.Fatalf("scan from %q: extra key %q", from, c.Key())
			}
			return
		}
		if !ok || string(c.Key()) != keys[i] {
			t.Fatalf("scan from %q: got %q (%v %v), want %q", from, c.Key(), ok, c.Err(), keys[i])
		}
		v, err := c.Value()
		if err != nil || !bytes.Equal(v, work[keys[i]]) {
			t.Fatalf("scan value %q: %v", keys[i], err)
		}
		if r.IntN(2) == 0 && i > 0 {
			if !c.Prev() || string(c.Key()) != keys[i-1] {
				t.Fatalf("prev from %q: got %q", keys[i], c.Key())
			}
			ok = c.Next()
		}
		ok, i = c.Next(), i+1
	}
}

func verifyModel(t *testing.T, s *Store, root uint32, model map[string][]byte) {
	t.Helper()
	rt := mustRead(t, s)
	defer rt.Rollback()
	tr := rt.Tree(root)
	keys := make([]string, 0, len(model))
	for k := range model {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	c := tr.Cursor()
	defer c.Close()
	i := 0
	for ok := c.First(); ok; ok = c.Next() {
		if i >= len(keys) || string(c.Key()) != keys[i] {
			t.Fatalf("full scan at %d: got %q", i, c.Key())
		}
		v, err := c.Value()
		if err != nil || !bytes.Equal(v, model[keys[i]]) {
			t.Fatalf("value of %q differs (%v)", keys[i], err)
		}
		i++
	}
	if c.Err() != nil || i != len(keys) {
		t.Fatalf("full scan: %d of %d keys, err %v", i, len(keys), c.Err())
	}
	i = len(keys) - 1
	for ok := c.Last(); ok; ok = c.Prev() {
		if string(c.Key()) != keys[i] {
			t.Fatalf("reverse scan at %d: got %q want %q", i, c.Key(), keys[i])
		}
		i--
	}
	if i != -1 {
		t.Fatalf("reverse scan stopped at %d", i)
	}
	if n, err := tr.Count(); err != nil || n != int64(len(keys)) {
		t.Fatalf("count %d %v want %d", n, err, len(keys))
	}
}
