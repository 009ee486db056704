package plan

import "github.com/ladybugsql/ladybug/engine/catalog"

// maxOrderedLeaves bounds the chains joinOrder reorders (leaf sets are
// 64-bit masks): a SELECT joins at most MaxJoinTables items, so only a
// chain that flattened joins of subqueries in FROM can be longer.
const maxOrderedLeaves = 64

// joinOrder reorders a chain of three or more inner and cross joins (JOIN
// … ON, comma joins) by estimated cardinality: it starts from the input
// estimated smallest and adds, one at a time, the input connected to those
// joined so far by an equi-join key whose join is estimated smallest
// (inputs without a key come last, as cross joins). Each key and ON
// conjunct is placed at the first join that has all the columns it reads.
// A projection on top restores the chain's column order. Outer, semi and
// anti joins are never looked through (they are inputs of a chain), nor
// joins whose residual is not pushable, so no condition moves past a join
// that could change its meaning. Conditions that read no column at all
// become one filter above the chain, evaluated once per execution rather
// than per joined row (see exec's filter). Row order of inner joins is
// unspecified, as in SQLite; an ORDER BY above sorts anyway.
func joinOrder(_ *catalog.Catalog, n Node) Node {
	j, ok := n.(*Join)
	if !ok || !chainJoin(j) {
		return n
	}
	g := &joinGraph{}
	out := g.flatten(j)
	if len(g.leaves) < 3 || len(g.leaves) > maxOrderedLeaves {
		return n
	}
	tree, pos, order := g.greedy()
	if isInOrder(order) && g.consts == nil {
		return n
	}
	if g.consts != nil {
		tree = &Filter{Input: tree, Pred: g.consts}
	}
	exprs := make([]Expr, len(j.Cols))
	for k, c := range j.Cols {
		exprs[k] = &ColRef{Idx: pos[out[k]], Affinity: c.Affinity, Collate: c.Collate}
	}
	return &Project{Input: tree, Exprs: exprs, Cols: j.Cols}
}

// chainJoin reports whether j can be part of a reordered chain.
func chainJoin(j *Join) bool {
	if (j.Kind != JoinInner && j.Kind != JoinCross) || j.Method != JoinHash {
		return false
	}
	return j.On == nil || pushSide(j.On, len(j.Left.Columns())) != sideNone
}

// joinGraph is a flattened join chain: its inputs (leaves) side by side in
// one column space, and the conditions between them over that space.
type joinGraph struct {
	leaves []joinLeaf
	preds  []joinPred
	width  int
	consts Expr // conditions that read no column
}

type joinLeaf struct {
	node Node
	off  int // first column in the graph's column space
}

// joinPred is an equi-join key pair (l = r, each side read as the hash
// join's key) or, when !key, an ON conjunct l.
type joinPred struct {
	l, r   Expr
	key    bool
	used   bool
	lm, rm uint64 // the leaves l and r read (leafMask), set by greedy
}

// flatten adds n's leaves and conditions to g and returns, per output
// column of n, its position in g's column space. It looks through chain
// joins, through column-only projections over them (those a previous
// reordering or build-side swap added) and through pushable filters over
// them (conditions pushdown could not place on one side), whose conjuncts
// become ON conditions of the join that first has their columns.
func (g *joinGraph) flatten(n Node) []int {
	if p, ok := n.(*Project); ok && plainProject(p) {
		if in, ok := p.Input.(*Join); ok && chainJoin(in) {
			m := g.flatten(in)
			out := make([]int, len(p.Exprs))
			for i, e := range p.Exprs {
				out[i] = m[e.(*ColRef).Idx]
			}
			return out
		}
	}
	if f, ok := n.(*Filter); ok && pushSide(f.Pred, 1<<30) != sideNone {
		if in, ok := f.Input.(*Join); ok && chainJoin(in) {
			m := g.flatten(in)
			for _, c := range Conjuncts(f.Pred) {
				g.addCond(remapCols(c, func(c int) int { return m[c] }))
			}
			return m
		}
	}
	j, ok := n.(*Join)
	if !ok || !chainJoin(j) {
		nc := len(n.Columns())
		g.leaves = append(g.leaves, joinLeaf{node: n, off: g.width})
		out := make([]int, nc)
		for i := range out {
			out[i] = g.width + i
		}
		g.width += nc
		return out
	}
	lm := g.flatten(j.Left)
	rm := g.flatten(j.Right)
	both := append(append([]int{}, lm...), rm...)
	for i := range j.LeftKeys {
		g.preds = append(g.preds, joinPred{key: true,
			l: remapCols(j.LeftKeys[i], func(c int) int { return lm[c] }),
			r: remapCols(j.RightKeys[i], func(c int) int { return rm[c] })})
	}
	for _, c := range Conjuncts(j.On) {
		g.addCond(remapCols(c, func(c int) int { return both[c] }))
	}
	return both
}

// addCond adds a pushable condition over g's column space: one that reads
// no column goes to consts, the rest become ON conjuncts.
func (g *joinGraph) addCond(c Expr) {
	if pushSide(c, 1<<30) == sideConst {
		g.consts = andExpr(g.consts, c)
		return
	}
	g.preds = append(g.preds, joinPred{l: c})
}

// plainProject reports whether p only passes columns through.
func plainProject(p *Project) bool {
	for _, e := range p.Exprs {
		if _, ok := e.(*ColRef); !ok {
			return false
		}
	}
	return true
}

