package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
)

// Internal names the eager-aggregate rule plants (see eagerAggregate).
const (
	// PartialSumAgg is sum() that yields NULL instead of failing when its
	// integers overflow: a pre-aggregated group may be dropped by the join
	// above, and then its overflow must not fail the query.
	PartialSumAgg = "\x00psum"
	// SumOverflowAgg yields 1 when sum() over its argument overflows,
	// else 0. Right after a PartialSumAgg of the same argument it reads
	// that aggregate's state instead of adding the rows again.
	SumOverflowAgg = "\x00sumovf"
	// CheckedSumFunc(sum, overflowed) is sum, or sum()'s "integer
	// overflow" error when overflowed is 1: the error of a group that
	// survived the join, raised where the original aggregate raised it.
	CheckedSumFunc = "\x00checkedsum"
)

// eagerAggregate pre-aggregates the many side of an inner join before
// the join (aggregate pushdown), for GROUP BY queries like
//
//	SELECT c.id, c.name, count(*), sum(o.amount) FROM orders o
//	JOIN customers c ON c.id = o.customer_id GROUP BY c.id, c.name
//
// The join (a hash join, or an index join that looks B up by each left
// key) must be a single equality between a column of side A (INTEGER,
// REAL or NUMERIC affinity, no conversion) and the rowid of side B (a
// scan under filters and projections, so each rowid comes once). The
// group keys must be B's columns or A's join column, and include B's
// rowid or that column. Every aggregate must read only A's columns
// through expressions that cannot fail (count, sum, total, avg, min, max;
// no DISTINCT, FILTER or ORDER BY), or be a bare or first value of a B
// column. Then A is grouped by its join column, the groups are joined to
// B, and a projection yields the original columns: no aggregate runs
// above the join.
//
// Exactness: a final group is one B row (one A value). The pre-groups
// joining a B row are the A values equal to its integer rowid; two such
// values are numerically equal, so GROUP BY put them in one pre-group (a
// text value never equals an integer without conversion). So each final
// group receives exactly one pre-group, holding the same A rows in the
// same (scan) order as before, and every aggregate, a REAL sum included,
// gives the same value. A pre-group the join drops must not fail the
// query where the original never aggregated its rows: its sum's overflow
// is carried as a flag (SumOverflowAgg) and raised above the join
// (CheckedSumFunc). NULL join keys form a pre-group that matches nothing,
// as the rows did.
func eagerAggregate(_ *catalog.Catalog, n Node) Node {
	a, ok := n.(*Aggregate)
	if !ok || len(a.Group) == 0 || a.Sorted || a.Eager {
		return n
	}
	a = throughPlainProject(a)
	j, ok := a.Input.(*Join)
	if !ok || j.Kind != JoinInner || len(j.LeftKeys) != 1 || j.On != nil {
		return n
	}
	nl := len(j.Left.Columns())
	// B on the right (the usual FK = PK shape), else on the left.
	if p := eagerSides(a, j, j.Left, j.Right, j.LeftKeys[0], j.RightKeys[0], 0, nl); p != nil {
		return p
	}
	if j.Method == JoinIndex {
		// The right side is a lookup of each left row's key: it stays.
		return n
	}
	if p := eagerSides(a, j, j.Right, j.Left, j.RightKeys[0], j.LeftKeys[0], nl, 0); p != nil {
		return p
	}
	return n
}

// throughPlainProject folds a projection of plain columns between the
// aggregate and its input into the aggregate's expressions (a swapped
// join's reordering), so the join is seen directly; a unchanged otherwise.
func throughPlainProject(a *Aggregate) *Aggregate {
	p, ok := a.Input.(*Project)
	if !ok {
		return a
	}
	for _, e := range p.Exprs {
		if _, ok := e.(*ColRef); !ok {
			return a
		}
	}
	to := func(i int) int { return p.Exprs[i].(*ColRef).Idx }
	na := &Aggregate{Input: p.Input, Cols: a.Cols, Aggs: make([]AggCall, len(a.Aggs))}
	for _, g := range a.Group {
		if !safeAggArg(g) {
			return a
		}
		na.Group = append(na.Group, remapCols(g, to))
	}
	for k, ag := range a.Aggs {
		na.Aggs[k] = ag
		na.Aggs[k].Args = nil
		for _, x := range ag.Args {
			if !safeAggArg(x) {
				return a
			}
			na.Aggs[k].Args = append(na.Aggs[k].Args, remapCols(x, to))
		}
		if ag.Filter != nil || len(ag.OrderBy) > 0 {
			return a
		}
	}
	return na
}

