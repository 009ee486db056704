package engine

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// Cold statements: every iteration runs a statement text the database has
// not seen (a constant changes), so it is parsed, bound, optimized and
// compiled before it runs once, as an ORM's or a shell's one-off query.

// coldDB makes the nine tables tN(aN, bN, cN, dN, eN INTEGER, xN
// VARCHAR(30)) of rows rows each, plus w(k, v) of ten rows.
func coldDB(b *testing.B, rows int) *Session {
	_, s := benchDB(b, 0)
	r := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 9; n++ {
		benchRun(b, s, fmt.Sprintf("CREATE TABLE t%d(a%d INTEGER, b%d INTEGER, c%d INTEGER, d%d INTEGER, e%d INTEGER, x%d VARCHAR(30))", n, n, n, n, n, n, n))
		var vals []string
		for range rows {
			vals = append(vals, fmt.Sprintf("(%d,%d,%d,%d,%d,'x%d')", r.IntN(1000), r.IntN(1000), r.IntN(1000), r.IntN(1000), r.IntN(1000), r.IntN(1000)))
		}
		if rows > 0 {
			benchRun(b, s, fmt.Sprintf("INSERT INTO t%d VALUES %s", n, strings.Join(vals, ",")))
		}
	}
	benchRun(b, s, "CREATE TABLE w(k INTEGER, v INTEGER)")
	benchRun(b, s, "INSERT INTO w VALUES (1,1),(2,2),(3,3),(4,4),(5,5),(6,6),(7,7),(8,8),(9,9),(10,10)")
	return s
}

// benchCold runs text(i) once per iteration, each a new statement.
func benchCold(b *testing.B, s *Session, text func(i int) string) {
	ctx := context.Background()
	dest := make([]types.Value, 64)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op") }()
	for i := 0; i < b.N; i++ {
		st, err := s.Prepare(ctx, text(i))
		if err != nil {
			b.Fatal(err)
		}
		rows, err := st.Query(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		for {
			if err := rows.Next(dest[:len(rows.Columns())]); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
		rows.Close()
		st.Close()
	}
}

// The five-table comma join with single-table IN filters.
func BenchmarkCold_Query_CommaJoinInFilters(b *testing.B) {
	benchCold(b, coldDB(b, 300), func(i int) string {
		return fmt.Sprintf("SELECT e9*614+b2, x5, x2, a8, d6 FROM t5, t6, t9, t2, t8 WHERE e8 IN (904,442,381,792,204,635) AND b9 IN (426,524,549,15,864,525,936) AND d6 IN (21,337,942) AND a2 IN (789,315,796,522,910,56,769,637) AND %d=c5", i%1000)
	})
}

// A 400-term OR of equalities over a ten-row table.
func BenchmarkCold_Query_Or400(b *testing.B) {
	terms := make([]string, 400)
	for k := range terms {
		terms[k] = fmt.Sprintf("v = %d", k)
	}
	or := strings.Join(terms, " OR ")
	benchCold(b, coldDB(b, 0), func(i int) string {
		return fmt.Sprintf("SELECT count(*) FROM w WHERE k <> %d AND (%s)", i, or)
	})
}

// A chain join of 25 tables (the nine tables under aliases) of 30 rows.
func BenchmarkCold_Query_Join25(b *testing.B) {
	var from, where []string
	for k := 1; k <= 25; k++ {
		n := (k-1)%9 + 1
		from = append(from, fmt.Sprintf("t%d AS j%d", n, k))
		if k > 1 {
			p := (k-2)%9 + 1
			where = append(where, fmt.Sprintf("j%d.c%d = j%d.a%d", k-1, p, k, n))
		}
	}
	q := "SELECT count(*) FROM " + strings.Join(from, ", ") + " WHERE " + strings.Join(where, " AND ")
	benchCold(b, coldDB(b, 30), func(i int) string { return fmt.Sprintf("%s AND j1.b1 <> %d", q, i) })
}
