package txn

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/vfs"
)

const (
	benchRows    = 100_000
	benchDeletes = 10_000
)

// BenchmarkTx_DeleteBatch deletes 10,000 of 100,000 rows in one transaction,
// commit inside the timer, by contiguous and by spread keys, in memory and
// on file. The deleted rows are put back outside the timer.
func BenchmarkTx_DeleteBatch(b *testing.B) {
	for _, where := range []string{"mem", "file"} {
		for _, shape := range []string{"contiguous", "spread"} {
			b.Run(where+"/"+shape, func(b *testing.B) {
				benchDeleteBatch(b, where, deleteKeys(shape))
			})
		}
	}
}

// deleteKeys returns the rows a benchmark deletes.
func deleteKeys(shape string) []int {
	keys := make([]int, benchDeletes)
	for i := range keys {
		if shape == "contiguous" {
			keys[i] = benchRows/4 + i
		} else {
			keys[i] = i * (benchRows / benchDeletes)
		}
	}
	return keys
}

func benchOpen(b *testing.B, where string) *storage.Store {
	o := storage.Options{Create: true, Sync: storage.SyncFull}
	path := "bench.db"
	if where == "mem" {
		o.FS = vfs.NewMemFS()
	} else {
		path = filepath.Join(b.TempDir(), "bench.db")
	}
	return openStore(b, path, o)
}

func benchDeleteBatch(b *testing.B, where string, del []int) {
	m := NewManager(benchOpen(b, where))
	root := benchFill(b, m, 0, benchRows)
	keys := make([][]byte, len(del)) // encoded once, as a prepared statement's binder would
	for i, k := range del {
		keys[i] = key(k)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tx, err := m.Begin(ctx, Options{})
		check(b, err)
		check(b, tx.StartWriteStatement(ctx))
		tr := tx.Tree(root)
		for _, k := range keys {
			check(b, tr.Delete(k))
		}
		check(b, tx.EndStatement(nil))
		check(b, tx.Commit())
		b.StopTimer()
		benchRestore(b, m, root, del)
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(del)), "ns/row")
}

// benchFill creates a tree holding rows [lo, hi).
func benchFill(b *testing.B, m *Manager, lo, hi int) uint32 {
	tx, err := m.Begin(ctx, Options{Immediate: true})
	check(b, err)
	root, err := tx.CreateTree()
	check(b, err)
	for i := lo; i < hi; i++ {
		check(b, tx.Tree(root).Put(key(i), val(i)))
	}
	check(b, tx.Commit())
	return root
}

func benchRestore(b *testing.B, m *Manager, root uint32, rows []int) {
	tx, err := m.Begin(ctx, Options{Immediate: true})
	check(b, err)
	for _, i := range rows {
		check(b, tx.Tree(root).Put(key(i), val(i)))
	}
	check(b, tx.Commit())
}

func check(b *testing.B, err error) {
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkTx_InsertBatch inserts 10,000 new rows into a 100,000-row tree in
// one statement, then rolls back (the write cost without the commit),
// comparing Put (undo lookup) with Insert.
func BenchmarkTx_InsertBatch(b *testing.B) {
	for _, op := range []string{"put", "insert"} {
		b.Run("mem/"+op, func(b *testing.B) {
			m := NewManager(benchOpen(b, "mem"))
			root := benchFill(b, m, 0, benchRows)
			keys := make([][]byte, benchDeletes)
			for i := range keys {
				keys[i] = key(benchRows + i)
			}
			v := val(0)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tx, err := m.Begin(ctx, Options{})
				check(b, err)
				check(b, tx.StartWriteStatement(ctx))
				tr := tx.Tree(root)
				for _, k := range keys {
					if op == "put" {
						check(b, tr.Put(k, v))
					} else {
						check(b, tr.Insert(k, v))
					}
				}
				check(b, tx.EndStatement(nil))
				check(b, tx.Rollback())
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/row")
		})
	}
}

// BenchmarkTx_AutocommitInsertDelete runs two autocommit statements per
// iteration on a 100,000-row in-memory tree: insert a row, delete it. It
// shows the fixed cost txn adds to small commits.
func BenchmarkTx_AutocommitInsertDelete(b *testing.B) {
	m := NewManager(benchOpen(b, "mem"))
	root := benchFill(b, m, 0, benchRows)
	k, v := key(benchRows+1), val(0)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		benchAutocommit(b, m, func(tr *TxTree) error { return tr.Insert(k, v) }, root)
		benchAutocommit(b, m, func(tr *TxTree) error { return tr.Delete(k) }, root)
	}
}

