package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
)

// emptyAggValues are the aggregates a scalar subquery may be
// decorrelated with, and what each returns over no rows (nil = NULL).
var emptyAggValues = map[string]Expr{
	"sum": nil, "min": nil, "max": nil, "avg": nil, "group_concat": nil,
	"count": &Const{V: types.NewInt(0)}, "total": &Const{V: types.NewReal(0)},
}

// scalarSubJoin decorrelates the correlated scalar subqueries of a
// projection or filter of the form (SELECT agg(…) FROM x WHERE inner =
// outer AND … AND local) into a LEFT join of the node's input with
// x grouped by the inner key expressions: each outer row meets at most
// its one group, and a row without one gets the aggregate's value over no
// rows (NULL, or 0 for count and total). Only equality correlations
// qualify (a residual would have to run before the grouping), with the
// conditions of decorrelate's joins, and only when the outer input is not
// estimated much smaller than x: for a few outer rows the subquery's own
// per-row index lookup is cheaper than aggregating all of x. A filter
// keeps its input's columns through a projection on top.
func scalarSubJoin(_ *catalog.Catalog, n Node) Node {
	switch x := n.(type) {
	case *Project:
		if !anyCorrelatedScalar(x.Exprs...) {
			return n
		}
		input, exprs, ok := decorrelateScalars(x.Input, x.Exprs)
		if !ok {
			return n
		}
		return &Project{Input: input, Exprs: exprs, Cols: x.Cols}
	case *Filter:
		if !anyCorrelatedScalar(x.Pred) {
			return n
		}
		input, exprs, ok := decorrelateScalars(x.Input, []Expr{x.Pred})
		if !ok {
			return n
		}
		cols := x.Input.Columns()
		return &Project{Input: &Filter{Input: input, Pred: exprs[0]}, Exprs: identityOf(cols), Cols: cols}
	}
	return n
}

// identityOf passes cols through.
func identityOf(cols []Column) []Expr { return refsTo(cols, nil) }

// anyCorrelatedScalar reports whether exprs hold a correlated scalar
// subquery, the only kind decorrelateScalars may join: the rule runs over
// every projection and filter, and most hold none.
func anyCorrelatedScalar(exprs ...Expr) bool {
	found := false
	for _, e := range exprs {
		WalkExpr(e, func(x Expr) {
			if s, ok := x.(*ScalarSub); ok && s.Sub.Correlated {
				found = true
			}
		})
	}
	return found
}

// decorrelateScalars joins input with the groups of each qualifying
// scalar subquery in exprs and returns exprs reading the joined values.
func decorrelateScalars(input Node, exprs []Expr) (Node, []Expr, bool) {
	changed := false
	out := make([]Expr, len(exprs))
	for i, e := range exprs {
		out[i] = MapExpr(e, func(x Expr) Expr {
			s, ok := x.(*ScalarSub)
			if !ok {
				return x
			}
			j, val := scalarGroupJoin(input, s)
			if j == nil {
				return x
			}
			input, changed = j, true
			return val
		})
	}
	return input, out, changed
}

// scalarGroupJoin returns the LEFT join of left with s's groups and the
// expression of s's value over it, or nil.
func scalarGroupJoin(left Node, s *ScalarSub) (*Join, Expr) {
	if !s.Sub.Correlated || s.Col != 0 || len(s.Sub.Plan.Columns()) != 1 {
		return nil, nil
	}
	p, ok := s.Sub.Plan.(*Project)
	if !ok || len(p.Exprs) != 1 {
		return nil, nil
	}
	ref, ok := p.Exprs[0].(*ColRef)
	agg, isAgg := p.Input.(*Aggregate)
	if !ok || !isAgg || len(agg.Group) != 0 || len(agg.Aggs) != 1 || ref.Idx != 0 {
		return nil, nil
	}
	empty, known := emptyAggValues[agg.Aggs[0].Name]
	if !known {
		return nil, nil
	}
	probe := correlatedJoin(left, JoinLeft, agg.Input, nil, nil)
	// The subquery run per row seeks an index for matches no ANALYZE
	// number counts: SQLite's counts decide (see unsizedEstimate).
	if probe == nil || probe.On != nil || unsizedEstimate(left)*indexProbeCost < unsizedEstimate(probe.Right) {
		return nil, nil
	}
	// Group the subquery's rows by its key expressions; the join then
	// matches the outer keys with the group columns.
	g := &Aggregate{Input: probe.Right, Group: probe.RightKeys, Aggs: agg.Aggs}
	rkeys := make([]Expr, len(probe.RightKeys))
	for i, k := range probe.RightKeys {
		g.Cols = append(g.Cols, Column{Affinity: ExprAffinity(k)})
		rkeys[i] = &ColRef{Idx: i, Affinity: ExprAffinity(k)}
	}
	g.Cols = append(g.Cols, agg.Cols[0])
	nl := len(left.Columns())
	cols := append(append([]Column{}, left.Columns()...), g.Cols...)
	for i := nl; i < len(cols); i++ {
		cols[i].NotNull = false
	}
	j := &Join{Kind: JoinLeft, Left: left, Right: g, LeftKeys: probe.LeftKeys, RightKeys: rkeys, Cols: cols}
	var val Expr = &ColRef{Idx: nl + len(rkeys), Affinity: agg.Cols[0].Affinity, Collate: agg.Cols[0].Collate}
	if empty != nil {
		val = &Func{Name: "coalesce", Args: []Expr{val, empty}}
	}
	return j, val
}
