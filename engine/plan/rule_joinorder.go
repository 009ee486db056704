package plan

import (
	"math"
	"math/bits"
	"slices"

	"github.com/ladybugsql/ladybug/engine/catalog"
)

// maxOrderedLeaves bounds the chains joinOrder reorders (leaf sets are
// 64-bit masks): a SELECT joins at most MaxJoinTables items, so only a
// chain that flattened joins of subqueries in FROM can be longer.
const maxOrderedLeaves = 64

// dpLeaves is the largest connected group of inputs ordered by dynamic
// programming (every subset is planned once from its best split: 3^n
// split steps, 59,049 at ten); larger groups are ordered greedily, as
// PostgreSQL switches to its genetic search and SQLite bounds its path
// search. BenchmarkJoinOrder_Plan measures both.
const dpLeaves = 10

// joinOrder reorders each chain of three or more inner, cross, LEFT and
// RIGHT joins (JOIN … ON, comma joins) by estimated cardinality, after
// making inner the outer joins whose NULLs a condition above rejects
// (simplifyJoins). It walks the tree from the top, so a chain is flattened
// and ordered once, at its top, and the inputs of the chain (subqueries,
// FULL joins, an outer join's NULL-extended side) are ordered on their own
// first.
//
// The chain's inputs fall into connected groups (inputs linked by
// conditions). A group of up to dpLeaves inputs is ordered by dynamic
// programming over its subsets, any tree shape allowed, at the least
// estimated cost (rows flowing through the joins, a hash join's build side
// weighted double, a nested-loop join costing its pairs); an outer join's
// NULL-extended side joins only right above the inputs its ON reads (see
// joinorder_left.go); a larger one
// greedily: from the input estimated smallest, it adds one at a time the
// input linked to those joined so far by an equi-join key (or an OR of
// equalities) whose join is estimated smallest, inputs without a link
// last. The groups are then cross joined, smallest first. Each condition
// is placed at the first join that has all the columns it reads; one that
// reads a single input filters that input below every join. A projection
// on top restores the chain's column order.
//
// FULL, semi and anti joins are never looked through (they are inputs of
// a chain), nor joins whose residual is not pushable, and an outer join's
// ON stays its own, so no condition moves past a join that could change
// its meaning. Conditions that read no
// column at all become one filter above the chain, evaluated once per
// execution rather than per joined row (see exec's filter). Row order of
// inner joins is unspecified, as in SQLite; an ORDER BY above sorts anyway.
func joinOrder(cat *catalog.Catalog, n Node) Node { return orderJoins(cat, simplifyJoins(n)) }

// orderJoins reorders the chains of n's tree, top-down.
func orderJoins(cat *catalog.Catalog, n Node) Node {
	if chainLike(n) {
		return reorderChain(cat, n)
	}
	return mapChildren(n, func(c Node) Node { return orderJoins(cat, c) })
}

// chainLike reports whether flatten looks through n: a chain join, an
// outer join (outerJoin), or a pushable filter or a column-only projection
// over a chain-like node.
func chainLike(n Node) bool {
	switch x := n.(type) {
	case *Join:
		return chainJoin(x) || outerJoin(x)
	case *Filter:
		return pushSide(x.Pred, 1<<30) != sideNone && chainLike(x.Input)
	case *Project:
		return plainProject(x) && chainLike(x.Input)
	}
	return false
}

// descendChain orders the chains inside the inputs of chain-like n, in
// place.
func descendChain(cat *catalog.Catalog, n Node) Node {
	if j, ok := n.(*Join); ok && outerJoin(j) {
		// The NULL-extended side is one input of the chain, ordered on
		// its own.
		nj := *j
		if j.Kind == JoinLeft {
			nj.Left, nj.Right = descendChain(cat, j.Left), orderJoins(cat, j.Right)
		} else {
			nj.Left, nj.Right = orderJoins(cat, j.Left), descendChain(cat, j.Right)
		}
		if nj.Left == j.Left && nj.Right == j.Right {
			return n
		}
		return &nj
	}
	if chainLike(n) {
		return mapChildren(n, func(c Node) Node { return descendChain(cat, c) })
	}
	return orderJoins(cat, n)
}

