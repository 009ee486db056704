package plan

import "github.com/ladybugsql/ladybug/engine/catalog"

// hashJoinBuildSide swaps the inputs of an inner hash join when the left
// (probe) side is estimated smaller than the right (build) side, so the
// hash table holds the smaller input, and puts a projection on top that
// restores the original column order. The ON residual is rewritten for the
// swapped columns, so only joins whose residual is pushable (see pushSide)
// qualify. Row order of an inner join is unspecified, as in SQLite.
func hashJoinBuildSide(_ *catalog.Catalog, n Node) Node {
	j, ok := n.(*Join)
	if !ok || j.Kind != JoinInner || j.Method != JoinHash {
		return n
	}
	if len(j.LeftKeys) == 0 && (j.On == nil || OrJoinKeys(j.On, len(j.Left.Columns())) == nil) {
		return n
	}
	if EstimateRows(j.Left) >= EstimateRows(j.Right) {
		return n
	}
	if sw, ok := swapJoin(j); ok {
		return sw
	}
	return n
}

// swapJoin is inner join j with its inputs swapped under a projection
// that restores j's column order; false when j's residual is not
// pushable, so its column references cannot be moved.
func swapJoin(j *Join) (*Project, bool) {
	nl, nr := len(j.Left.Columns()), len(j.Right.Columns())
	if j.On != nil && pushSide(j.On, nl) == sideNone {
		return nil, false
	}
	moved := func(i int) int {
		if i < nl {
			return i + nr
		}
		return i - nl
	}
	sw := &Join{Kind: JoinInner, Left: j.Right, Right: j.Left, LeftKeys: j.RightKeys, RightKeys: j.LeftKeys,
		Cols: append(append(make([]Column, 0, len(j.Cols)), j.Cols[nl:]...), j.Cols[:nl]...)}
	if j.On != nil {
		sw.On = remapCols(j.On, moved)
	}
	return &Project{Input: sw, Exprs: refsTo(j.Cols, moved), Cols: j.Cols}, true
}

// remapCols rewrites e's column references through to; e must be
// pushable (MapExpr rebuilds every node of that set).
//
// A reference that stays where it is is kept, not copied (a ColRef is
// never changed once bound), so a subtree the mapping leaves alone is
// shared.
func remapCols(e Expr, to func(int) int) Expr {
	return MapExpr(e, func(x Expr) Expr {
		if c, isRef := x.(*ColRef); isRef {
			if idx := to(c.Idx); idx != c.Idx {
				return &ColRef{Idx: idx, Affinity: c.Affinity, Collate: c.Collate}
			}
		}
		return x
	})
}
