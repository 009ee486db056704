package plan

import "github.com/ladybugsql/ladybug/engine/catalog"

// innerBelowLeft moves an inner join below a LEFT join on its left side
// when its condition does not read the LEFT join's right side:
//
//	(X LEFT JOIN F ON p) JOIN G ON q  =  (X JOIN G ON q) LEFT JOIN F ON p
//
// when q reads only X's and G's columns (p cannot read G's). For each X
// row both sides pair it with the same F rows (or NULLs) and the same G
// rows. The inner join then joins the chain below X, so join-order sees
// X's inputs and G together and can start from a selective G instead of
// building X's whole product first (SQLite's nested loops order the inner
// join's table before the LEFT JOIN's in the same way). A projection
// restores the column order.
func innerBelowLeft(_ *catalog.Catalog, n Node) Node {
	j, ok := n.(*Join)
	if !ok || (j.Kind != JoinInner) || j.Method != JoinHash {
		return n
	}
	lj, ok := j.Left.(*Join)
	if !ok || lj.Kind != JoinLeft || lj.Method != JoinHash {
		return n
	}
	nx, nf := len(lj.Left.Columns()), len(lj.Right.Columns())
	ng := len(j.Right.Columns())
	readsF := func(e Expr) bool {
		f := false
		WalkExpr(e, func(x Expr) {
			if c, ok := x.(*ColRef); ok && c.Idx >= nx && c.Idx < nx+nf {
				f = true
			}
		})
		return f
	}
	if len(j.LeftKeys) == 0 && j.On == nil {
		return n
	}
	for _, k := range j.LeftKeys {
		if pushSide(k, 1<<30) == sideNone || readsF(k) {
			return n
		}
	}
	if j.On != nil && (pushSide(j.On, 1<<30) == sideNone || readsF(j.On)) {
		return n
	}
	if lj.On != nil && pushSide(lj.On, 1<<30) == sideNone {
		return n
	}
	// Columns: before [X F G], inner join [X G], then [X G F].
	toInner := func(c int) int { // [X F G] -> [X G], c not in F
		if c < nx {
			return c
		}
		return c - nf
	}
	toLeftOn := func(c int) int { // [X F] -> [X G F]
		if c < nx {
			return c
		}
		return c + ng
	}
	xc, fc, gc := lj.Left.Columns(), lj.Right.Columns(), j.Right.Columns()
	inner := &Join{Kind: JoinInner, Method: JoinHash, Left: lj.Left, Right: j.Right, RightKeys: j.RightKeys,
		Cols: append(append([]Column{}, xc...), gc...)}
	for _, k := range j.LeftKeys {
		inner.LeftKeys = append(inner.LeftKeys, remapCols(k, toInner))
	}
	if j.On != nil {
		inner.On = remapCols(j.On, toInner)
	}
	left := &Join{Kind: JoinLeft, Method: JoinHash, Left: innerBelowLeft(nil, inner), Right: lj.Right,
		RightKeys: lj.RightKeys, Cols: append(append(append([]Column{}, xc...), gc...), fc...)}
	for _, k := range lj.LeftKeys {
		left.LeftKeys = append(left.LeftKeys, remapCols(k, toLeftOn))
	}
	if lj.On != nil {
		left.On = remapCols(lj.On, toLeftOn)
	}
	exprs := make([]Expr, len(j.Cols))
	for k, c := range j.Cols {
		at := k // X
		switch {
		case k >= nx+nf: // G
			at = k - nf
		case k >= nx: // F
			at = k + ng
		}
		exprs[k] = &ColRef{Idx: at, Affinity: c.Affinity, Collate: c.Collate}
	}
	return &Project{Input: left, Exprs: exprs, Cols: j.Cols}
}
