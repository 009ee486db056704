package ladybug

import (
	"database/sql"
	"fmt"
	"testing"
)

// The write benchmarks below have the shapes of the bench/ harness rows
// (insert_tx, insert_autocommit, update_tx, delete_batch) through
// database/sql on an in-memory database, so allocations per row and
// profiles are stable and comparable with the harness.

// openWriteBench opens an in-memory database with one connection and runs
// the schema statements.
func openWriteBench(b *testing.B, schema ...string) *sql.DB {
	b.Helper()
	db, err := sql.Open("ladybug", ":memory:")
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
