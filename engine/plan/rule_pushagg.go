package plan

// pushThroughAggregate moves the conjuncts of a filter over an Aggregate
// (HAVING, or WHERE on a grouped view or subquery) below it when they
// compare a plain BINARY group column with constants: such a condition
// holds for every row of a group or for none, so filtering rows first
// keeps exactly the groups it would have kept. Anything else (aggregate
// results, other operators, collations, which could tell apart values one
// group merges, as 1 and 1.0 or 'a' and 'A') stays above.
func pushThroughAggregate(f *Filter, a *Aggregate) Node {
	if len(a.Group) == 0 {
		return f
	}
	var below Expr
	var keep [8]Expr
	rest := keep[:0] // the conjuncts that stay, ANDed only if something moves
	for c := range conjunctsOf(f.Pred) {
		if m, ok := groupCondition(c, a); ok {
			below = andExpr(below, m)
		} else {
			rest = append(rest, c)
		}
	}
	if below == nil {
		return f
	}
	na := *a
	na.Input = pushdownFilters(nil, &Filter{Input: a.Input, Pred: below})
	if len(rest) == 0 {
		return &na
	}
	return &Filter{Input: &na, Pred: andAll(rest)}
}

// groupCondition rewrites "group column op constant" (either way round)
// over the aggregate's input, or reports false.
func groupCondition(c Expr, a *Aggregate) (Expr, bool) {
	bin, ok := c.(*Binary)
	if !ok || normColl(bin.Coll) != "BINARY" {
		return nil, false
	}
	switch bin.Op {
	case "=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT":
	default:
		return nil, false
	}
	l, lok := groupColumn(bin.L, a)
	r, rok := groupColumn(bin.R, a)
	switch {
	case lok && isConstOperand(bin.R):
		return &Binary{Op: bin.Op, L: l, R: bin.R, Coll: bin.Coll, TextAff: bin.TextAff}, true
	case rok && isConstOperand(bin.L):
		return &Binary{Op: bin.Op, L: bin.L, R: r, Coll: bin.Coll, TextAff: bin.TextAff}, true
	}
	return nil, false
}

// groupColumn maps a reference to a group key that is a plain BINARY input
// column (possibly under the comparison's affinity) to that input column.
func groupColumn(e Expr, a *Aggregate) (Expr, bool) {
	var aff *Affinity
	if x, ok := e.(*Affinity); ok {
		aff, e = x, x.X
	}
	ref, ok := e.(*ColRef)
	if !ok || ref.Idx >= len(a.Group) {
		return nil, false
	}
	g, ok := a.Group[ref.Idx].(*ColRef)
	if !ok || normColl(g.Collate) != "BINARY" {
		return nil, false
	}
	var out Expr = &ColRef{Idx: g.Idx, Affinity: g.Affinity, Collate: g.Collate}
	if aff != nil {
		out = &Affinity{X: out, Aff: aff.Aff, Read: aff.Read}
	}
	return out, true
}

// isConstOperand reports whether e is a constant or parameter, possibly
// under an affinity.
func isConstOperand(e Expr) bool {
	if x, ok := e.(*Affinity); ok {
		e = x.X
	}
	switch e.(type) {
	case *Const, *Param:
		return true
	}
	return false
}
