package plan

import "math/bits"

// intoLeftJoin widens the preserved side of a LEFT JOIN input of a chain:
// an input G of the chain whose conditions read only the LEFT JOIN's left
// side X, G itself, and inputs already moved, joins X below the LEFT
// JOIN, as innerBelowLeft does for a join directly above it:
//
//	(X LEFT JOIN F ON p), G … WHERE q  =  (X JOIN G ON q) LEFT JOIN F ON p, …
//
// when q reads no column of F (p cannot read G's). For each X row both
// sides pair it with the same F rows (or NULLs) and the same G rows. So a
// selective input linked to X (a key to a filtered table) joins X before
// F's rows are paired with every X row, as SQLite's nested loops place
// such a table before the LEFT JOIN's; an input linked to nothing (a
// cross join) stays above. X and the inputs moved are ordered as a chain
// of their own, then the rest of the chain with the LEFT JOIN as one
// input. It reports false when no LEFT JOIN input has an input to take.
func (g *joinGraph) intoLeftJoin() (*subPlan, bool) {
	for x, lf := range g.leaves {
		lj, perm := leftJoinLeaf(lf.node)
		if lj == nil {
			continue
		}
		nx := len(lj.Left.Columns())
		isF := func(c int) bool { return c >= lf.off && c < lf.off+len(perm) && perm[c-lf.off] >= nx }
		if moved := g.movableInto(x, isF); moved != 0 {
			return g.orderIntoLeft(x, lj, perm, isF, moved), true
		}
	}
	return nil, false
}

// leftJoinLeaf returns the LEFT JOIN n is, directly or under a projection
// of its columns (as innerBelowLeft leaves one), and per column of n the
// LEFT JOIN's column it is; nil when n is neither or the join's keys or
// condition cannot be remapped.
func leftJoinLeaf(n Node) (*Join, []int) {
	var perm []int
	if p, ok := n.(*Project); ok && plainProject(p) {
		for _, e := range p.Exprs {
			perm = append(perm, e.(*ColRef).Idx)
		}
		n = p.Input
	}
	lj, ok := n.(*Join)
	if !ok || lj.Kind != JoinLeft || lj.Method != JoinHash || !pushableJoin(lj) {
		return nil, nil
	}
	if perm == nil {
		perm = make([]int, len(lj.Cols))
		for i := range perm {
			perm[i] = i
		}
	}
	return lj, perm
}

// pushableJoin reports whether j's keys and condition can be remapped.
func pushableJoin(j *Join) bool {
	for _, k := range append(append([]Expr{}, j.LeftKeys...), j.RightKeys...) {
		if pushSide(k, 1<<30) == sideNone {
			return false
		}
	}
	return j.On == nil || pushSide(j.On, 1<<30) != sideNone
}

// readsCol reports whether e reads a column in.
func readsCol(e Expr, in func(int) bool) bool {
	r := false
	WalkExpr(e, func(x Expr) {
		if c, ok := x.(*ColRef); ok && in(c.Idx) {
			r = true
		}
	})
	return r
}

// predReads reports whether p reads a column in.
func predReads(p *joinPred, in func(int) bool) bool {
	return readsCol(p.l, in) || (p.r != nil && readsCol(p.r, in))
}

// movableInto is the set of leaves that can join leaf x's LEFT JOIN's
// left side: linked by some condition to it or to leaves already taken,
// every condition on them reading only those leaves and none reading the
// LEFT JOIN's right side (the columns isF). Masks must be set.
func (g *joinGraph) movableInto(x int, isF func(int) bool) uint64 {
	in := uint64(1) << x
	for changed := true; changed; {
		changed = false
		for y := range g.leaves {
			ybit := uint64(1) << y
			if in&ybit != 0 {
				continue
			}
			linked, ok := false, true
			for i := range g.preds {
				p := &g.preds[i]
				m := p.lm | p.rm
				if m&ybit == 0 {
					continue
				}
				if m&^(in|ybit) != 0 || predReads(p, isF) {
					ok = false
					break
				}
				linked = linked || m&in != 0
			}
			if ok && linked {
				in |= ybit
				changed = true
			}
		}
	}
	return in &^ (1 << x)
}