// leafMask is the set of leaves e's columns belong to.
func (g *joinGraph) leafMask(e Expr) uint64 {
	var m uint64
	WalkExpr(e, func(x Expr) {
		if c, ok := x.(*ColRef); ok {
			m |= 1 << g.leafOf(c.Idx)
		}
	})
	return m
}

func (g *joinGraph) leafOf(col int) int {
	for i := len(g.leaves) - 1; i > 0; i-- {
		if col >= g.leaves[i].off {
			return i
		}
	}
	return 0
}

// greedy builds the left-deep join tree; pos maps each graph column to
// its position in the tree's output, order lists the leaves as joined.
// Each step weighs every leaf not yet joined by its estimate alone (the
// join is only built for the leaf chosen), so a chain of n leaves costs
// O(n²) estimates plus one pass over the conditions per step.
func (g *joinGraph) greedy() (Node, []int, []int) {
	for i := range g.preds {
		g.preds[i].lm, g.preds[i].rm = g.leafMask(g.preds[i].l), g.leafMask(g.preds[i].r)
	}
	g.filterLeaves()
	rows := make([]float64, len(g.leaves))
	first := 0
	for i := range g.leaves {
		rows[i] = EstimateRows(g.leaves[i].node)
		if rows[i] < rows[first] {
			first = i
		}
	}
	pos := make([]int, g.width)
	for i := range pos {
		pos[i] = -1
	}
	tree := g.leaves[first].node
	g.place(pos, first, 0)
	set := uint64(1) << first
	order := []int{first}
	treeRows := rows[first]
	for len(order) < len(g.leaves) {
		bestLeaf, bestConnected, bestRows := -1, false, 0.0
		for x := range g.leaves {
			if set&(1<<x) != 0 {
				continue
			}
			connected := g.connects(set, x)
			est := treeRows * rows[x]
			if connected {
				est = max(treeRows, rows[x])
			}
			if bestLeaf < 0 || (connected && !bestConnected) || (connected == bestConnected && est < bestRows) {
				bestLeaf, bestConnected, bestRows = x, connected, est
			}
		}
		best := g.joinWith(tree, pos, set, bestLeaf)
		g.place(pos, bestLeaf, len(tree.Columns()))
		tree, set = best, set|1<<bestLeaf
		order = append(order, bestLeaf)
		treeRows = bestRows
	}
	return tree, pos, order
}

// filterLeaves moves each condition that reads one leaf only (an ON
// conjunct of a join in the chain) into a filter over that leaf, where it
// runs before any join and counts in the leaf's estimate.
func (g *joinGraph) filterLeaves() {
	for i := range g.preds {
		p := &g.preds[i]
		if p.key || p.lm == 0 || p.lm&(p.lm-1) != 0 {
			continue
		}
		x := 0
		for p.lm>>x != 1 {
			x++
		}
		lf := &g.leaves[x]
		off := lf.off
		lf.node = &Filter{Input: lf.node, Pred: remapCols(p.l, func(c int) int { return c - off })}
		p.used = true
	}
}

// connects reports whether an unused equi-join key joins leaf x with the
// leaves in set (it would become a hash key of their join).
func (g *joinGraph) connects(set uint64, x int) bool {
	xbit := uint64(1) << x
	for i := range g.preds {
		p := &g.preds[i]
		if p.used || !p.key {
			continue
		}
		if (p.lm&^set == 0 && p.rm == xbit) || (p.rm&^set == 0 && p.lm == xbit) {
			return true
		}
	}
	return false
}

// place records that leaf x's columns start at position at of the tree.
func (g *joinGraph) place(pos []int, x, at int) {
	lf := g.leaves[x]
	for i := range lf.node.Columns() {
		pos[lf.off+i] = at + i
	}
}

// joinWith joins tree (the leaves in set, columns at pos) with leaf x,
// taking every unused condition the two cover and marking it used: keys
// with one side in each become hash keys, the rest ON conjuncts.
func (g *joinGraph) joinWith(tree Node, pos []int, set uint64, x int) *Join {
	lf := g.leaves[x]
	nl := len(tree.Columns())
	xbit := uint64(1) << x
	local := func(c int) int {
		if pos[c] >= 0 {
			return pos[c]
		}
		return nl + c - lf.off
	}
	right := func(c int) int { return c - lf.off }
	tc, lc := tree.Columns(), lf.node.Columns()
	j := &Join{Kind: JoinInner, Left: tree, Right: lf.node,
		Cols: append(append(make([]Column, 0, len(tc)+len(lc)), tc...), lc...)}
	for i := range g.preds {
		p := &g.preds[i]
		lm, rm := p.lm, p.rm
		if p.used || (lm|rm)&^(set|xbit) != 0 {
			continue
		}
		switch {
		case p.key && lm&^set == 0 && rm == xbit:
			j.LeftKeys = append(j.LeftKeys, remapCols(p.l, local))
			j.RightKeys = append(j.RightKeys, remapCols(p.r, right))
		case p.key && rm&^set == 0 && lm == xbit:
			j.LeftKeys = append(j.LeftKeys, remapCols(p.r, local))
			j.RightKeys = append(j.RightKeys, remapCols(p.l, right))
		case p.key:
			j.On = andExpr(j.On, &Binary{Op: "=", L: remapCols(p.l, local), R: remapCols(p.r, local)})
		default:
			j.On = andExpr(j.On, remapCols(p.l, local))
		}
		p.used = true
	}
	if len(j.LeftKeys) == 0 && j.On == nil {
		j.Kind = JoinCross
	}
	return j
}

func isInOrder(order []int) bool {
	for i, x := range order {
		if i != x {
			return false
		}
	}
	return true
}