// reorderChain orders the chain whose top is n.
func reorderChain(cat *catalog.Catalog, n Node) Node {
	n = descendChain(cat, n)
	g := &joinGraph{cat: cat}
	out := g.flatten(n)
	if len(g.leaves) < 2 || len(g.leaves) > maxOrderedLeaves {
		return n
	}
	if len(g.leaves) == 2 {
		return n // two inputs keep their join
	}
	tree := g.order()
	node := tree.node
	if g.consts != nil {
		node = &Filter{Input: node, Pred: g.consts}
	}
	cols := n.Columns()
	exprs := make([]Expr, len(cols))
	same := len(cols) == len(node.Columns())
	for k, c := range cols {
		exprs[k] = &ColRef{Idx: tree.pos[out[k]], Affinity: c.Affinity, Collate: c.Collate}
		same = same && tree.pos[out[k]] == k
	}
	if same {
		return node
	}
	return &Project{Input: node, Exprs: exprs, Cols: cols}
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
	cat    *catalog.Catalog // for index lookups (probeCost); may be nil
	leaves []joinLeaf
	preds  []joinPred
	width  int
	consts Expr      // conditions that read no column
	rows   []float64 // per leaf, its estimate (set by order)
}

type joinLeaf struct {
	node Node
	off  int // first column in the graph's column space
	// outer marks the NULL-extended side of an outer join (see
	// joinorder_left.go): it joins only as the right side of a LEFT JOIN
	// whose left side holds req (set by setMasks from its ON conditions,
	// else side: the leaves of the join's preserved side).
	outer     bool
	req, side uint64
}

// joinPred is an equi-join key pair (l = r, each side read as the hash
// join's key) or, when !key, an ON conjunct l.
type joinPred struct {
	l, r   Expr
	key    bool
	or     bool // an OR of equalities between two leaves (OrJoinKeys)
	used   bool
	lm, rm uint64 // the leaves l and r read (leafMask), set by order
	// on is 1 + the outer leaf whose outer join's ON this is (placed at
	// that join only); 0 for inner conditions.
	on int
}

