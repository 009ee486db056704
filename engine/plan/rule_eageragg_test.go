package plan

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// eagerCatalog holds c (customers) and o (orders, many per customer).
func eagerCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	cat := catalog.New()
	for _, ddl := range []string{
		"CREATE TABLE c(id INTEGER PRIMARY KEY, name TEXT)",
		"CREATE TABLE o(id INTEGER PRIMARY KEY, cid INTEGER, amount INTEGER, qty INTEGER)",
	} {
		st, err := grammar.Parse(ddl)
		require.NoError(t, err)
		tbl, _, err := TableFromAST(st[0].(*grammar.CreateTableStmt))
		require.NoError(t, err)
		cat.PutTable(tbl)
	}
	return cat
}

// TestEagerAggregate_OverflowTwin_IsTheSumOfTheSameArgument checks the
// pre-aggregate the eager-aggregate rule plants below the join: each sum
// becomes an AggPartialSum followed by an AggSumOverflow whose Twin is that
// partial sum's position, over the same argument, and the projection above
// the join raises each sum's own flag. A wrong Twin would not change an
// answer (exec would add the rows a second time), so only this test sees it.
func TestEagerAggregate_OverflowTwin_IsTheSumOfTheSameArgument(t *testing.T) {
	cat := eagerCatalog(t)
	st, err := bindOne(t, cat, `SELECT c.id, count(*), sum(o.amount), avg(o.qty), sum(o.qty),
		total(o.amount), max(o.amount) FROM o JOIN c ON c.id = o.cid GROUP BY c.id`)
	require.NoError(t, err)
	root := st.(*Query).Root
	var pre *Aggregate
	var checked []*CheckedSum
	Walk(root, func(n Node) bool {
		if a, ok := n.(*Aggregate); ok && a.Eager {
			require.Nil(t, pre, "one pre-aggregate")
			pre = a
		}
		if p, ok := n.(*Project); ok {
			for _, e := range p.Exprs {
				WalkExpr(e, func(e Expr) {
					if c, ok := e.(*CheckedSum); ok {
						checked = append(checked, c)
					}
				})
			}
		}
		return true
	})
	require.NotNil(t, pre, "the rule did not apply:\n%s", Format(root))

	// kind name(args) twin, in the pre-aggregate's order; o's columns are
	// id 0, cid 1, amount 2, qty 3.
	var got []string
	for _, a := range pre.Aggs {
		got = append(got, fmt.Sprintf("%d %s%v %d", a.Kind, a.Name, argCols(a.Args), a.Twin))
	}
	require.Equal(t, []string{
		fmt.Sprintf("%d count[] 0", AggNamed),
		fmt.Sprintf("%d [2] 0", AggPartialSum),
		fmt.Sprintf("%d [2] 1", AggSumOverflow),
		fmt.Sprintf("%d avg[3] 0", AggNamed),
		fmt.Sprintf("%d [3] 0", AggPartialSum),
		fmt.Sprintf("%d [3] 4", AggSumOverflow),
		fmt.Sprintf("%d total[2] 0", AggNamed),
		fmt.Sprintf("%d max[2] 0", AggNamed),
	}, got)
	for k, a := range pre.Aggs {
		if a.Kind == AggSumOverflow {
			require.Same(t, pre.Aggs[a.Twin].Args[0], a.Args[0], "aggregate %d shares its twin's argument", k)
		}
	}

	// Above the join, sum k is CheckedSum(its partial sum, its own flag):
	// the flag's column is the one right after the sum's.
	require.Len(t, checked, 2)
	for _, c := range checked {
		s, f := c.Sum.(*ColRef), c.Overflowed.(*ColRef)
		require.Equal(t, s.Idx+1, f.Idx, "a sum's flag is the column after it")
	}
}

// argCols lists the column indexes of plain column arguments.
func argCols(args []Expr) []int {
	out := []int{}
	for _, a := range args {
		if c, ok := a.(*ColRef); ok {
			out = append(out, c.Idx)
		}
	}
	return out
}
