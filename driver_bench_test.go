package ladybug

import (
	"database/sql"
	"fmt"
	"testing"
)

// benchDriverDB opens an in-memory database with a 10k-row table t(id, val,
// name) for the database/sql benchmarks.
func benchDriverDB(b *testing.B) *sql.DB {
	b.Helper()
	db := openWriteBench(b, "CREATE TABLE t(id INTEGER PRIMARY KEY, val INTEGER NOT NULL, name TEXT NOT NULL)")
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	for i := 1; i <= 10_000; i++ {
		if _, err := tx.Exec("INSERT INTO t VALUES (?, ?, ?)", i, i*7, fmt.Sprintf("name%d", i)); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return db
}

func BenchmarkDB_QueryRow_Select1Prepared(b *testing.B) {
	db := benchDriverDB(b)
	st, err := db.Prepare("SELECT 1")
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	b.ReportAllocs()
	b.ResetTimer()
	var v int64
	for i := 0; i < b.N; i++ {
		if err := st.QueryRow().Scan(&v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDB_QueryRow_Select1Unprepared(b *testing.B) {
	db := benchDriverDB(b)
	b.ReportAllocs()
	b.ResetTimer()
	var v int64
	for i := 0; i < b.N; i++ {
		if err := db.QueryRow("SELECT 1").Scan(&v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDB_QueryRow_PointLookup(b *testing.B) {
	db := benchDriverDB(b)
	st, err := db.Prepare("SELECT val, name FROM t WHERE id = ?")
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	b.ReportAllocs()
	b.ResetTimer()
	var val int64
	var name string
	for i := 0; i < b.N; i++ {
		if err := st.QueryRow(i%10_000+1).Scan(&val, &name); err != nil {
			b.Fatal(err)
		}
	}
}
