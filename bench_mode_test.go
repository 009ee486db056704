package ladybug

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// The mode benchmarks open a database the way bench/ does for each mode —
// a file with sync=normal, or ":memory:" with one connection kept open
// beside the pool — so file and memory can be compared in one run.

// openModeDB opens a database in mode "file" or "memory" as bench/ does.
func openModeDB(b *testing.B, mode string) *sql.DB {
	b.Helper()
	dsn := ":memory:?busy_timeout=5000"
	if mode == "file" {
		dsn = filepath.Join(b.TempDir(), "bench.db") + "?busy_timeout=5000&sync=normal"
	}
	db, err := sql.Open("ladybug", dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if mode == "memory" {
		keeper, err := db.Conn(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { keeper.Close() })
	} else if err := db.Ping(); err != nil {
		b.Fatal(err)
	}
	return db
}

// loadPointTable creates t(id, val, name) with rows 1..n in one transaction.
func loadPointTable(b *testing.B, db *sql.DB, n int) {
	b.Helper()
	if _, err := db.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, val INTEGER NOT NULL, name TEXT NOT NULL)"); err != nil {
		b.Fatal(err)
	}
	execInTx(b, db, "INSERT INTO t (id, val, name) VALUES (?, ?, ?)", n, func(i int) []any {
		return []any{i + 1, (i + 1) * 7, fmt.Sprintf("name-%d", i+1)}
	})
}

var benchModes = []string{"file", "memory"}

// pointStmt opens a database in mode with t(id, val, name) of rows rows
// (and, when conns > 0, a pool of that many connections) and prepares
// query on it; the statement closes with the benchmark.
func pointStmt(b *testing.B, mode string, rows, conns int, query string) *sql.Stmt {
	b.Helper()
	db := openModeDB(b, mode)
	if conns > 0 {
		db.SetMaxOpenConns(conns)
		db.SetMaxIdleConns(conns)
	}
	loadPointTable(b, db, rows)
	st, err := db.Prepare(query)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

func BenchmarkMode_Point(b *testing.B) {
	for _, mode := range benchModes {
		b.Run(mode, func(b *testing.B) {
			const rows = 100_000
			st := pointStmt(b, mode, rows, 0, "SELECT val, name FROM t WHERE id = ?")
			r := rand.New(rand.NewPCG(1, 7))
			ids := make([]int, 1<<16)
			for i := range ids {
				ids[i] = 1 + r.IntN(rows)
			}
			b.ReportAllocs()
			defer reportCPU(b)()
			b.ResetTimer()
			var v int64
			var s string
			for i := 0; i < b.N; i++ {
				id := ids[i&(len(ids)-1)]
				if err := st.QueryRow(id).Scan(&v, &s); err != nil || v != int64(id*7) {
					b.Fatal(err, id, v)
				}
			}
		})
	}
}

func BenchmarkMode_Select1Prepared(b *testing.B) {
	for _, mode := range benchModes {
		b.Run(mode, func(b *testing.B) {
			db := openModeDB(b, mode)
			st, err := db.Prepare("SELECT 1")
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			b.ReportAllocs()
			defer reportCPU(b)()
			b.ResetTimer()
			var v int64
			for i := 0; i < b.N; i++ {
				if err := st.QueryRow().Scan(&v); err != nil || v != 1 {
					b.Fatal(err, v)
				}
			}
		})
	}
}

func BenchmarkMode_ScanAgg(b *testing.B) {
	for _, mode := range benchModes {
		b.Run(mode, func(b *testing.B) {
			const rows = 1_000_000
			db := openModeDB(b, mode)
			if _, err := db.Exec("CREATE TABLE s (id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, val INTEGER NOT NULL, f REAL NOT NULL)"); err != nil {
				b.Fatal(err)
			}
			execInTx(b, db, "INSERT INTO s (id, grp, val, f) VALUES (?, ?, ?, ?)", rows, func(i int) []any {
				return []any{i + 1, (i + 1) % 100, (i + 1) * 7, float64((i+1)*7) / 4}
			})
			b.ReportAllocs()
			defer reportCPU(b)()
			b.ResetTimer()
			var count, sum int64
			var avg float64
			for i := 0; i < b.N; i++ {
				if err := db.QueryRow("SELECT count(*), sum(val), avg(f) FROM s").Scan(&count, &sum, &avg); err != nil || count != rows {
					b.Fatal(err, count)
				}
			}
		})
	}
}

// BenchmarkBigDB_Lookup is bench/'s big_db at scale 0.1: random lookups of
// 400-byte rows in a file about ten times the page cache, reopened cold.
func BenchmarkBigDB_Lookup(b *testing.B) {
	const rows = 20_000
	path := filepath.Join(b.TempDir(), "big.db")
	dsn := path + "?busy_timeout=5000&sync=normal&cache_size=820KiB"
	db, err := sql.Open("ladybug", dsn)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE b (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)"); err != nil {
		b.Fatal(err)
	}
	payload := func(id int) string {
		unit := fmt.Sprintf("%08d|%06d;", id, id*7)
		return strings.Repeat(unit, 400/len(unit)+1)[:400]
	}
	execInTx(b, db, "INSERT INTO b VALUES (?, ?)", rows, func(i int) []any { return []any{i + 1, payload(i + 1)} })
	db.Close()
	if db, err = sql.Open("ladybug", dsn); err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	st, err := db.Prepare("SELECT payload FROM b WHERE id = ?")
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	r := rand.New(rand.NewPCG(3, 37))
	b.ReportAllocs()
	defer reportCPU(b)()
	b.ResetTimer()
	var s string
	for i := 0; i < b.N; i++ {
		if err := st.QueryRow(1 + r.IntN(rows)).Scan(&s); err != nil || len(s) != 400 {
			b.Fatal(err, len(s))
		}
	}
}

