package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
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
// is carried as a flag (AggSumOverflow) and raised above the join
// (CheckedSum). NULL join keys form a pre-group that matches nothing,
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

// eagerJoin is one orientation of the rewrite: side A (columns from aOff
// in the join output) pre-aggregated by its key column ak, side B (from
// bOff) joined to it by its rowid key bKey.
type eagerJoin struct {
	a          *Aggregate
	j          *Join
	sa, sb     Node
	ak         *ColRef
	bKey       Expr
	aOff, bOff int
}

// eagerFinal is how the projection reads aggregate k of the original:
// pre-aggregate column pos (with its overflow flag at ovf >= 0 for a sum),
// or the B column b.
type eagerFinal struct {
	pos, ovf int
	b        Expr
}

// eagerSides tries the rewrite with side A pre-aggregated and side B
// joined to it; nil when the query does not qualify.
func eagerSides(a *Aggregate, j *Join, sa, sb Node, aKey, bKey Expr, aOff, bOff int) Node {
	ak, ok := aKey.(*ColRef)
	if !ok || !numericAffinity(sa.Columns()[ak.Idx].Affinity) || !numericAffinity(ak.Affinity) {
		return nil
	}
	if bk, ok := bKey.(*ColRef); !ok || !uniqueRowid(sb, bk.Idx) {
		return nil
	}
	e := &eagerJoin{a: a, j: j, sa: sa, sb: sb, ak: ak, bKey: bKey, aOff: aOff, bOff: bOff}
	if !e.keyed() {
		return nil
	}
	pre, finals, ok := e.preAggregate()
	if !ok {
		return nil
	}
	return e.project(pre, finals)
}

func (e *eagerJoin) inA(x Expr) bool { return readsOnly(x, e.aOff, e.aOff+len(e.sa.Columns())) }
func (e *eagerJoin) inB(x Expr) bool { return readsOnly(x, e.bOff, e.bOff+len(e.sb.Columns())) }

// isAKey reports whether c is A's join column (as the join compares it).
func (e *eagerJoin) isAKey(c *ColRef) bool {
	return c.Idx == e.aOff+e.ak.Idx && normColl(c.Collate) == normColl(e.ak.Collate)
}

// keyed reports whether every group key is a B column or A's join column,
// B's rowid or A's join column among them: then one final group is one
// pre-group.
func (e *eagerJoin) keyed() bool {
	keyed := false
	for _, g := range e.a.Group {
		c, ok := g.(*ColRef)
		switch {
		case ok && e.isAKey(c):
			keyed = true
		case ok && e.inB(c):
			keyed = keyed || uniqueRowid(e.sb, c.Idx-e.bOff)
		default:
			return false
		}
	}
	return keyed
}

// preAggregate builds the aggregate of A grouped by its join column: each
// aggregate of A's columns once (a sum as AggPartialSum and its
// AggSumOverflow flag), a bare or first B column left to the projection.
func (e *eagerJoin) preAggregate() (*Aggregate, []eagerFinal, bool) {
	a, ak := e.a, e.ak
	pre := &Aggregate{Input: e.sa, Eager: true,
		Group: []Expr{&ColRef{Idx: ak.Idx, Affinity: ak.Affinity, Collate: ak.Collate}},
		Cols:  []Column{e.sa.Columns()[ak.Idx]}}
	shiftA := func(i int) int { return i - e.aOff }
	finals := make([]eagerFinal, len(a.Aggs))
	for k, ag := range a.Aggs {
		if (ag.Kind == AggBare || ag.Kind == AggFirst) && len(ag.Args) == 1 && e.inB(ag.Args[0]) {
			if _, ok := ag.Args[0].(*ColRef); ok {
				finals[k] = eagerFinal{pos: -1, ovf: -1, b: ag.Args[0]}
				continue
			}
		}
		if !eagerAgg(ag, e.inA) {
			return nil, nil, false
		}
		p := AggCall{Name: ag.Name, Star: ag.Star}
		for _, x := range ag.Args {
			p.Args = append(p.Args, remapCols(x, shiftA))
		}
		finals[k] = eagerFinal{pos: len(pre.Cols), ovf: -1}
		col := a.Cols[len(a.Group)+k]
		if ag.Name == "sum" {
			p.Kind, p.Name = AggPartialSum, ""
			twin := len(pre.Aggs)
			pre.Aggs = append(pre.Aggs, p, AggCall{Kind: AggSumOverflow, Args: p.Args, Twin: twin})
			pre.Cols = append(pre.Cols, col, Column{Name: col.Name + " overflowed", Hidden: true})
			finals[k].ovf = finals[k].pos + 1
			continue
		}
		pre.Aggs = append(pre.Aggs, p)
		pre.Cols = append(pre.Cols, col)
	}
	return pre, finals, true
}

// project joins pre to B on the sides the original join had them and
// computes the original aggregate's columns from the joined rows.
func (e *eagerJoin) project(pre *Aggregate, finals []eagerFinal) Node {
	a, nb := e.a, len(e.sb.Columns())
	preKey := &ColRef{Idx: 0, Affinity: e.ak.Affinity, Collate: e.ak.Collate}
	nj := &Join{Kind: JoinInner, Method: e.j.Method}
	var preOff, newB int
	if e.aOff == 0 {
		nj.Left, nj.Right = pre, e.sb
		nj.LeftKeys, nj.RightKeys = []Expr{preKey}, []Expr{e.bKey}
		nj.Cols = append(append([]Column{}, pre.Cols...), e.j.Cols[e.bOff:e.bOff+nb]...)
		preOff, newB = 0, len(pre.Cols)
	} else {
		nj.Left, nj.Right = e.sb, pre
		nj.LeftKeys, nj.RightKeys = []Expr{e.bKey}, []Expr{preKey}
		nj.Cols = append(append([]Column{}, e.j.Cols[:nb]...), pre.Cols...)
		preOff, newB = nb, 0
	}
	toB := func(i int) int { return i - e.bOff + newB }
	exprs := make([]Expr, len(a.Cols))
	for i, g := range a.Group {
		if c := g.(*ColRef); e.isAKey(c) {
			exprs[i] = &ColRef{Idx: preOff, Affinity: c.Affinity, Collate: c.Collate}
			continue
		}
		exprs[i] = remapCols(g, toB)
	}
	for k, f := range finals {
		c := a.Cols[len(a.Group)+k]
		out := &ColRef{Idx: preOff + f.pos, Affinity: c.Affinity, Collate: c.Collate}
		switch {
		case f.b != nil:
			exprs[len(a.Group)+k] = remapCols(f.b, toB)
		case f.ovf >= 0:
			exprs[len(a.Group)+k] = &CheckedSum{Sum: out, Overflowed: &ColRef{Idx: preOff + f.ovf}}
		default:
			exprs[len(a.Group)+k] = out
		}
	}
	// Build the hash table on the smaller side, reading the swapped
	// join's columns directly rather than through its reordering.
	var in Node = nj
	if sw, ok := hashJoinBuildSide(nil, nj).(*Project); ok && nj.Method == JoinHash {
		in = sw.Input
		for i, x := range exprs {
			exprs[i] = remapCols(x, func(k int) int { return sw.Exprs[k].(*ColRef).Idx })
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
