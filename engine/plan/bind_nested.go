package plan

import (
	"strconv"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// bindNestedJoin binds a parenthesised join used as one FROM item — the
// right operand of a join, or one with an alias: "c LEFT JOIN (a JOIN b
// ON …) AS j ON …". As SQLite's nested FROM it is a subquery whose
// columns are the join's own (USING columns once), a repeated name
// becoming name:1, name:2 in order; they are qualified by the alias, and
// each stays reachable under its own table's name (a.y, b.*), which
// unqualified names and * do not see.
func (b *Binder) bindNestedJoin(j *grammar.Join) (Node, *scope, error) {
	inner := *j
	inner.Paren, inner.Alias = false, ""
	node, sc, err := b.bindJoin(&inner)
	if err != nil {
		return nil, nil, err
	}
	var cols []Column
	var exprs []Expr
	seen := map[string]int{}
	for i, c := range sc.cols {
		if c.Hidden {
			continue
		}
		k := catalog.Lower(c.Name)
		nc := c
		if n := seen[k]; n > 0 {
			nc.Name = c.Name + ":" + strconv.Itoa(n)
		}
		seen[k]++
		nc.Table = j.Alias
		cols = append(cols, nc)
		exprs = append(exprs, &ColRef{Idx: i, Affinity: c.Affinity, Collate: c.Collate})
	}
	for i, c := range sc.cols {
		hc := c
		hc.Nested, hc.Hidden = !c.Hidden, true
		cols = append(cols, hc)
		exprs = append(exprs, &ColRef{Idx: i, Affinity: c.Affinity, Collate: c.Collate})
	}
	return &Project{Input: node, Exprs: exprs, Cols: cols}, &scope{cols: cols}, nil
}

// isNestedJoin reports whether te is a parenthesised join.
func isNestedJoin(te grammar.TableExpr) bool {
	j, ok := te.(*grammar.Join)
	return ok && j.Paren
}
