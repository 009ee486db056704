package storage

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/vfs"
)

var benchVal = make([]byte, 40)

// cpuTimer reports process CPU time per operation (user+system, all
// threads) as "cpu-ns/op" next to wall time: on a shared machine wall
// time includes waiting for a core, CPU time mostly does not.
type cpuTimer struct {
	b     *testing.B
	start time.Duration
}

func startCPU(b *testing.B) *cpuTimer {
	b.ReportAllocs()
	b.ResetTimer()
	return &cpuTimer{b: b, start: cpuNow()}
}

func (c *cpuTimer) stop() {
	c.b.StopTimer()
	c.b.ReportMetric(float64(cpuNow()-c.start)/float64(c.b.N), "cpu-ns/op")
}

// benchStore opens a store with one empty tree.
func benchStore(b *testing.B, fsys vfs.FS, opts Options) (*Store, uint32) {
	b.Helper()
	s := openT(b, fsys, opts)
	tx := mustWrite(b, s)
	root, err := tx.CreateTree()
	if err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return s, root
}

// fill inserts rowids 0..n-1 in one transaction.
func fill(b *testing.B, s *Store, root uint32, n int) {
	b.Helper()
	tx := mustWrite(b, s)
	tr := tx.Tree(root)
	var k []byte
	for i := 0; i < n; i++ {
		k = keycodec.AppendRowid(k[:0], int64(i))
		if err := tr.Put(k, benchVal); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

func benchInsert(b *testing.B, next func(i int) int64) { benchInsertCheck(b, next, false) }

// benchInsertCheck inserts b.N keys in transactions of 100,000; with
// check, each Put follows a Get of the same (absent) key, as an INSERT
// that checks uniqueness and records undo does.
func benchInsertCheck(b *testing.B, next func(i int) int64, check bool) {
	s, root := benchStore(b, nil, Options{})
	defer s.Close()
	runtime.GC()
	ct := startCPU(b)
	defer ct.stop()
	tx := mustWrite(b, s)
	tr := tx.Tree(root)
	var k []byte
	for i := 0; i < b.N; i++ {
		k = keycodec.AppendRowid(k[:0], next(i))
		if check {
			if _, ok, err := tr.Get(k); ok || err != nil {
				b.Fatal("key present before insert", err)
			}
		}
		if err := tr.Put(k, benchVal); err != nil {
			b.Fatal(err)
		}
		if i%100000 == 99999 {
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			tx = mustWrite(b, s)
			tr = tx.Tree(root)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkTree_InsertSequential(b *testing.B) {
	benchInsert(b, func(i int) int64 { return int64(i) })
}

// BenchmarkTree_GetInsertSequential is a Get of an absent increasing key
// followed by its Put.
func BenchmarkTree_GetInsertSequential(b *testing.B) {
	benchInsertCheck(b, func(i int) int64 { return int64(i) }, true)
}

func BenchmarkTree_InsertRandom(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	benchInsert(b, func(int) int64 { return r.Int64() })
}

const benchRows = 200000

func benchGet(b *testing.B, cacheSize int64) {
	s, root := benchStore(b, vfs.NewMemFS(), Options{CacheSize: cacheSize})
	defer s.Close()
	fill(b, s, root, benchRows)
	rt := mustRead(b, s)
	defer rt.Rollback()
	tr := rt.Tree(root)
	r := rand.New(rand.NewPCG(3, 4))
	var k [8]byte
	runtime.GC()
	ct := startCPU(b)
	defer ct.stop()
	for i := 0; i < b.N; i++ {
		key := keycodec.AppendRowid(k[:0], int64(r.IntN(benchRows)))
		if _, ok, err := tr.Get(key); !ok || err != nil {
			b.Fatal("missing key", err)
		}
	}
}

func BenchmarkTree_GetHot(b *testing.B) { benchGet(b, 0) }

// BenchmarkTree_GetCold reads through a 16-page cache, so nearly every
// leaf comes from the file.
func BenchmarkTree_GetCold(b *testing.B) { benchGet(b, 16*4096) }

func BenchmarkCursor_Scan(b *testing.B) {
	s, root := benchStore(b, vfs.NewMemFS(), Options{})
	defer s.Close()
	fill(b, s, root, benchRows)
	rt := mustRead(b, s)
	defer rt.Rollback()
	c := rt.Tree(root).Cursor()
	defer c.Close()
	runtime.GC()
	ct := startCPU(b)
	defer ct.stop()
	ok := c.First()
	for i := 0; i < b.N; i++ {
		if !ok {
			ok = c.First()
		}
		if _, err := c.Value(); err != nil {
			b.Fatal(err)
		}
		ok = c.Next()
	}
}

func benchCommit(b *testing.B, mode SyncMode) {
	s, root := benchStore(b, vfs.OS(), Options{Sync: mode})
	defer s.Close()
	_ = root
	runtime.GC()
	ct := startCPU(b)
	defer ct.stop()
	var k []byte
	for i := 0; i < b.N; i++ {
		tx, err := s.BeginWrite(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		k = keycodec.AppendRowid(k[:0], int64(i))
		if err := tx.Tree(root).Put(k, benchVal); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTx_CommitSyncFull(b *testing.B)   { benchCommit(b, SyncFull) }
func BenchmarkTx_CommitSyncNormal(b *testing.B) { benchCommit(b, SyncNormal) }

// BenchmarkTx_PointReadTx is one autocommit point read: begin a read
// transaction, look up one row, release it.
func BenchmarkTx_PointReadTx(b *testing.B) {
	s, root := benchStore(b, vfs.NewMemFS(), Options{})
	defer s.Close()
	benchPointReadTx(b, s, root)
}

// benchPointReadTx fills the store's tree and times autocommit point reads
// of random keys in CPU time.
func benchPointReadTx(b *testing.B, s *Store, root uint32) {
	fill(b, s, root, benchRows)
	r := rand.New(rand.NewPCG(3, 4))
	var k [8]byte
	runtime.GC()
	ct := startCPU(b)
	defer ct.stop()
	for i := 0; i < b.N; i++ {
		rt, err := s.BeginRead()
		if err != nil {
			b.Fatal(err)
		}
		key := keycodec.AppendRowid(k[:0], int64(r.IntN(benchRows)))
		if _, ok, err := rt.Tree(root).Get(key); !ok || err != nil {
			b.Fatal("missing key", err)
		}
		rt.Rollback()
	}
}

// benchDeleteSorted deletes b.N keys in DeleteSorted batches of 10,000
// rowids, every stride-th of a 100,000-row tree (1: one contiguous run),
// rolling each batch back; an op is one key.
func benchDeleteSorted(b *testing.B, stride int) {
	const rows, batch = 100_000, 10_000
	s, root := benchStore(b, vfs.NewMemFS(), Options{})
	defer s.Close()
	fill(b, s, root, rows)
	keys := make([][]byte, batch)
	for i := range keys {
		keys[i] = keycodec.AppendRowid(nil, int64((i*stride)%rows))
	}
	ct := startCPU(b)
	defer ct.stop()
	for done := 0; done < b.N; done += batch {
		tx := mustWrite(b, s)
		if _, err := tx.Tree(root).DeleteSorted(keys[:min(batch, b.N-done)]); err != nil {
			b.Fatal(err)
		}
		if err := tx.Rollback(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTree_DeleteSortedContiguous(b *testing.B) { benchDeleteSorted(b, 1) }
func BenchmarkTree_DeleteSortedSpread(b *testing.B)     { benchDeleteSorted(b, 10) }