// eagerSides tries the rewrite with side A (columns from aOff in the join
// output) pre-aggregated and side B (from bOff) joined to it; nil when the
// query does not qualify.
func eagerSides(a *Aggregate, j *Join, sa, sb Node, aKey, bKey Expr, aOff, bOff int) Node {
	ak, ok := aKey.(*ColRef)
	if !ok || !numericAffinity(sa.Columns()[ak.Idx].Affinity) || !numericAffinity(ak.Affinity) {
		return nil
	}
	bk, ok := bKey.(*ColRef)
	if !ok || !uniqueRowid(sb, bk.Idx) {
		return nil
	}
	na, nb := len(sa.Columns()), len(sb.Columns())
	inA := func(e Expr) bool { return readsOnly(e, aOff, aOff+na) }
	inB := func(e Expr) bool { return readsOnly(e, bOff, bOff+nb) }
	// A group key is a B column or A's join column itself: either way
	// one final group is one pre-group.
	keyed := false
	isAKey := func(c *ColRef) bool { return c.Idx == aOff+ak.Idx && normColl(c.Collate) == normColl(ak.Collate) }
	for _, g := range a.Group {
		c, ok := g.(*ColRef)
		switch {
		case ok && isAKey(c):
			keyed = true
		case ok && inB(c):
			keyed = keyed || uniqueRowid(sb, c.Idx-bOff)
		default:
			return nil
		}
	}
	if !keyed {
		return nil
	}
	pre := &Aggregate{Input: sa, Eager: true,
		Group: []Expr{&ColRef{Idx: ak.Idx, Affinity: ak.Affinity, Collate: ak.Collate}},
		Cols:  []Column{sa.Columns()[ak.Idx]}}
	shiftA := func(i int) int { return i - aOff }
	// final[k] is how aggregate k reads the joined row: a pre-aggregate
	// column (pos, ovf >= 0 for a checked sum) or a B expression.
	type final struct {
		pos, ovf int
		b        Expr
	}
	finals := make([]final, len(a.Aggs))
	for k, ag := range a.Aggs {
		if (ag.Name == BareAgg || ag.Name == FirstAgg) && len(ag.Args) == 1 && inB(ag.Args[0]) {
			if _, ok := ag.Args[0].(*ColRef); ok {
				finals[k] = final{pos: -1, ovf: -1, b: ag.Args[0]}
				continue
			}
		}
		if !eagerAgg(ag, inA) {
			return nil
		}
		p := AggCall{Name: ag.Name, Star: ag.Star}
		for _, x := range ag.Args {
			p.Args = append(p.Args, remapCols(x, shiftA))
		}
		finals[k] = final{pos: len(pre.Cols), ovf: -1}
		col := a.Cols[len(a.Group)+k]
		if ag.Name == "sum" {
			p.Name = PartialSumAgg
			pre.Aggs = append(pre.Aggs, p, AggCall{Name: SumOverflowAgg, Args: p.Args})
			pre.Cols = append(pre.Cols, col, Column{Name: col.Name + " overflowed", Hidden: true})
			finals[k].ovf = finals[k].pos + 1
			continue
		}
		pre.Aggs = append(pre.Aggs, p)
		pre.Cols = append(pre.Cols, col)
	}
	np := len(pre.Cols)
	preKey := &ColRef{Idx: 0, Affinity: ak.Affinity, Collate: ak.Collate}
	nj := &Join{Kind: JoinInner, Method: j.Method}
	var preOff, newB int
	if aOff == 0 {
		nj.Left, nj.Right = pre, sb
		nj.LeftKeys, nj.RightKeys = []Expr{preKey}, []Expr{bKey}
		nj.Cols = append(append([]Column{}, pre.Cols...), j.Cols[bOff:bOff+nb]...)
		preOff, newB = 0, np
	} else {
		nj.Left, nj.Right = sb, pre
		nj.LeftKeys, nj.RightKeys = []Expr{bKey}, []Expr{preKey}
		nj.Cols = append(append([]Column{}, j.Cols[:nb]...), pre.Cols...)
		preOff, newB = nb, 0
	}
	toB := func(i int) int { return i - bOff + newB }
	exprs := make([]Expr, len(a.Cols))
	for i, g := range a.Group {
		if c := g.(*ColRef); isAKey(c) {
			exprs[i] = &ColRef{Idx: preOff, Affinity: c.Affinity, Collate: c.Collate}
			continue
		}
		exprs[i] = remapCols(g, toB)
	}
	for k, f := range finals {
		c := a.Cols[len(a.Group)+k]
		switch {
		case f.b != nil:
			exprs[len(a.Group)+k] = remapCols(f.b, toB)
		case f.ovf >= 0:
			exprs[len(a.Group)+k] = &Func{Name: CheckedSumFunc, Args: []Expr{
				&ColRef{Idx: preOff + f.pos, Affinity: c.Affinity, Collate: c.Collate},
				&ColRef{Idx: preOff + f.ovf}}}
		default:
			exprs[len(a.Group)+k] = &ColRef{Idx: preOff + f.pos, Affinity: c.Affinity, Collate: c.Collate}
		}
	}
	// Build the hash table on the smaller side, reading the swapped
	// join's columns directly rather than through its reordering.
	var in Node = nj
	if sw, ok := hashJoinBuildSide(nil, nj).(*Project); ok && nj.Method == JoinHash {
		in = sw.Input
		for i, e := range exprs {
			exprs[i] = remapCols(e, func(k int) int { return sw.Exprs[k].(*ColRef).Idx })
		}
	}
	return &Project{Input: in, Exprs: exprs, Cols: a.Cols}
}

