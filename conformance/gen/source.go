package gen

import (
	"fmt"
	"strconv"
	"strings"
)

// cte defines a common table expression for the query's WITH clause and
// returns a reference to it: a one-table SELECT like a derived table, or a
// recursive series (deterministic: it counts up to a bound).
func (g *Gen) cte(depth int) (string, []ref) {
	name := g.nextAlias("c")
	a := g.nextAlias("a")
	if g.r.IntN(3) == 0 {
		g.recursive = true
		seed := g.litPick([]string{"1", "-1", "2.5", "'x'", "NULL", "'7'"})
		step := pick(g, []string{"m * 2", "m || 'y'", "m + n", "-m"})
		g.ctes = append(g.ctes, fmt.Sprintf("%s(c0, m) AS (SELECT 1, %s UNION ALL SELECT c0 + 1, %s FROM %s WHERE c0 < %s)",
			name, seed, strings.ReplaceAll(step, "n", "c0"), name, g.lit(strconv.Itoa(2+g.r.IntN(5)))))
		return name + " AS " + a, []ref{{sql: a + ".c0"}, {sql: a + ".m", noLike: true}}
	}
	body, n := g.derivedBody(max(depth-1, 0))
	g.ctes = append(g.ctes, name+" AS ("+body+")")
	return name + " AS " + a, columnRefs(a, n)
}

// valuesSource is a VALUES list as a derived table; its columns are
// column1, column2, … as SQLite names them.
func (g *Gen) valuesSource() (string, []ref) {
	a := g.nextAlias("v")
	n := 1 + g.r.IntN(3)
	rows := make([]string, 1+g.r.IntN(3))
	for i := range rows {
		vals := make([]string, n)
		for j := range vals {
			vals[j] = g.literal()
		}
		rows[i] = "(" + strings.Join(vals, ", ") + ")"
	}
	refs := make([]ref, n)
	for j := range refs {
		refs[j] = ref{sql: fmt.Sprintf("%s.column%d", a, j+1)}
	}
	return "(VALUES " + strings.Join(rows, ", ") + ") AS " + a, refs
}