func benchAutocommit(b *testing.B, m *Manager, fn func(*TxTree) error, root uint32) {
	tx, err := m.Begin(ctx, Options{Immediate: true})
	check(b, err)
	check(b, tx.StartWriteStatement(ctx))
	check(b, fn(tx.Tree(root)))
	check(b, tx.EndStatement(nil))
	check(b, tx.Commit())
}

// BenchmarkTx_DeleteScan deletes a contiguous range of 10,000 of 100,000
// in-memory rows while scanning it with a cursor (DELETE … WHERE id
// BETWEEN), commit inside the timer.
func BenchmarkTx_DeleteScan(b *testing.B) {
	m := NewManager(benchOpen(b, "mem"))
	root := benchFill(b, m, 0, benchRows)
	del := deleteKeys("contiguous")
	lo, hi := key(del[0]), key(del[len(del)-1])
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tx, err := m.Begin(ctx, Options{})
		check(b, err)
		check(b, tx.StartWriteStatement(ctx))
		tr := tx.Tree(root)
		c := tr.Cursor()
		for ok := c.Seek(lo); ok && string(c.Key()) <= string(hi); ok = c.Next() {
			check(b, tr.Delete(c.Key()))
		}
		check(b, c.Err())
		c.Close()
		check(b, tx.EndStatement(nil))
		check(b, tx.Commit())
		b.StopTimer()
		benchRestore(b, m, root, del)
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(del)), "ns/row")
}

// BenchmarkCursor_Scan walks 100,000 rows of a read-only transaction, one
// row (Key and Value) per op, restarting at the end: the table-scan path.
func BenchmarkCursor_Scan(b *testing.B) {
	m := NewManager(benchOpen(b, "mem"))
	root := benchFill(b, m, 0, benchRows)
	tx, err := m.Begin(ctx, Options{ReadOnly: true})
	check(b, err)
	defer func() { _ = tx.Rollback() }()
	c := tx.Tree(root).Cursor()
	defer c.Close()
	b.ReportAllocs()
	ok := c.First()
	for b.Loop() {
		if !ok {
			ok = c.First()
		}
		_ = c.Key()
		if _, err := c.Value(); err != nil {
			b.Fatal(err)
		}
		ok = c.Next()
	}
	check(b, c.Err())
}

// BenchmarkTombSet_Sorted commits-order 10,000 tombstones that arrived in
// random order: 8-byte rowid keys, and text index keys (a shared prefix,
// then the value and a rowid). An op is one key.
func BenchmarkTombSet_Sorted(b *testing.B) {
	const n = 10_000
	perm := rand.New(rand.NewPCG(1, 2)).Perm(n)
	for _, kind := range []string{"rowid", "text"} {
		b.Run(kind, func(b *testing.B) {
			b.ReportAllocs()
			for done := 0; done < b.N; done += n {
				b.StopTimer()
				var s tombSet
				for _, i := range perm {
					k := key(i)
					if kind == "text" {
						k = append(fmt.Appendf(nil, "\x04name%08d", i), k...)
					}
					s.add(k, tsVerified)
				}
				b.StartTimer()
				if got := s.sorted(); len(got) != n {
					b.Fatal(len(got))
				}
			}
		})
	}
}
