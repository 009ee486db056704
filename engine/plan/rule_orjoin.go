package plan

// JoinKeySet is one disjunct's equi-join keys of an OR join condition:
// Left over the join's left columns, Right over its right side's own.
type JoinKeySet struct {
	Left, Right []Expr
}

// OrJoinKeys finds in the condition on of a join whose left side has nl
// columns the first conjunct that is an OR of disjuncts each holding an
// equality between a left-only and a right-only expression (one that could
// be a hash-join key, as addJoinKey requires), and returns the keys of
// each disjunct: "(l.a = r.a OR l.b = r.b)" gives {l.a}/{r.a} and
// {l.b}/{r.b}. A pair of rows can satisfy the OR only if it matches on
// one of the sets, so the union of one hash probe per set finds every
// candidate; the whole condition stays the residual that decides. nil
// when no conjunct qualifies.
func OrJoinKeys(on Expr, nl int) []JoinKeySet {
	for c := range conjunctsOf(on) {
		if sets := orKeySets(c, nl); sets != nil {
			return sets
		}
	}
	return nil
}

// orKeySets is OrJoinKeys for one conjunct c.
func orKeySets(c Expr, nl int) []JoinKeySet {
	bin, ok := c.(*Binary)
	if !ok || bin.Op != "OR" {
		return nil
	}
	ds := disjuncts(c, nil)
	sets := make([]JoinKeySet, 0, len(ds))
	for _, d := range ds {
		var set JoinKeySet
		for e := range conjunctsOf(d) {
			if l, r, ok := crossEquality(e, nl); ok {
				set.Left, set.Right = append(set.Left, l), append(set.Right, shiftCols(r, -nl))
			}
		}
		if len(set.Left) == 0 {
			return nil
		}
		sets = append(sets, set)
	}
	return sets
}

// disjuncts flattens a tree of ORs.
func disjuncts(e Expr, out []Expr) []Expr {
	if bin, ok := e.(*Binary); ok && bin.Op == "OR" {
		return disjuncts(bin.R, disjuncts(bin.L, out))
	}
	return append(out, e)
}

// crossEquality reports whether e is "left = right" with one side over
// the left columns only and the other over the right ones only, as a hash
// key compares (no collation, no text affinity), and returns the two sides.
func crossEquality(e Expr, nl int) (l, r Expr, ok bool) {
	bin, isBin := e.(*Binary)
	if !isBin || bin.Op != "=" || bin.Coll != "" || bin.TextAff {
		return nil, nil, false
	}
	switch ls, rs := pushSide(bin.L, nl), pushSide(bin.R, nl); {
	case ls == sideLeft && rs == sideRight:
		return bin.L, bin.R, true
	case ls == sideRight && rs == sideLeft:
		return bin.R, bin.L, true
	}
	return nil, nil, false
}

// isOrJoinCond reports whether c, a conjunct over both sides of a join
// with nl left columns, can drive the join as OR keys (see OrJoinKeys).
func isOrJoinCond(c Expr, nl int) bool { return orKeySets(c, nl) != nil }
