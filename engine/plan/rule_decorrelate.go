package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
)

// decorrelate turns correlated [NOT] EXISTS and IN (subquery) conjuncts of
// a filter into semi and anti joins of the filter's input with the
// subquery's FROM, so the subquery's table is read once (into a hash
// table, or probed per row by the index-join rule) instead of once per
// outer row. A conjunct qualifies when:
//
//   - the subquery is Project/Distinct/Sort/positive-constant-LIMIT
//     layers (none of which changes whether a row exists) over an
//     optional WHERE filter over a FROM that reads no outer row;
//   - every WHERE conjunct reading the outer row reads only it and the
//     FROM's columns, through operators that cannot fail, and at least
//     one is an equality usable as a hash key;
//   - for IN, a single column, a BINARY comparison, and the IN operand
//     reads no outer row itself.
//
// EXISTS is a semi join, NOT EXISTS an anti join, and x IN (…) a semi
// join with the extra key x = column (IN is true only on an equal
// non-NULL pair, and a filter drops NULL as it drops false). NOT IN is an
// anti join only when x and the column are both declared NOT NULL: with a
// NULL on either side x NOT IN (…) is NULL, not true, unless the set is
// empty, which an anti join cannot tell apart.
func decorrelate(_ *catalog.Catalog, n Node) Node {
	f, ok := n.(*Filter)
	if !ok {
		return n
	}
	input := f.Input
	var keep [8]Expr
	rest := keep[:0] // the conjuncts that stay, ANDed only if something moves
	changed := false
	for c := range conjunctsOf(f.Pred) {
		if j := semiJoinOf(input, c); j != nil {
			input, changed = j, true
			continue
		}
		rest = append(rest, c)
	}
	if !changed {
		return n
	}
	if len(rest) == 0 {
		return input
	}
	return &Filter{Input: input, Pred: andAll(rest)}
}

// semiJoinOf returns the semi or anti join of left that conjunct c
// amounts to, or nil.
func semiJoinOf(left Node, c Expr) *Join {
	switch x := c.(type) {
	case *Exists:
		if !x.Sub.Correlated {
			return nil
		}
		kind := JoinSemi
		if x.Not {
			kind = JoinAnti
		}
		return correlatedJoin(left, kind, existsBody(x.Sub.Plan), nil, nil)
	case *InSub:
		return inJoin(left, x)
	}
	return nil
}

// inJoin decorrelates x [NOT] IN (correlated subquery).
func inJoin(left Node, in *InSub) *Join {
	if !in.Sub.Correlated || len(in.X) != 1 || !mappable(in.X[0]) || exprReadsOuter(in.X[0]) {
		return nil
	}
	p, ok := setBody(in.Sub.Plan).(*Project)
	if !ok || len(p.Exprs) != 1 || !mappable(p.Exprs[0]) || exprReadsOuter(p.Exprs[0]) {
		return nil
	}
	x, col := in.X[0], in.Sub.Plan.Columns()[0]
	if c := operandCollation(x); c != "" && normColl(c) != "BINARY" {
		return nil
	}
	kind := JoinSemi
	if in.Not {
		if !notNullOperand(left, x) || !notNullOperand(p.Input, p.Exprs[0]) {
			return nil
		}
		kind = JoinAnti
	}
	aff := types.CompareAffinity(ExprAffinity(x), col.Affinity)
	return correlatedJoin(left, kind, p.Input, affinityOf(x, aff), affinityOf(p.Exprs[0], aff))
}

// existsBody strips the layers above a subquery's WHERE that do not change
// whether it returns a row.
func existsBody(n Node) Node {
	for {
		switch x := n.(type) {
		case *Project:
			for _, e := range x.Exprs {
				if !mappable(e) {
					return n
				}
			}
			n = x.Input
		case *Limit:
			c, ok := x.Limit.(*Const)
			if !ok || x.Offset != nil || c.V.Kind() != types.KindInt || c.V.Int() <= 0 {
				return n
			}
			n = x.Input
		default:
			in := setBody(n)
			if in == n {
				return n
			}
			n = in
		}
	}
}

// setBody strips the layers above an IN subquery's projection that do not
// change the set of values it returns.
func setBody(n Node) Node {
	for {
		switch x := n.(type) {
		case *Distinct:
			n = x.Input
		case *Sort:
			if x.Limit != nil {
				return n
			}
			n = x.Input
		default:
			return n
		}
	}
}

// correlatedJoin joins left with body (an optional filter over a FROM that
// reads no outer row), the filter's conjuncts that read the outer row
// becoming join keys and residuals; lkey/rkey, when set, are one more key
// (an IN operand and the subquery's column, over body's columns).
func correlatedJoin(left Node, kind JoinKind, body Node, lkey, rkey Expr) *Join {
	from, pred := body, Expr(nil)
	if f, ok := body.(*Filter); ok {
		from, pred = f.Input, f.Pred
	}
	if readsOuter(from) {
		return nil
	}
	nl := len(left.Columns())
	j := &Join{Kind: kind, Left: left, Cols: left.Columns()}
	if lkey != nil {
		j.LeftKeys, j.RightKeys = []Expr{lkey}, []Expr{rkey}
	}
	var local Expr
	for c := range conjunctsOf(pred) {
		if !exprReadsOuter(c) {
			local = andExpr(local, c)
			continue
		}
		if !mappable(c) {
			return nil
		}
		m := outerToLeft(c, nl)
		if pushSide(m, nl) == sideNone {
			return nil
		}
		if !addJoinKey(j, m, nl) {
			j.On = andExpr(j.On, m)
		}
	}
	if len(j.LeftKeys) == 0 {
		return nil
	}
	j.Right = from
	if local != nil {
		j.Right = &Filter{Input: from, Pred: local}
	}
	return j
}

// mappable reports whether e is built only from nodes MapExpr rebuilds
// and pushSide accepts, plus depth-1 outer references.
func mappable(e Expr) bool {
	ok := true
	WalkExpr(e, func(x Expr) {
		switch x := x.(type) {
		case *OuterRef:
			ok = ok && x.Depth == 1
		case *ColRef, *Const, *Param, *Unary, *Binary, *Affinity, *Collate, *Cast, *IsNull:
		default:
			ok = false
		}
	})
	return ok
}

// outerToLeft rewrites a subquery conjunct for the join: outer references
// become left columns, the subquery's own columns right ones (after nl).
func outerToLeft(e Expr, nl int) Expr {
	return MapExpr(e, func(x Expr) Expr {
		switch x := x.(type) {
		case *OuterRef:
			return &ColRef{Idx: x.Idx, Affinity: x.Ref.Affinity, Collate: x.Ref.Collate}
		case *ColRef:
			return &ColRef{Idx: x.Idx + nl, Affinity: x.Affinity, Collate: x.Collate}
		}
		return x
	})
}

// affinityOf applies a comparison affinity to an IN operand or column, as
// IN does to both before comparing.
func affinityOf(e Expr, aff types.Affinity) Expr {
	if aff == types.AffinityNone {
		return e
	}
	return &Affinity{X: e, Aff: aff}
}

// operandCollation is the collation IN compares its operand with.
func operandCollation(e Expr) string {
	switch e := e.(type) {
	case *Collate:
		return e.Name
	case *ColRef:
		return e.Collate
	case *Affinity:
		return operandCollation(e.X)
	}
	return ""
}

// notNullOperand reports whether e is a column of n declared NOT NULL.
func notNullOperand(n Node, e Expr) bool {
	c, ok := e.(*ColRef)
	cols := n.Columns()
	return ok && c.Idx < len(cols) && cols[c.Idx].NotNull
}
