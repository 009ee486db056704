package ladybug_test

import (
	"context"
	"database/sql"
	"math/rand"
	"strconv"
	"testing"

	"github.com/ladybugsql/ladybug"
)

// benchDB opens an in-memory database with one connection, so every
// iteration reuses the same session and its cached plans.
func benchDB(b *testing.B) *sql.DB {
	b.Helper()
	db, err := sql.Open("ladybug", ":memory:")
	if err != nil {
		b.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	b.Cleanup(func() { db.Close() })
	return db
}

// reportZeroed adds the block pool's bytes zeroed per op as a metric.
func reportZeroed(b *testing.B, db *sql.DB, before ladybug.Stats) {
	after, err := ladybug.DBStats(context.Background(), db)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(after.ZeroedBytes-before.ZeroedBytes)/float64(b.N), "zeroedB/op")
}

func benchSelect1(b *testing.B, eager, prepared bool) {
	benchOneRow(b, `SELECT 1`, eager, prepared)
}

// benchOneRow runs a one-row query; with a pipeline breaker (ORDER BY,
// DISTINCT, GROUP BY) the row goes through a factorized table, and the
// zeroedB/op metric shows what lazy zeroing saves on it.
func benchOneRow(b *testing.B, query string, eager, prepared bool) {
	db := benchDB(b)
	if err := ladybug.SetEagerZero(db, eager); err != nil {
		b.Fatal(err)
	}
	st, err := db.Prepare(query)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	var v int
	if err := st.QueryRow().Scan(&v); err != nil || v != 1 {
		b.Fatal(err, v)
	}
	before, _ := ladybug.DBStats(context.Background(), db)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var row *sql.Row
		if prepared {
			row = st.QueryRow()
		} else {
			row = db.QueryRow(query)
		}
		if err := row.Scan(&v); err != nil || v != 1 {
			b.Fatal(err, v)
		}
	}
	b.StopTimer()
	reportZeroed(b, db, before)
}

func BenchmarkSelect1_Prepared_LazyZero(b *testing.B)    { benchSelect1(b, false, true) }
func BenchmarkSelect1_Prepared_EagerZero(b *testing.B)   { benchSelect1(b, true, true) }
func BenchmarkSelect1_Unprepared_LazyZero(b *testing.B)  { benchSelect1(b, false, false) }
func BenchmarkSelect1_Unprepared_EagerZero(b *testing.B) { benchSelect1(b, true, false) }

const oneRowSorted = `SELECT x FROM (SELECT 1 AS x) ORDER BY x`

func BenchmarkOneRowSorted_LazyZero(b *testing.B)  { benchOneRow(b, oneRowSorted, false, true) }
func BenchmarkOneRowSorted_EagerZero(b *testing.B) { benchOneRow(b, oneRowSorted, true, true) }

const oneRowGrouped = `SELECT count(*) FROM (SELECT 1 AS x) GROUP BY x`

func BenchmarkOneRowGrouped_LazyZero(b *testing.B)  { benchOneRow(b, oneRowGrouped, false, true) }
func BenchmarkOneRowGrouped_EagerZero(b *testing.B) { benchOneRow(b, oneRowGrouped, true, true) }

// BenchmarkQuery_RepeatedVsNewSQL shows the plan cache: a repeated SQL
// string is parsed once, a new string every time.
func BenchmarkQuery_RepeatedSQL(b *testing.B) { benchQueryText(b, false) }
func BenchmarkQuery_NewSQL(b *testing.B)      { benchQueryText(b, true) }

func benchQueryText(b *testing.B, fresh bool) {
	db := benchDB(b)
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a')`); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var v string
	for i := 0; i < b.N; i++ {
		q := `SELECT v FROM t WHERE id = 1 AND 0 >= 0`
		if fresh {
			q = `SELECT v FROM t WHERE id = 1 AND ` + strconv.Itoa(i) + ` >= 0`
		}
		if err := db.QueryRow(q).Scan(&v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPoint_PreparedRowid(b *testing.B) {
	db := benchDB(b)
	const n = 100000
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)`); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO t SELECT value, 'name' || value, value % 100 FROM generate_series(1, ?)`, n); err != nil {
		b.Fatal(err)
	}
	st, err := db.Prepare(`SELECT name, score FROM t WHERE id = ?`)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	rng := rand.New(rand.NewSource(1))
	b.ReportAllocs()
	b.ResetTimer()
	var name string
	var score int
	for i := 0; i < b.N; i++ {
		id := rng.Intn(n) + 1
		if err := st.QueryRow(id).Scan(&name, &score); err != nil || score != id%100 {
			b.Fatal(err, id, score)
		}
	}
}
