package plan

import "math/bits"

// Outer joins in a join chain. A LEFT JOIN X LEFT JOIN F ON p (and a RIGHT
// JOIN, as F LEFT JOIN X with its columns in place) is flattened like an
// inner join: X's inputs join the chain and F becomes one outer leaf,
// whose conditions are p's conjuncts (and the join's keys). F joins only
// as the right side of a LEFT JOIN whose left side holds the leaves p
// reads (all of X's when p reads none), so the LEFT JOIN sits as low as
// its ON clause allows and the inner joins around it are ordered freely.
// The identities that allow it, for inner-join condition q reading no
// column of F:
//
//	(X LEFT JOIN F ON p) JOIN G ON q  =  (X JOIN G ON q) LEFT JOIN F ON p
//	(A JOIN B ON q) LEFT JOIN F ON p  =  A JOIN (B LEFT JOIN F ON p) ON q   (p reads no A)
//	(X LEFT JOIN F ON p) LEFT JOIN H ON r  =  (X LEFT JOIN H ON r) LEFT JOIN F ON p   (r reads no F)
//
// For each row of the preserved side each form pairs it with the same F
// rows (or NULLs). The chain's own conditions that read F (a WHERE or a
// later ON the outer join survived, see simplifyJoins) are evaluated above
// the LEFT JOIN, never in its ON: a filter right above it, or a later
// join's ON. p's conditions that read F alone filter F below it.
// SQLite's nested loops place a LEFT JOIN's table after the tables its ON
// reads in the same way; PostgreSQL's join search uses these identities.

// outerJoin reports whether flatten looks through j as an outer join:
// a LEFT or RIGHT hash join whose keys and ON can be remapped.
func outerJoin(j *Join) bool {
	if (j.Kind != JoinLeft && j.Kind != JoinRight) || j.Method != JoinHash {
		return false
	}
	for _, k := range append(append([]Expr{}, j.LeftKeys...), j.RightKeys...) {
		if pushSide(k, 1<<30) == sideNone {
			return false
		}
	}
	return j.On == nil || pushSide(j.On, 1<<30) != sideNone
}

// flattenOuter adds outer join j to g: its preserved side's chain, its
// NULL-extended side as one outer leaf, and its keys and ON conjuncts as
// that leaf's conditions. It returns, per output column of j, its
// position in g's column space.
func (g *joinGraph) flattenOuter(j *Join) []int {
	first := len(g.leaves)
	var lm, rm []int
	var x int
	if j.Kind == JoinLeft {
		lm = g.flatten(j.Left)
		x = len(g.leaves)
		rm = g.addLeaf(j.Right)
	} else {
		x = len(g.leaves)
		lm = g.addLeaf(j.Left)
		rm = g.flatten(j.Right)
	}
	lf := &g.leaves[x]
	lf.outer = true
	for y := first; y < len(g.leaves) && y < maxOrderedLeaves; y++ {
		if y != x {
			lf.side |= 1 << y
		}
	}
	both := append(append([]int{}, lm...), rm...)
	for i := range j.LeftKeys {
		g.preds = append(g.preds, joinPred{key: true, on: x + 1,
			l: remapCols(j.LeftKeys[i], func(c int) int { return lm[c] }),
			r: remapCols(j.RightKeys[i], func(c int) int { return rm[c] })})
	}
	for _, c := range Conjuncts(j.On) {
		g.preds = append(g.preds, joinPred{on: x + 1, l: remapCols(c, func(c int) int { return both[c] })})
	}
	return both
}

// setRequired sets each outer leaf's req: the other leaves its conditions
// read, or its side when they read none. Masks must be set.
func (g *joinGraph) setRequired() {
	for x := range g.leaves {
		lf := &g.leaves[x]
		if !lf.outer {
			continue
		}
		lf.req = 0
		for i := range g.preds {
			if p := &g.preds[i]; p.on == x+1 {
				lf.req |= p.lm | p.rm
			}
		}
		lf.req &^= 1 << x
		if lf.req == 0 {
			lf.req = lf.side
		}
	}
}

// outerSplit reports whether the join of subsets l and r may be planned:
// an outer leaf is never a left side alone, and is a right side only
// alone, over a left side holding the leaves it requires.
func (t *dpTable) outerSplit(l, r uint32) bool {
	if l&t.outer != 0 && l&(l-1) == 0 {
		return false
	}
	if r&t.outer == 0 {
		return true
	}
	return r&(r-1) == 0 && t.req[bits.TrailingZeros32(r)]&^l == 0
}
