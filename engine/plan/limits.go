package plan

import "github.com/ladybugsql/ladybug/grammar"

// SQLite's limits that binding enforces (see docs/LIMITS.md).
const (
	// MaxColumn is the most columns of a table, a result set, a VALUES
	// row, or terms of an ORDER BY or GROUP BY (SQLITE_MAX_COLUMN).
	MaxColumn = grammar.MaxColumn
	// MaxViewNesting is how deep views and CTEs may expand inside one
	// another, the outer query included (SQLite ties it to
	// SQLITE_MAX_EXPR_DEPTH).
	MaxViewNesting = grammar.MaxExprDepth
)

// nestDeeper fails when binding one more view or CTE body would pass
// MaxViewNesting. Each expansion recurses through the binder, so the
// bound keeps a chain of 10,000 CTEs from costing its square.
func (b *Binder) nestDeeper() error {
	if 1+len(b.views)+b.cteNest >= MaxViewNesting {
		return bindErr("VIEWs and/or subqueries nested too deep")
	}
	return nil
}

// checkColumns fails when n columns pass MaxColumn; what names them in
// SQLite's message ("in result set", "on t").
func checkColumns(n int, what string) error {
	if n > MaxColumn {
		return bindErr("too many columns %s", what)
	}
	return nil
}

// checkTerms fails when an ORDER BY or GROUP BY has more than MaxColumn
// terms; clause is "ORDER" or "GROUP".
func checkTerms(n int, clause string) error {
	if n > MaxColumn {
		return bindErr("too many terms in %s BY clause", clause)
	}
	return nil
}