// orderIntoLeft builds the chain with the leaves moved joined to leaf x's
// LEFT JOIN lj's left side, below lj, then orders the rest of the chain
// around it; perm maps the leaf's columns to lj's, isF tells lj's right
// side's columns in g. The returned plan's pos maps g's columns.
func (g *joinGraph) orderIntoLeft(x int, lj *Join, perm []int, isF func(int) bool, moved uint64) *subPlan {
	lf := g.leaves[x]
	nx := len(lj.Left.Columns())
	inner := moved | 1<<x
	// The inner chain: X's inputs, then the moved leaves, with X's
	// conditions and those on the moved leaves alone.
	g1 := &joinGraph{cat: g.cat}
	to1 := make([]int, g.width) // g column -> g1 column, -1 when not there
	for i := range to1 {
		to1[i] = -1
	}
	// X's own chain is flattened into g1, so its inputs are ordered with
	// the moved ones.
	xpos := g1.flatten(lj.Left)
	if len(g1.leaves)+bits.OnesCount64(moved) > maxOrderedLeaves {
		g1 = &joinGraph{cat: g.cat, leaves: []joinLeaf{{node: lj.Left}}, width: nx}
		for c := range xpos {
			xpos[c] = c
		}
	}
	for k, c := range perm {
		if c < nx {
			to1[lf.off+k] = xpos[c]
		}
	}
	for y := range g.leaves {
		if moved&(1<<y) == 0 {
			continue
		}
		ly := g.leaves[y]
		g1.leaves = append(g1.leaves, joinLeaf{node: ly.node, off: g1.width})
		for c := range ly.node.Columns() {
			to1[ly.off+c] = g1.width + c
		}
		g1.width += len(ly.node.Columns())
	}
	var rest []joinPred
	for _, p := range g.preds {
		if p.used {
			continue
		}
		if (p.lm|p.rm)&^inner != 0 || predReads(&p, isF) {
			rest = append(rest, p)
			continue
		}
		q := joinPred{key: p.key, l: remapCols(p.l, func(c int) int { return to1[c] })}
		if p.r != nil {
			q.r = remapCols(p.r, func(c int) int { return to1[c] })
		}
		g1.preds = append(g1.preds, q)
	}
	t1 := g1.order()
	if g1.consts != nil {
		t1.node = &Filter{Input: t1.node, Pred: g1.consts}
	}
	// The LEFT JOIN over it.
	n1 := len(t1.node.Columns())
	fromX := func(c int) int { // lj's [X F] -> [t1 F]
		if c < nx {
			return t1.pos[xpos[c]]
		}
		return n1 + c - nx
	}
	left := &Join{Kind: JoinLeft, Method: JoinHash, Left: t1.node, Right: lj.Right, RightKeys: lj.RightKeys,
		Cols: append(append([]Column{}, t1.node.Columns()...), lj.Right.Columns()...)}
	for _, k := range lj.LeftKeys {
		left.LeftKeys = append(left.LeftKeys, remapCols(k, fromX))
	}
	if lj.On != nil {
		left.On = remapCols(lj.On, fromX)
	}
	// The rest: the LEFT JOIN first, then the leaves not moved.
	g2 := &joinGraph{cat: g.cat}
	to2 := make([]int, g.width)
	for c := range to2 {
		switch {
		case isF(c):
			to2[c] = n1 + perm[c-lf.off] - nx
		case to1[c] >= 0:
			to2[c] = t1.pos[to1[c]]
		}
	}
	g2.leaves = append(g2.leaves, joinLeaf{node: left, off: 0})
	g2.width = len(left.Cols)
	for y := range g.leaves {
		if inner&(1<<y) != 0 {
			continue
		}
		ly := g.leaves[y]
		g2.leaves = append(g2.leaves, joinLeaf{node: ly.node, off: g2.width})
		for c := range ly.node.Columns() {
			to2[ly.off+c] = g2.width + c
		}
		g2.width += len(ly.node.Columns())
	}
	for _, p := range rest {
		q := joinPred{key: p.key, l: remapCols(p.l, func(c int) int { return to2[c] })}
		if p.r != nil {
			q.r = remapCols(p.r, func(c int) int { return to2[c] })
		}
		g2.preds = append(g2.preds, q)
	}
	var t2 *subPlan
	if len(g2.leaves) == 1 {
		t2 = &subPlan{node: left, set: 1, pos: make([]int, g2.width)}
		for c := range t2.pos {
			t2.pos[c] = c
		}
		if len(g2.preds) > 0 {
			var cond Expr
			for _, p := range g2.preds {
				if p.key {
					cond = andExpr(cond, &Binary{Op: "=", L: p.l, R: p.r})
				} else {
					cond = andExpr(cond, p.l)
				}
			}
			t2.node = &Filter{Input: left, Pred: cond}
		}
	} else {
		t2 = g2.order()
	}
	pos := make([]int, g.width)
	for c := range pos {
		pos[c] = t2.pos[to2[c]]
	}
	return &subPlan{node: t2.node, set: uint64(1)<<len(g.leaves) - 1, pos: pos, rows: t2.rows}
}
