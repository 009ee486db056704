package storage

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/ladybugsql/ladybug/vfs"
)

// workload is a deterministic sequence of write transactions on one tree
// whose expected contents after commit k are models[k].
type workload struct {
	r      *rand.Rand
	models []map[string]string
}

func newWorkload(seed uint64) *workload {
	return &workload{r: rand.New(rand.NewPCG(seed, 7)), models: []map[string]string{nil}}
}

// step runs one transaction: inserts, updates and deletes, some values
// large enough for overflow pages, some transactions large enough to
// spill. It returns the model the commit should produce.
func (w *workload) step(tr *Tree) (map[string]string, error) {
	m := maps.Clone(w.models[len(w.models)-1])
	if m == nil {
		m = map[string]string{}
	}
	n := 1 + w.r.IntN(30)
	if w.r.IntN(6) == 0 {
		n = 400
	}
	for range n {
		k := fmt.Sprintf("key%05d", w.r.IntN(2000))
		if w.r.IntN(4) == 0 {
			if _, err := tr.Delete([]byte(k)); err != nil {
				return nil, err
			}
			delete(m, k)
			continue
		}
		v := fmt.Sprintf("v%d-%s", len(w.models), bytes.Repeat([]byte("x"), w.r.IntN(60)))
		if w.r.IntN(40) == 0 {
			v += string(bytes.Repeat([]byte("big"), 3000))
		}
		if err := tr.Put([]byte(k), []byte(v)); err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, nil
}

// treeContents reads the whole tree, or nil when the store has no tree.
func treeContents(t *testing.T, s *Store) map[string]string {
	t.Helper()
	rt := mustRead(t, s)
	defer rt.Rollback()
	roots, err := rt.Roots()
	if err != nil {
		t.Fatalf("roots: %v", err)
	}
	if len(roots) == 0 {
		return nil
	}
	out := map[string]string{}
	c := rt.Tree(roots[0]).Cursor()
	defer c.Close()
	for ok := c.First(); ok; ok = c.Next() {
		v, err := c.Value()
		if err != nil {
			t.Fatalf("value: %v", err)
		}
		out[string(c.Key())] = string(v)
	}
	if c.Err() != nil {
		t.Fatalf("scan: %v", c.Err())
	}
	return out
}

// matchModel returns the index of the model equal to got among
// models[lo..hi], or -1.
func matchModel(got map[string]string, models []map[string]string, lo, hi int) int {
	for k := hi; k >= lo; k-- {
		if k < len(models) && maps.Equal(got, models[k]) {
			return k
		}
	}
	return -1
}

// TestStore_Crash_EverySyncBoundary takes a crash image at every sync
// (optionally with a torn last write) during a run of transactions, and
// checks that each image opens, passes the integrity check and holds
// exactly the acknowledged commits (or, under SyncNormal, a prefix).
func TestStore_Crash_EverySyncBoundary(t *testing.T) {
	for _, tc := range []struct {
		name string
		sync SyncMode
		torn int
		// reader: a read transaction stays open over two commits in
		// three, so checkpoints copy only what it does not need (partial
		// checkpoints), and restart the log at the third.
		reader bool
	}{
		{"full", SyncFull, 0, false},
		{"full-torn", SyncFull, 700, false},
		{"normal-torn", SyncNormal, 1500, false},
		{"full-reader", SyncFull, 0, true},
		{"normal-torn-reader", SyncNormal, 1500, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runCrashBoundaries(t, tc.sync, tc.torn, tc.reader)
		})
	}
}