func BenchmarkMode_Select1Unprepared(b *testing.B) {
	for _, mode := range benchModes {
		b.Run(mode, func(b *testing.B) {
			db := openModeDB(b, mode)
			b.ReportAllocs()
			defer reportCPU(b)()
			b.ResetTimer()
			var v int64
			for i := 0; i < b.N; i++ {
				if err := db.QueryRow("SELECT 1").Scan(&v); err != nil || v != 1 {
					b.Fatal(err, v)
				}
			}
		})
	}
}

// BenchmarkMode_ConcurrentRead is bench/'s concurrent_read without a
// writer: 2 or 8 goroutines doing random primary-key lookups through one
// prepared statement of one *sql.DB (b.N lookups in all). Compare its
// cpu-ns/op with one reader's (r1): the difference is what the readers'
// shared state costs. Run with -mutexprofile/-blockprofile to see waits.
func BenchmarkMode_ConcurrentRead(b *testing.B) {
	for _, mode := range benchModes {
		for _, readers := range []int{1, 2, 8} {
			b.Run(fmt.Sprintf("%s/r%d", mode, readers), func(b *testing.B) {
				const rows = 100_000
				st := pointStmt(b, mode, rows, readers+2, "SELECT val FROM t WHERE id = ?")
				b.ReportAllocs()
				defer reportCPU(b)()
				b.ResetTimer()
				var wg sync.WaitGroup
				var bad atomic.Int64
				for g := range readers {
					n := b.N / readers
					if g < b.N%readers {
						n++
					}
					wg.Go(func() {
						r := rand.New(rand.NewPCG(uint64(g), 29))
						var v int64
						for range n {
							id := 1 + r.IntN(rows)
							if err := st.QueryRow(id).Scan(&v); err != nil || v != int64(id*7) {
								bad.Add(1)
							}
						}
					})
				}
				wg.Wait()
				if n := bad.Load(); n != 0 {
					b.Fatalf("%d lookups failed or read a wrong value", n)
				}
			})
		}
	}
}
