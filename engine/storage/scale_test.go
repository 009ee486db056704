package storage

import (
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/vfs"
)

// treeHeight returns the number of levels of the tree at root.
func treeHeight(t *testing.T, s *Store, root uint32) int {
	t.Helper()
	rt := mustRead(t, s)
	defer rt.Rollback()
	h := 0
	err := rt.walk(root, 0, func(_ uint32, n node, d int) error {
		h = max(h, d+1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestTx_Commit_OneRowWritesTreeHeightPages checks that a one-row commit
// writes a handful of pages (bounded by the tree height) on a small and a
// forty-times larger database.
func TestTx_Commit_OneRowWritesTreeHeightPages(t *testing.T) {
	for _, rows := range []int{2000, 80000} {
		s := openT(t, nil, Options{})
		tx := mustWrite(t, s)
		root, _ := tx.CreateTree()
		tr := tx.Tree(root)
		for i := 0; i < rows; i++ {
			tr.Put(keycodec.RowidKey(int64(i*2)), benchVal)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		h := treeHeight(t, s, root)
		for _, k := range []int64{1, int64(rows), int64(rows*2 + 1)} { // insert: start, middle, end
			before := s.Stats().CommitPages
			tx := mustWrite(t, s)
			if err := tx.Tree(root).Put(keycodec.RowidKey(k), benchVal); err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			// Header + leaf, plus a split's new page, parents and a free-list
			// page at most: O(height), never O(rows).
			if n := s.Stats().CommitPages - before; n > uint64(h+3) {
				t.Fatalf("%d rows (height %d): one-row commit wrote %d pages", rows, h, n)
			}
		}
		before := s.Stats().CommitPages
		tx = mustWrite(t, s)
		if _, err := tx.Tree(root).Delete(keycodec.RowidKey(int64(rows))); err != nil {
			t.Fatal(err)
		}
		tx.Commit()
		if n := s.Stats().CommitPages - before; n > uint64(h+3) {
			t.Fatalf("%d rows: one-row delete wrote %d pages", rows, n)
		}
		t.Logf("%d rows: height %d, %d pages", rows, h, s.PageCount())
		s.Close()
	}
}

// TestTree_Get_CorruptPageIsErrCorrupt flips a byte of a leaf in the file
// and expects ErrCorrupt from reads and a problem from the integrity check.
func TestTree_Get_CorruptPageIsErrCorrupt(t *testing.T) {
	fsys := vfs.NewMemFS()
	s := openT(t, fsys, Options{})
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	for i := 0; i < 3000; i++ {
		tx.Tree(root).Put(key(i), []byte("some value"))
	}
	tx.Commit()
	s.Close()
	f, _ := fsys.Open("/db", false)
	f.WriteAt([]byte{0xff, 0xee}, 5*4096+2000) // inside some tree page
	f.Close()
	s = openT(t, fsys, Options{})
	defer s.Close()
	rt := mustRead(t, s)
	defer rt.Rollback()
	sawCorrupt := false
	for i := 0; i < 3000; i++ {
		v, ok, err := rt.Tree(root).Get(key(i))
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("get: %v", err)
			}
			sawCorrupt = true
			continue
		}
		if !ok || string(v) != "some value" {
			t.Fatalf("garbage instead of an error for key %d: %q", i, v)
		}
	}
	probs, err := s.IntegrityCheck()
	if err != nil || len(probs) == 0 || !sawCorrupt {
		t.Fatalf("corruption not reported: %v %v %v", probs, err, sawCorrupt)
	}
}

// TestTx_Spill_HugeTransactionBoundedHeap inserts far more data than the
// cache in one transaction and checks the live heap stays a small multiple
// of the cache (LADYBUG_STRESS=1: 10 million rows, 16 MiB cache).
func TestTx_Spill_HugeTransactionBoundedHeap(t *testing.T) {
	rows, cache := 1_000_000, int64(1<<20)
	if os.Getenv("LADYBUG_STRESS") == "1" {
		rows, cache = 10_000_000, 16<<20
	} else if raceEnabled || testing.Short() {
		rows = 200_000
	}
	s := openT(t, vfs.OS(), Options{CacheSize: cache, Sync: SyncNormal})
	defer s.Close()
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	tr := tx.Tree(root)
	var k []byte
	var peak uint64
	for i := 0; i < rows; i++ {
		k = keycodec.AppendRowid(k[:0], int64(i))
		if err := tr.Put(k, benchVal); err != nil {
			t.Fatal(err)
		}
		if i%(rows/10) == rows/10-1 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	t.Logf("%d rows, cache %d KiB: peak live heap %d KiB, spilled %d pages, %d pages", rows, cache>>10, peak>>10, st.SpilledPages, st.PageCount)
	// The spill index (a map entry per page written) grows with the
	// transaction, a few dozen bytes per page; everything else is bounded
	// by the cache.
	limit := uint64(4*cache) + uint64(st.PageCount)*64 + 8<<20
	if peak > limit || st.SpilledPages == 0 {
		t.Fatalf("live heap %d KiB over %d KiB (spilled %d)", peak>>10, limit>>10, st.SpilledPages)
	}
	checkIntegrity(t, s)
}

// TestStore_Concurrent_ReadersSeeConsistentSnapshots runs readers against
// a writer that moves value between two keys, keeping a constant sum.
func TestStore_Concurrent_ReadersSeeConsistentSnapshots(t *testing.T) {
	s := openT(t, nil, Options{PageSize: 1024, CacheSize: 64 * 1024, CheckpointFrames: 50})
	defer s.Close()
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	const accounts = 200
	for i := 0; i < accounts; i++ {
		tx.Tree(root).Put(key(i), binary.BigEndian.AppendUint64(nil, 100))
	}
	tx.Commit()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 8)
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := sumAccounts(s, root, accounts); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	r := rand.New(rand.NewPCG(9, 9))
	n := 3000
	if raceEnabled {
		n = 300
	}
	for i := 0; i < n; i++ {
		tx, err := s.BeginWrite(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		a, b := r.IntN(accounts), r.IntN(accounts)
		va, _, _ := tx.Tree(root).Get(key(a))
		x := binary.BigEndian.Uint64(va)
		tx.Tree(root).Put(key(a), binary.BigEndian.AppendUint64(nil, x-1))
		vb, _, _ := tx.Tree(root).Get(key(b))
		y := binary.BigEndian.Uint64(vb)
		tx.Tree(root).Put(key(b), binary.BigEndian.AppendUint64(nil, y+1))
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	checkIntegrity(t, s)
}

func sumAccounts(s *Store, root uint32, accounts int) error {
	rt, err := s.BeginRead()
	if err != nil {
		return err
	}
	defer rt.Rollback()
	var sum uint64
	c := rt.Tree(root).Cursor()
	defer c.Close()
	for ok := c.First(); ok; ok = c.Next() {
		v, err := c.Value()
		if err != nil {
			return err
		}
		sum += binary.BigEndian.Uint64(v)
	}
	if c.Err() != nil {
		return c.Err()
	}
	if sum != uint64(accounts*100) {
		return errors.New("reader saw a partial commit")
	}
	return nil
}

// TestStore_Scale_1GB builds a database of about 1 GB with a 16 MiB cache
// and checks point lookups, range scans and the cost of a one-row commit.
// It runs only with LADYBUG_STRESS=1.
func TestStore_Scale_1GB(t *testing.T) {
	if os.Getenv("LADYBUG_STRESS") != "1" {
		t.Skip("set LADYBUG_STRESS=1 to build a 1 GB database")
	}
	s := openT(t, vfs.OS(), Options{CacheSize: 16 << 20, Sync: SyncNormal})
	defer s.Close()
	val := make([]byte, 100)
	const perTx = 1_000_000
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	tx.Commit()
	rows := 0
	for int64(s.PageCount())*int64(s.PageSize()) < 1<<30 {
		tx := mustWrite(t, s)
		tr := tx.Tree(root)
		for i := 0; i < perTx; i++ {
			binary.BigEndian.PutUint64(val, uint64(rows))
			if err := tr.Put(keycodec.RowidKey(int64(rows)), val); err != nil {
				t.Fatal(err)
			}
			rows++
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d rows, %d pages (%d MiB), height %d", rows, s.PageCount(), int64(s.PageCount())*4096>>20, treeHeight(t, s, root))
	rt := mustRead(t, s)
	r := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 20000; i++ {
		id := r.IntN(rows)
		v, ok, err := rt.Tree(root).Get(keycodec.RowidKey(int64(id)))
		if err != nil || !ok || binary.BigEndian.Uint64(v) != uint64(id) {
			t.Fatalf("get %d: %v %v", id, ok, err)
		}
	}
	for i := 0; i < 200; i++ {
		from := r.IntN(rows)
		c := rt.Tree(root).Cursor()
		n := 0
		for ok := c.Seek(keycodec.RowidKey(int64(from))); ok && n < 1000; ok = c.Next() {
			if keycodec.DecodeRowid(c.Key()) != int64(from+n) {
				t.Fatalf("scan from %d: key %d at %d", from, keycodec.DecodeRowid(c.Key()), n)
			}
			n++
		}
		c.Close()
		if n != min(1000, rows-from) {
			t.Fatalf("scan from %d returned %d rows", from, n)
		}
	}
	rt.Rollback()
	before := s.Stats().CommitPages
	tx = mustWrite(t, s)
	tx.Tree(root).Put(keycodec.RowidKey(int64(rows/2)), val)
	tx.Commit()
	if n := s.Stats().CommitPages - before; n > 4 {
		t.Fatalf("one-row commit on 1 GB wrote %d pages", n)
	}
	checkIntegrity(t, s)
}

// TestTree_Delete_ContiguousRangeDirtiesEachPageOnce deletes 10,000
// contiguous rows in one transaction and checks the pages modified are
// about the pages those rows span, not one per row.
func TestTree_Delete_ContiguousRangeDirtiesEachPageOnce(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	for i := 0; i < 100_000; i++ {
		tx.Tree(root).Put(keycodec.RowidKey(int64(i)), benchVal)
	}
	tx.Commit()
	leaves := 0
	rt := mustRead(t, s)
	rt.walk(root, 0, func(_ uint32, n node, _ int) error {
		if n.isLeaf() {
			leaves++
		}
		return nil
	})
	rt.Rollback()
	spanned := 10_000 * leaves / 100_000
	before := s.Stats().DirtiedPages
	tx = mustWrite(t, s)
	for i := 40_000; i < 50_000; i++ {
		if ok, err := tx.Tree(root).Delete(keycodec.RowidKey(int64(i))); !ok || err != nil {
			t.Fatalf("delete %d: %v %v", i, ok, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	n := s.Stats().DirtiedPages - before
	t.Logf("10000 deletes spanning ~%d leaves dirtied %d pages", spanned, n)
	if n > uint64(spanned)+uint64(spanned)/2+10 {
		t.Fatalf("dirtied %d pages for rows spanning %d leaves", n, spanned)
	}
	checkIntegrity(t, s)
}
