package plan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// joinBenchCatalog holds nine tables tN(aN, bN, cN INTEGER), each with an
// index on cN.
func joinBenchCatalog(tb testing.TB) *catalog.Catalog {
	cat := catalog.New()
	for n := 1; n <= 9; n++ {
		for _, sql := range []string{
			fmt.Sprintf("CREATE TABLE t%d(a%d INTEGER, b%d INTEGER, c%d INTEGER)", n, n, n, n),
			fmt.Sprintf("CREATE INDEX i%d ON t%d(c%d)", n, n, n),
		} {
			st, err := grammar.Parse(sql)
			if err != nil {
				tb.Fatal(err)
			}
			switch s := st[0].(type) {
			case *grammar.CreateTableStmt:
				tbl, autos, err := TableFromAST(s)
				if err != nil {
					tb.Fatal(err)
				}
				cat.PutTable(tbl)
				for _, ix := range autos {
					cat.PutIndex(ix)
				}
			case *grammar.CreateIndexStmt:
				bound, err := NewBinder(cat, noFolding{}).Bind(s)
				if err != nil {
					tb.Fatal(err)
				}
				cat.PutIndex(bound.(*CreateIndex).Index)
			}
		}
	}
	return cat
}

// joinBenchSQL is a comma join of n tables (the nine under aliases) in
// shape "chain" (each joined to the one before), "star" (each joined to
// the first) or "cycle" (a chain whose last table joins the first, and
// every third table also joins the one two before it), with a filter on
// every other table.
func joinBenchSQL(shape string, n int) string {
	var from, where []string
	col := func(k int, c string) string { return fmt.Sprintf("j%d.%s%d", k, c, (k-1)%9+1) }
	for k := 1; k <= n; k++ {
		from = append(from, fmt.Sprintf("t%d AS j%d", (k-1)%9+1, k))
		if k%2 == 0 {
			where = append(where, fmt.Sprintf("%s < %d", col(k, "b"), 10*k))
		}
		if k == 1 {
			continue
		}
		switch shape {
		case "star":
			where = append(where, col(1, "a")+" = "+col(k, "c"))
		default:
			where = append(where, col(k-1, "a")+" = "+col(k, "c"))
			if shape == "cycle" && k%3 == 0 {
				where = append(where, col(k-2, "b")+" = "+col(k, "b"))
			}
		}
	}
	if shape == "cycle" {
		where = append(where, col(n, "a")+" = "+col(1, "b"))
	}
	return "SELECT count(*) FROM " + strings.Join(from, ", ") + " WHERE " + strings.Join(where, " AND ")
}

// BenchmarkJoinOrder_Plan measures the rules (Optimize) on joins of 8,
// 12, 20 and 64 tables: dynamic programming orders connected groups of up
// to dpLeaves inputs, greedy search larger ones, so planning time stays
// bounded as the join grows. Binding is outside the timed part.
func BenchmarkJoinOrder_Plan(b *testing.B) {
	cat := joinBenchCatalog(b)
	for _, shape := range []string{"chain", "star", "cycle"} {
		for _, n := range []int{8, 10, 12, 20, 64} {
			b.Run(fmt.Sprintf("%s-%d", shape, n), func(b *testing.B) {
				st, err := grammar.Parse(joinBenchSQL(shape, n))
				if err != nil {
					b.Fatal(err)
				}
				sel := st[0].(*grammar.SelectStmt)
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					q, err := NewBinder(cat, noFolding{}).bindSelect(sel)
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					Optimize(cat, noFolding{}, q)
				}
			})
		}
	}
}
