package ladybug

import (
	"database/sql"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// The write benchmarks below have the shapes of the bench/ harness rows
// (insert_tx, insert_autocommit, update_tx, delete_batch) through
// database/sql on an in-memory database, so allocations per row and
// profiles are stable and comparable with the harness.

// openWriteBench opens an in-memory database with one connection and runs
// the schema statements.
func openWriteBench(b *testing.B, schema ...string) *sql.DB {
	b.Helper()
	return openHarness(b, false, schema...)
}

// loadRows inserts rows 1..n through sql in one transaction.
func loadRows(b *testing.B, db *sql.DB, sqlText string, n int, args func(i int) []any) {
	b.Helper()
	execInTx(b, db, sqlText, n, func(i int) []any { return args(i + 1) })
}

// inTx runs b.N executions of sqlText in one transaction (committed inside
// the timer, as the harness does), with args(i) for execution i.
func inTx(b *testing.B, db *sql.DB, sqlText string, args func(i int) []any) {
	b.Helper()
	b.ReportAllocs()
	defer reportCPU(b)()
	b.ResetTimer()
	execInTx(b, db, sqlText, b.N, args)
}

// execInTx runs n executions of one prepared statement in a transaction.
func execInTx(b *testing.B, db *sql.DB, sqlText string, n int, args func(i int) []any) {
	b.Helper()
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	st, err := tx.Prepare(sqlText)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if _, err := st.Exec(args(i)...); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// reportCPU starts measuring process CPU time; the returned func reports
// it per op as the "cpu-ns/op" metric.
func reportCPU(b *testing.B) func() {
	start := processCPU()
	return func() {
		b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
	}
}

const insSchema = "CREATE TABLE ins (id INTEGER PRIMARY KEY, val INTEGER NOT NULL, name TEXT NOT NULL)"

func BenchmarkDB_Exec_InsertTx(b *testing.B) {
	db := openWriteBench(b, insSchema)
	inTx(b, db, "INSERT INTO ins (id, val, name) VALUES (?, ?, ?)", func(i int) []any {
		return []any{i + 1, i * 7, "name"}
	})
}

func BenchmarkDB_Exec_InsertAutocommit(b *testing.B) {
	db := openWriteBench(b, insSchema)
	st, err := db.Prepare("INSERT INTO ins (id, val, name) VALUES (?, ?, ?)")
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	b.ReportAllocs()
	defer reportCPU(b)()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.Exec(i+1, i*7, "name"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDB_Exec_UpdateTx(b *testing.B) {
	const rows = 100_000
	db := openWriteBench(b, "CREATE TABLE t (id INTEGER PRIMARY KEY, val INTEGER NOT NULL, name TEXT NOT NULL)")
	loadRows(b, db, "INSERT INTO t VALUES (?, ?, ?)", rows, func(i int) []any { return []any{i, i * 7, fmt.Sprint("name", i)} })
	inTx(b, db, "UPDATE t SET val = ? WHERE id = ?", func(i int) []any {
		return []any{i, (i*7919)%rows + 1}
	})
}

// benchDelete deletes b.N rows (at most the table's) by key, with the text
// column indexed as in the harness's delete_batch.
func benchDelete(b *testing.B, where string, byText bool) {
	rows := max(b.N, 100_000)
	keys := make([]any, rows+1)
	for i := range keys {
		keys[i] = i
		if byText {
			keys[i] = fmt.Sprintf("name%08d", i)
		}
	}
	db := openWriteBench(b, "CREATE TABLE d (id INTEGER PRIMARY KEY, val INTEGER NOT NULL, k TEXT NOT NULL)",
		"CREATE INDEX d_k ON d (k)")
	loadRows(b, db, "INSERT INTO d VALUES (?, ?, ?)", rows, func(i int) []any { return []any{i, i * 7, fmt.Sprintf("name%08d", i)} })
	inTx(b, db, "DELETE FROM d WHERE "+where, func(i int) []any {
		return []any{keys[(i*7919)%rows+1]}
	})
}

func BenchmarkDB_Exec_DeleteSpread(b *testing.B) {
	benchDelete(b, "id = ?", false)
}

func BenchmarkDB_Exec_DeleteText(b *testing.B) {
	benchDelete(b, "k = ?", true)
}

// The harness-scale write benchmarks: the bench/ rows at -scale 0.1, a
// 10k-row table and transactions of 1000 statements, each committed inside
// the timer, so the commit's share (page copies, log frames) is the
// harness's. b.N counts statements; memory and file (sync=normal) modes.

const (
	harnessRows  = 10_000
	harnessBatch = 1_000
)

// openHarness opens an in-memory database, or a file one with
// sync=normal in a temporary directory when file is set, with one
// connection, and runs the schema statements.
func openHarness(b *testing.B, file bool, schema ...string) *sql.DB {
	b.Helper()
	dsn := ":memory:"
	if file {
		dsn = b.TempDir() + "/bench.db?sync=normal"
	}
	db, err := sql.Open("ladybug", dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	for _, s := range schema {
		if _, err := db.Exec(s); err != nil {
			b.Fatal(err)
		}
	}
	return db
}

// inBatches runs b.N executions of sqlText in transactions of
// harnessBatch, each committed inside the timer; args(i) gives execution
// i's arguments and reload, when set, runs untimed before each batch.
func inBatches(b *testing.B, db *sql.DB, sqlText string, reload func(), args func(i int) []any) {
	b.Helper()
	b.ReportAllocs()
	var cpu time.Duration // process CPU time of the timed batches only
	b.ResetTimer()
	for done := 0; done < b.N; {
		if reload != nil {
			b.StopTimer()
			reload()
			b.StartTimer()
		}
		n := min(harnessBatch, b.N-done)
		start := processCPU()
		execInTx(b, db, sqlText, n, func(i int) []any { return args(done + i) })
		cpu += processCPU() - start
		done += n
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}

func benchHarnessUpdate(b *testing.B, file bool) {
	db := openHarness(b, file, "CREATE TABLE t (id INTEGER PRIMARY KEY, val INTEGER NOT NULL, name TEXT NOT NULL)")
	loadRows(b, db, "INSERT INTO t VALUES (?, ?, ?)", harnessRows, func(i int) []any {
		return []any{i, int64(i) * 2654435761 % 1000003, fmt.Sprintf("name-%08d", i)}
	})
	inBatches(b, db, "UPDATE t SET val = ? WHERE id = ?", nil, func(i int) []any {
		return []any{1_000_000 + i, (i*7919)%harnessRows + 1}
	})
}

func BenchmarkDB_Exec_HarnessUpdate(b *testing.B)     { benchHarnessUpdate(b, false) }
func BenchmarkDB_Exec_HarnessUpdateFile(b *testing.B) { benchHarnessUpdate(b, true) }

// benchHarnessDelete deletes harnessBatch of harnessRows rows per
// transaction, by rowid in a spread order (or a contiguous run) or by the
// indexed text column; the deleted rows are inserted again (untimed)
// before the next batch.
func benchHarnessDelete(b *testing.B, file, byText, contiguous bool) {
	db := openHarness(b, file, "CREATE TABLE d (id INTEGER PRIMARY KEY, val INTEGER NOT NULL, k TEXT NOT NULL)",
		"CREATE INDEX d_k ON d (k)")
	name := func(i int) string { return fmt.Sprintf("name-%08d", i) }
	id := func(i int) int { return (i%harnessBatch*7919)%harnessRows + 1 }
	if contiguous {
		id = func(i int) int { return harnessRows/4 + i%harnessBatch + 1 }
	}
	row := func(i int) []any { return []any{i, i * 7, name(i)} }
	loadRows(b, db, "INSERT INTO d VALUES (?, ?, ?)", harnessRows, row)
	first := true
	reload := func() {
		if !first {
			execInTx(b, db, "INSERT INTO d VALUES (?, ?, ?)", harnessBatch, func(i int) []any { return row(id(i)) })
		}
		first = false
	}
	where := "id = ?"
	if byText {
		where = "k = ?"
	}
	inBatches(b, db, "DELETE FROM d WHERE "+where, reload, func(i int) []any {
		if byText {
			return []any{name(id(i))}
		}
		return []any{id(i)}
	})
}

func BenchmarkDB_Exec_HarnessDeleteSpread(b *testing.B) { benchHarnessDelete(b, false, false, false) }
func BenchmarkDB_Exec_HarnessDeleteText(b *testing.B)   { benchHarnessDelete(b, false, true, false) }
func BenchmarkDB_Exec_HarnessDeleteContig(b *testing.B) { benchHarnessDelete(b, false, false, true) }
func BenchmarkDB_Exec_HarnessDeleteSpreadFile(b *testing.B) {
	benchHarnessDelete(b, true, false, false)
}

// benchHarnessInsert inserts harnessBatch fresh rows per transaction into
// a table emptied (untimed) before each batch.
func benchHarnessInsert(b *testing.B, file bool) {
	db := openHarness(b, file)
	reload := func() {
		for _, s := range []string{"DROP TABLE IF EXISTS ins", insSchema} {
			if _, err := db.Exec(s); err != nil {
				b.Fatal(err)
			}
		}
	}
	inBatches(b, db, "INSERT INTO ins (id, val, name) VALUES (?, ?, ?)", reload, func(i int) []any {
		id := i%harnessBatch + 1
		return []any{id, int64(id) * 2654435761 % 1000003, "name-00000000"}
	})
}

func BenchmarkDB_Exec_HarnessInsert(b *testing.B)     { benchHarnessInsert(b, false) }
func BenchmarkDB_Exec_HarnessInsertFile(b *testing.B) { benchHarnessInsert(b, true) }

// BenchmarkDB_Exec_DeleteRandomOrderHeld measures the memory a
// transaction holds, until it commits, after deleting a million rows in
// random rowid order (through an index on a permutation of the rowids),
// as heap-B/row: the heap after the DELETE statement, before COMMIT, less
// the heap before it, over the rows deleted. Run with -benchtime=1x.
func BenchmarkDB_Exec_DeleteRandomOrderHeld(b *testing.B) {
	const rows = 1_000_000
	db := openWriteBench(b, "CREATE TABLE t (id INTEGER PRIMARY KEY, r INTEGER NOT NULL)", "CREATE INDEX t_r ON t (r)")
	if _, err := db.Exec(fmt.Sprintf("INSERT INTO t SELECT value, (value * 7919) %% %d FROM generate_series(1, %d)", rows, rows)); err != nil {
		b.Fatal(err)
	}
	var held float64
	for b.Loop() {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		before := heapAlloc()
		res, err := tx.Exec("DELETE FROM t INDEXED BY t_r WHERE r >= 0")
		if err != nil {
			b.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n != rows {
			b.Fatalf("deleted %d rows, want %d", n, rows)
		}
		held = float64(heapAlloc()-before) / rows
		if err := tx.Rollback(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(held, "heap-B/row")
}

// heapAlloc is the live heap after a collection.
func heapAlloc() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