// eagerAgg reports whether aggregate ag can run below the join: a plain
// count, sum, total, avg, min or max whose arguments read only side A
// through expressions that cannot fail (they now also run over rows the
// join drops).
func eagerAgg(ag AggCall, inA func(Expr) bool) bool {
	if ag.Distinct || ag.Filter != nil || len(ag.OrderBy) > 0 {
		return false
	}
	switch ag.Name {
	case "count", "sum", "total", "avg", "min", "max":
	default:
		return false
	}
	if ag.Star {
		return ag.Name == "count"
	}
	if len(ag.Args) != 1 {
		return false
	}
	return safeAggArg(ag.Args[0]) && inA(ag.Args[0])
}

// safeAggArg reports whether e is built only of columns, constants,
// parameters, arithmetic, comparisons, affinities, casts and collations:
// expressions that never fail (integer overflow turns REAL, division by
// zero yields NULL) and give the same value on every evaluation.
func safeAggArg(e Expr) bool {
	ok := true
	WalkExpr(e, func(x Expr) {
		switch x.(type) {
		case *ColRef, *Const, *Param, *Unary, *Binary, *Affinity, *Cast, *Collate:
		default:
			ok = false
		}
	})
	return ok
}

// readsOnly reports whether every column e reads lies in [lo, hi).
func readsOnly(e Expr, lo, hi int) bool {
	ok := true
	WalkExpr(e, func(x Expr) {
		if c, isRef := x.(*ColRef); isRef && (c.Idx < lo || c.Idx >= hi) {
			ok = false
		}
	})
	return ok
}

func numericAffinity(a types.Affinity) bool {
	return a == types.AffinityInteger || a == types.AffinityReal || a == types.AffinityNumeric
}

// uniqueRowid reports whether column idx of n is the rowid of a table
// scan that n passes each row of at most once: through filters, sorts,
// limits and plain-column projections only (a join could repeat a row).
func uniqueRowid(n Node, idx int) bool { return traceColThrough(n, idx, false).isRowid() }