// flatten adds n's leaves and conditions to g and returns, per output
// column of n, its position in g's column space. It looks through chain
// joins, through column-only projections over them (those a build-side
// swap added) and through pushable filters over them (conditions pushdown
// could not place on one side), whose conjuncts become ON conditions of
// the join that first has their columns.
func (g *joinGraph) flatten(n Node) []int {
	if !chainLike(n) {
		return g.addLeaf(n)
	}
	switch x := n.(type) {
	case *Project:
		m := g.flatten(x.Input)
		out := make([]int, len(x.Exprs))
		for i, e := range x.Exprs {
			out[i] = m[e.(*ColRef).Idx]
		}
		return out
	case *Filter:
		m := g.flatten(x.Input)
		for _, c := range Conjuncts(x.Pred) {
			g.addCond(remapCols(c, func(c int) int { return m[c] }))
		}
		return m
	}
	j := n.(*Join)
	if outerJoin(j) {
		return g.flattenOuter(j)
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

// addLeaf adds n as one input of g and returns its columns' positions.
func (g *joinGraph) addLeaf(n Node) []int {
	nc := len(n.Columns())
	g.leaves = append(g.leaves, joinLeaf{node: n, off: g.width})
	out := make([]int, nc)
	for i := range out {
		out[i] = g.width + i
	}
	g.width += nc
	return out
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

// subPlan is a join tree over a set of leaves: pos maps each graph column
// to its position in the tree's output (-1 when not there).
type subPlan struct {
	node Node
	set  uint64
	pos  []int
	rows float64
}

// order builds the join tree of the whole graph.
func (g *joinGraph) order() *subPlan {
	g.setMasks()
	g.filterLeaves()
	g.rows = make([]float64, len(g.leaves))
	for i := range g.leaves {
		g.rows[i] = EstimateRows(g.leaves[i].node)
	}
	var parts []*subPlan
	for _, c := range g.components() {
		if bits.OnesCount64(c) <= dpLeaves {
			parts = append(parts, g.dp(c))
		} else {
			parts = append(parts, g.greedy(c))
		}
	}
	slices.SortStableFunc(parts, func(a, b *subPlan) int {
		switch {
		case a.rows < b.rows:
			return -1
		case a.rows > b.rows:
			return 1
		}
		return 0
	})
	tree := parts[0]
	for _, p := range parts[1:] {
		tree = g.join(tree, p, tree.rows*p.rows)
	}
	return tree
}

// setMasks sets each condition's leaf masks, and whether it is an OR of
// equalities between two leaves.
func (g *joinGraph) setMasks() {
	for i := range g.preds {
		p := &g.preds[i]
		p.lm, p.rm = g.leafMask(p.l), g.leafMask(p.r)
		if !p.key && bits.OnesCount64(p.lm) == 2 {
			// The later leaf's columns start where the earlier's end.
			p.or = isOrJoinCond(p.l, g.leaves[63-bits.LeadingZeros64(p.lm)].off)
		}
	}
	g.setRequired()
}

// components splits the leaves into groups linked by conditions.
func (g *joinGraph) components() []uint64 {
	n := len(g.leaves)
	comp := make([]uint64, n)
	for i := range comp {
		comp[i] = 1 << i
	}
	link := func(m uint64) {
		if bits.OnesCount64(m) < 2 {
			return
		}
		var u uint64
		for x := m; x != 0; x &= x - 1 {
			u |= comp[bits.TrailingZeros64(x)]
		}
		for x := u; x != 0; x &= x - 1 {
			comp[bits.TrailingZeros64(x)] = u
		}
	}
	for _, p := range g.preds {
		if !p.used {
			link(p.lm | p.rm)
		}
	}
	for x, lf := range g.leaves {
		if lf.outer {
			link(lf.req | 1<<x)
		}
	}
	var out []uint64
	var seen uint64
	for i := range n {
		if seen&(1<<i) == 0 {
			out = append(out, comp[i])
			seen |= comp[i]
		}
	}
	return out
}

// filterLeaves moves each condition that reads one leaf only (an ON
// conjunct of a join in the chain) into a filter over that leaf, where it
// runs before any join and counts in the leaf's estimate. An outer leaf
// takes only its own ON's conditions (it drops right rows the LEFT JOIN
// would not pair); a condition of the chain on it stays above the LEFT
// JOIN, where it sees the NULL-extended rows, and an ON condition that
// reads the preserved side only stays in the ON.
func (g *joinGraph) filterLeaves() {
	for i := range g.preds {
		p := &g.preds[i]
		if p.key || p.lm == 0 || p.lm&(p.lm-1) != 0 {
			continue
		}
		x := bits.TrailingZeros64(p.lm)
		if p.on != x+1 && (p.on != 0 || g.leaves[x].outer) {
			continue
		}
		lf := &g.leaves[x]
		off := lf.off
		lf.node = &Filter{Input: lf.node, Pred: remapCols(p.l, func(c int) int { return c - off })}
		p.used = true
	}
}

// leafPlan is leaf x alone.
func (g *joinGraph) leafPlan(x int) *subPlan {
	lf := g.leaves[x]
	pos := make([]int, g.width)
	for i := range pos {
		pos[i] = -1
	}
	for i := range lf.node.Columns() {
		pos[lf.off+i] = i
	}
	return &subPlan{node: lf.node, set: 1 << x, pos: pos, rows: g.rows[x]}
}

// dpTable is the dynamic programming state of one group of k leaves,
// each subset a bit mask over the group's members.
type dpTable struct {
	k int
	// Per leaf pair (i*k+j): the selectivity of the conditions between
	// them, and the cost factor of an index join probing j per row of i
	// (0: none fits).
	sel, probe []float64
	// Per leaf: the leaves a condition links it with (hash: an equi-join
	// key or an OR of equalities).
	link, hash []uint32
	// Per subset: estimated rows, the leaves linked to it, its best
	// plan's cost and that plan's left part.
	rows, cost     []float64
	linkOf, hashOf []uint32
	split          []uint32
	hyper          []hyperCond // conditions over three leaves or more
	// The outer leaves, and per leaf the leaves its LEFT JOIN's left
	// side must hold (joinLeaf.req) and the leaves an outer leaf's
	// requirement lets it join without a condition; per subset, the
	// latter's union.
	outer        uint32
	req, reqLink []uint32
	reqOf        []uint32
}

type hyperCond struct {
	m   uint32
	sel float64
}

// dp orders the leaves of component c by dynamic programming over its
// subsets: each subset's best plan is the cheapest join of the best plans
// of two complementary parts. Estimates are per subset, independent of
// the split: the leaves' rows times each condition's selectivity.
func (g *joinGraph) dp(c uint64) *subPlan {
	var members []int
	for x := c; x != 0; x &= x - 1 {
		members = append(members, bits.TrailingZeros64(x))
	}
	k := len(members)
	if k == 1 {
		return g.leafPlan(members[0])
	}
	t := g.dpConditions(c, members)
	n := 1 << k
	t.rows, t.cost = make([]float64, n), make([]float64, n)
	t.linkOf, t.hashOf, t.split = make([]uint32, n), make([]uint32, n), make([]uint32, n)
	if t.outer != 0 {
		t.reqOf = make([]uint32, n)
	}
	t.rows[0] = 1
	for s := 1; s < n; s++ {
		low := bits.TrailingZeros32(uint32(s))
		prev := s &^ (1 << low)
		r := t.rows[prev] * g.rows[members[low]]
		for x := uint32(prev); x != 0; x &= x - 1 {
			r *= t.sel[low*k+bits.TrailingZeros32(x)]
		}
		for _, h := range t.hyper {
			if h.m&uint32(s) == h.m && h.m&(1<<low) != 0 {
				r *= h.sel
			}
		}
		t.rows[s] = max(1, r)
		// A LEFT JOIN keeps each row of its left side.
		for x := uint32(s) & t.outer; x != 0; x &= x - 1 {
			t.rows[s] = max(t.rows[s], t.rows[s&^(1<<bits.TrailingZeros32(x))])
		}
		t.linkOf[s], t.hashOf[s] = t.linkOf[prev]|t.link[low], t.hashOf[prev]|t.hash[low]
		if t.reqOf != nil {
			t.reqOf[s] = t.reqOf[prev] | t.reqLink[low]
		}
		if prev != 0 {
			t.cost[s] = math.Inf(1)
		}
	}
	// Only splits whose parts a condition links are tried, as
	// PostgreSQL's and SQLite's planners avoid cross products: a cross
	// join of two small inputs looks cheap by estimates but builds their
	// whole product. Conditions over three leaves or more link no pair,
	// so a group linked only by them is planned again with cross joins.
	for _, cross := range []bool{false, true} {
		t.splits(cross)
		if !math.IsInf(t.cost[n-1], 1) {
			break
		}
	}
	var build func(s uint32) *subPlan
	build = func(s uint32) *subPlan {
		if s&(s-1) == 0 {
			return g.leafPlan(members[bits.TrailingZeros32(s)])
		}
		l := t.split[s]
		return g.join(build(l), build(s^l), t.rows[s])
	}
	return build(uint32(n - 1))
}

// dpConditions fills the per-pair part of the table of component c.
func (g *joinGraph) dpConditions(c uint64, members []int) *dpTable {
	k := len(members)
	t := &dpTable{k: k, sel: make([]float64, k*k), probe: make([]float64, k*k),
		link: make([]uint32, k), hash: make([]uint32, k)}
	for i := range t.sel {
		t.sel[i] = 1
	}
	local := make(map[int]int, k)
	for i, m := range members {
		local[m] = i
	}
	for i, m := range members {
		lf := &g.leaves[m]
		if !lf.outer {
			continue
		}
		if t.outer == 0 {
			t.req, t.reqLink = make([]uint32, k), make([]uint32, k)
		}
		t.outer |= 1 << i
		for x := lf.req; x != 0; x &= x - 1 {
			t.req[i] |= 1 << local[bits.TrailingZeros64(x)]
		}
		// Splits may join the outer leaf to the leaves it requires, and
		// those to each other: the LEFT JOIN's left side may have to cross
		// join them, as the query's own joins did when no condition links
		// them.
		for x := t.req[i]; x != 0; x &= x - 1 {
			t.reqLink[bits.TrailingZeros32(x)] |= t.req[i] | 1<<i
		}
		t.reqLink[i] |= t.req[i]
	}
	for _, p := range g.preds {
		m := p.lm | p.rm
		if p.used || m&^c != 0 || bits.OnesCount64(m) < 2 {
			continue
		}
		var cm uint32
		for x := m; x != 0; x &= x - 1 {
			cm |= 1 << local[bits.TrailingZeros64(x)]
		}
		if bits.OnesCount32(cm) > 2 {
			t.hyper = append(t.hyper, hyperCond{cm, 1.0 / filterFraction})
			continue
		}
		i, j := bits.TrailingZeros32(cm), 31-bits.LeadingZeros32(cm)
		s := 1.0 / filterFraction
		if p.key || p.or {
			// Each side's rows as its distinct values (see keySel).
			// An OR of equalities counts as one equi-join key, as the
			// greedy order (connects) and SQLite (each disjunct an
			// indexable term) price it: at twice a key's, a join that
			// filters an input to a few rows looked like it doubled
			// them, and theta joins of whole inputs were ordered before
			// it (joingen's or_join_before_theta_join).
			s = 1 / max(1, g.rows[members[i]], g.rows[members[j]])
			if p.key {
				s = g.keySel(&p, s)
			}
			if p.key && t.hash[i]&(1<<j) == 0 {
				t.probe[i*k+j] = g.probeCost(members[i], members[j])
				t.probe[j*k+i] = g.probeCost(members[j], members[i])
			}
			t.hash[i] |= 1 << j
			t.hash[j] |= 1 << i
		}
		t.sel[i*k+j] *= s
		t.sel[j*k+i] *= s
		t.link[i] |= 1 << j
		t.link[j] |= 1 << i
	}
	return t
}

// splits fills cost and split for every subset from the subsets' rows
// and links: a hash join costs its probe rows, twice its build rows and
// its output (or, when the right part is one leaf an index fits, a probe
// per left row), a nested-loop join its pairs (a cross join twice), each
// plus twice the rows it materialises (its right part) and its output;
// cross allows splits no condition links.
func (t *dpTable) splits(cross bool) {
	for s := 1; s < len(t.rows); s++ {
		if s&(s-1) == 0 {
			continue
		}
		for l := (s - 1) & s; l > 0; l = (l - 1) & s {
			r := s ^ l
			if !cross && t.linkOf[l]&uint32(r) == 0 && (t.reqOf == nil || t.reqOf[l]&uint32(r) == 0) ||
				!t.outerSplit(uint32(l), uint32(r)) {
				continue
			}
			var jc float64
			switch {
			case t.hashOf[l]&uint32(r) != 0:
				jc = t.rows[l] + 2*t.rows[r] + t.rows[s]
				if r&(r-1) == 0 {
					x := bits.TrailingZeros32(uint32(r))
					for y := uint32(l); y != 0; y &= y - 1 {
						if f := t.probe[bits.TrailingZeros32(y)*t.k+x]; f > 0 {
							jc = min(jc, t.rows[l]*f+t.rows[s])
						}
					}
				}
			case t.linkOf[l]&uint32(r) != 0:
				jc = t.rows[l]*t.rows[r] + 2*t.rows[r] + t.rows[s]
			default:
				jc = 2*t.rows[l]*t.rows[r] + 2*t.rows[r] + t.rows[s]
			}
			if c := t.cost[l] + t.cost[r] + jc; c < t.cost[s] {
				t.cost[s], t.split[s] = c, uint32(l)
			}
		}
	}
}

// greedy orders the leaves of component c left-deep: it starts from the
// leaf estimated smallest and adds one leaf at a time, weighing every leaf
// not yet joined by its estimate alone (the join is only built for the
// leaf chosen), so n leaves cost O(n²) estimates plus one pass over the
// conditions per step. An outer leaf is a candidate once the leaves its
// LEFT JOIN needs are joined, and keeps the rows.
func (g *joinGraph) greedy(c uint64) *subPlan {
	first := -1
	for x := c; x != 0; x &= x - 1 {
		if i := bits.TrailingZeros64(x); !g.leaves[i].outer && (first < 0 || g.rows[i] < g.rows[first]) {
			first = i
		}
	}
	tree := g.leafPlan(first)
	for tree.set != c {
		bestLeaf, bestConnected, bestRows := -1, false, 0.0
		for y := c &^ tree.set; y != 0; y &= y - 1 {
			x := bits.TrailingZeros64(y)
			connected := g.connects(tree.set, x)
			est := tree.rows * g.rows[x]
			if lf := &g.leaves[x]; lf.outer {
				if lf.req&^tree.set != 0 {
					continue
				}
				connected, est = true, tree.rows
			} else if connected {
				est = max(tree.rows, g.rows[x])
			}
			if bestLeaf < 0 || (connected && !bestConnected) || (connected == bestConnected && est < bestRows) {
				bestLeaf, bestConnected, bestRows = x, connected, est
			}
		}
		tree = g.join(tree, g.leafPlan(bestLeaf), bestRows)
	}
	return tree
}

// connects reports whether an unused equi-join key joins leaf x with the
// leaves in set (it would become a hash key of their join), or an OR of
// equalities joins x with one of them (it would become OR keys).
func (g *joinGraph) connects(set uint64, x int) bool {
	xbit := uint64(1) << x
	for i := range g.preds {
		p := &g.preds[i]
		switch {
		case p.used:
		case p.key && ((p.lm&^set == 0 && p.rm == xbit) || (p.rm&^set == 0 && p.lm == xbit)):
			return true
		case p.or && p.lm&xbit != 0 && p.lm&^(set|xbit) == 0:
			return true
		}
	}
	return false
}

// join joins plans l and r (r the build side), taking every unused
// condition the two cover and marking it used: keys with one side in
// each become hash keys, the rest ON conjuncts. When r is an outer leaf
// the join is its LEFT JOIN (see joinorder_left.go): only the leaf's own
// conditions go into the join, the chain's that the two cover (they read
// the leaf) into a filter above it.
func (g *joinGraph) join(l, r *subPlan, rows float64) *subPlan {
	nl := len(l.node.Columns())
	local := func(c int) int {
		if l.pos[c] >= 0 {
			return l.pos[c]
		}
		return nl + r.pos[c]
	}
	right := func(c int) int { return r.pos[c] }
	lc, rc := l.node.Columns(), r.node.Columns()
	j := &Join{Kind: JoinInner, Left: l.node, Right: r.node,
		Cols: append(append(make([]Column, 0, len(lc)+len(rc)), lc...), rc...)}
	on := 0 // the conditions the join takes: pred.on
	if x := bits.TrailingZeros64(r.set); r.set&(r.set-1) == 0 && g.leaves[x].outer {
		on, j.Kind = x+1, JoinLeft
		for i := nl; i < len(j.Cols); i++ {
			j.Cols[i].NotNull = false
		}
	}
	set := l.set | r.set
	var above Expr
	for i := range g.preds {
		p := &g.preds[i]
		lm, rm := p.lm, p.rm
		if p.used || (lm|rm)&^set != 0 || (p.on != on && (on == 0 || p.on != 0)) {
			continue
		}
		switch {
		case p.on != on && p.key:
			above = andExpr(above, &Binary{Op: "=", L: remapCols(p.l, local), R: remapCols(p.r, local)})
		case p.on != on:
			above = andExpr(above, remapCols(p.l, local))
		case p.key && lm&^l.set == 0 && rm&^r.set == 0:
			j.LeftKeys = append(j.LeftKeys, remapCols(p.l, local))
			j.RightKeys = append(j.RightKeys, remapCols(p.r, right))
		case p.key && rm&^l.set == 0 && lm&^r.set == 0:
			j.LeftKeys = append(j.LeftKeys, remapCols(p.r, local))
			j.RightKeys = append(j.RightKeys, remapCols(p.l, right))
		case p.key:
			j.On = andExpr(j.On, &Binary{Op: "=", L: remapCols(p.l, local), R: remapCols(p.r, local)})
		default:
			j.On = andExpr(j.On, remapCols(p.l, local))
		}
		p.used = true
	}
	if on == 0 && len(j.LeftKeys) == 0 && j.On == nil {
		j.Kind = JoinCross
	}
	pos := make([]int, g.width)
	for c := range pos {
		pos[c] = l.pos[c]
		if pos[c] < 0 && r.pos[c] >= 0 {
			pos[c] = nl + r.pos[c]
		}
	}
	var node Node = j
	if above != nil {
		node = &Filter{Input: j, Pred: above}
	}
	return &subPlan{node: node, set: set, pos: pos, rows: rows}
}

// probeCost is the cost factor per probe of an index join from leaf y into
// leaf x on the equi-join keys between them (see probeable, probeScan), 0 when x's
// table has no rowid or index lookup on them.
func (g *joinGraph) probeCost(y, x int) float64 {
	if g.cat == nil {
		return 0
	}
	ly, lx := g.leaves[y], g.leaves[x]
	j := &Join{Kind: JoinInner, Left: ly.node, Right: lx.node}
	for _, p := range g.preds {
		l, r := p.l, p.r
		switch {
		case !p.key:
			continue
		case p.lm == 1<<y && p.rm == 1<<x:
		case p.rm == 1<<y && p.lm == 1<<x:
			l, r = r, l
		default:
			continue
		}
		j.LeftKeys = append(j.LeftKeys, remapCols(l, func(c int) int { return c - ly.off }))
		j.RightKeys = append(j.RightKeys, remapCols(r, func(c int) int { return c - lx.off }))
	}
	if len(j.LeftKeys) == 0 {
		return 0
	}
	_, scan := probeable(j.Right)
	if scan == nil {
		return 0
	}
	if probe, _, cost := probeScan(g.cat, j, scan); probe != nil {
		return cost
	}
	return 0
}

// keySel is the selectivity of equi-join key p when the schema tells how
// many distinct values a side's key column holds (the rowid or a unique
// index: one per row; an index's leading column: its ANALYZE count, else
// a tenth of the rows): each side keeps at most as many distinct values
// as rows, and the join matches each value of the side with fewer
// values, 1/max of the two counts (a side the schema says nothing of
// counts its rows). Without a known side it is def, 1/max of the two
// sides' rows (each side's rows taken as its distinct values). Before it
// was 1/min, "each row of the larger side matches one of the smaller":
// with a filtered side that made an equi-join look like it multiplied
// rows, so theta joins of whole inputs were ordered before it
// (joingen's equi_join_chain_before_theta_joins).
func (g *joinGraph) keySel(p *joinPred, def float64) float64 {
	li, ri := bits.TrailingZeros64(p.lm), bits.TrailingZeros64(p.rm)
	if bits.OnesCount64(p.lm) != 1 || bits.OnesCount64(p.rm) != 1 {
		return def
	}
	dl := g.keyDistinct(li, p.l)
	dr := g.keyDistinct(ri, p.r)
	if dl == 0 && dr == 0 {
		return def
	}
	vals := func(x int, d float64) float64 {
		if d == 0 {
			return g.rows[x]
		}
		return min(g.rows[x], d)
	}
	return 1 / max(1, vals(li, dl), vals(ri, dr))
}

// keyDistinct is the number of distinct values of key e (over the graph's
// column space) in leaf x's table, 0 when unknown: e must be a column of a
// table scan, possibly under filters.
func (g *joinGraph) keyDistinct(x int, e Expr) float64 {
	c, ok := e.(*ColRef)
	if !ok {
		return 0
	}
	lf := g.leaves[x]
	n := lf.node
	for {
		f, ok := n.(*Filter)
		if !ok {
			break
		}
		n = f.Input
	}
	s, ok := n.(*Scan)
	if !ok || s.Table.Virtual {
		return 0
	}
	col := c.Idx - lf.off
	rows := scanTableRows(s)
	if !s.Table.WithoutRowid && isRowidRef(&ColRef{Idx: col}, s.RowidIdx(), s.Table.RowidCol) {
		return rows
	}
	if g.cat == nil {
		return 0
	}
	var d float64
	for _, ix := range g.cat.IndexesOf(s.Table) {
		if ix.Where != "" || len(ix.Columns) == 0 || ix.Columns[0].Col != col {
			continue
		}
		switch {
		case ix.Unique && len(ix.Columns) == 1:
			return rows
		case len(ix.Stat) > 1 && ix.Stat[1] > 0:
			d = max(d, float64(ix.Stat[0])/float64(ix.Stat[1]))
		default:
			d = max(d, rows/rowsPerIndexKey)
		}
	}
	return d
}