func runCrashBoundaries(t *testing.T, mode SyncMode, torn int, reader bool) {
	cfs := vfs.NewCrashFS()
	type image struct {
		fs    *vfs.CrashFS
		acked int
	}
	var images []image
	acked := 0
	opts := Options{PageSize: 1024, CacheSize: 32 * 1024, Sync: mode, CheckpointFrames: 60}
	cfs.OnSync = func() { images = append(images, image{cfs.CrashClone(torn), acked}) }
	s := openT(t, cfs, opts)
	w := newWorkload(uint64(torn) + 1)
	root := newTreeT(t, s)
	w.models = append(w.models, map[string]string{})
	acked = 1
	rounds := 30
	if raceEnabled {
		rounds = 12
	}
	var held *Tx
	for i := 0; i < rounds; i++ {
		if reader && held != nil && i%3 == 2 {
			held.Rollback() // one commit in three with no reader
			held = nil
		} else if reader && held == nil {
			held = mustRead(t, s)
		}
		tx := mustWrite(t, s)
		m, err := w.step(tx.Tree(root))
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatalf("commit %d: %v", i, err)
		}
		w.models = append(w.models, m)
		acked++
	}
	if held != nil {
		if got := treeContents(t, s); !maps.Equal(got, w.models[len(w.models)-1]) {
			t.Fatal("the newest snapshot does not hold the last commit")
		}
		held.Rollback()
		if st := s.Stats(); st.LogRestarts == 0 || st.Checkpoints <= st.LogRestarts {
			t.Fatalf("%d checkpoints, %d log restarts: want both partial checkpoints and restarts", st.Checkpoints, st.LogRestarts)
		}
	}
	s.Close()
	// A crash after the last sync, with unsynced writes pending.
	images = append(images, image{cfs.CrashClone(torn), acked})
	if len(images) < rounds/2 {
		t.Fatalf("only %d sync boundaries", len(images))
	}
	for i, img := range images {
		s, err := Open("/db", Options{FS: img.fs, PageSize: 1024, CacheSize: 32 * 1024})
		if err != nil {
			t.Fatalf("image %d (acked %d): open: %v", i, img.acked, err)
		}
		got := treeContents(t, s)
		lo := img.acked
		if mode != SyncFull {
			lo = 0
		}
		if got == nil {
			if lo > 0 {
				t.Fatalf("image %d: the acknowledged tree is missing", i)
			}
		} else if k := matchModel(got, w.models, max(lo, 1), img.acked+1); k < 0 {
			t.Fatalf("image %d: contents (%d keys) match no commit in [%d, %d]", i, len(got), lo, img.acked+1)
		}
		checkIntegrity(t, s)
		// The recovered store accepts writes.
		tx := mustWrite(t, s)
		if roots, _ := tx.Roots(); len(roots) > 0 {
			if err := tx.Tree(roots[0]).Put([]byte("after"), []byte("crash")); err != nil {
				t.Fatalf("image %d: put after recovery: %v", i, err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatalf("image %d: commit after recovery: %v", i, err)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("image %d: close: %v", i, err)
		}
	}
}

// TestStore_Open_TornHeaderRecoveredFromWAL damages the main file's
// header page while the log still holds the newest header (a checkpoint
// torn by a power loss) and expects Open to recover it.
func TestStore_Open_TornHeaderRecoveredFromWAL(t *testing.T) {
	cfs := vfs.NewCrashFS()
	opts := Options{CheckpointFrames: 1 << 20}
	s := openT(t, cfs, opts)
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	for i := 0; i < 500; i++ {
		tx.Tree(root).Put(key(i), []byte("v"))
	}
	tx.SetMeta(3, 77)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	img := cfs.CrashClone(0) // the log is synced, no checkpoint yet
	s.Close()
	f, _ := img.Open("/db", false)
	f.WriteAt(make([]byte, 100), 0) // a torn header write
	f.Close()
	s, err := Open("/db", Options{FS: img})
	if err != nil {
		t.Fatalf("open with a torn header: %v", err)
	}
	defer s.Close()
	rt := mustRead(t, s)
	defer rt.Rollback()
	if rt.Meta(3) != 77 {
		t.Fatalf("meta %d", rt.Meta(3))
	}
	if n, _ := rt.Tree(root).Count(); n != 500 {
		t.Fatalf("count %d", n)
	}
	checkIntegrity(t, s)
}
