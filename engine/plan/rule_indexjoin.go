package plan

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
)

// Probe-cost factors of an index join: one rowid lookup costs about as
// much as reading rowidProbeCost rows of a scan, one secondary-index probe
// (a descent plus a table fetch per match) indexProbeCost rows. An index
// join is chosen when its left side's estimated rows times that factor is
// below the right table's estimated size, which the hash join would read
// whole.
const (
	rowidProbeCost = 8
	indexProbeCost = 16
)

// indexJoin turns an equi-join whose right side is a full scan of a table
// (possibly under a filter) with the rowid or an index on the join keys
// into an index join when the left side is small: each left row probes the
// right table instead of the whole table being read into a hash table. A
// semi or anti join on the lookup keys alone (a decorrelated [NOT] EXISTS
// whose subquery has no other condition) probes whenever its left side is
// not estimated larger than the right table, as each probe reads one
// index entry at most.
// For an inner join whose left side is the indexed and larger one the
// sides are swapped first, as hashJoinBuildSide does. Inner, LEFT, semi
// and anti joins qualify; RIGHT and FULL joins keep the hash join, whose
// unmatched-right tail needs the whole right side.
func indexJoin(cat *catalog.Catalog, n Node) Node {
	j, ok := n.(*Join)
	if !ok || cat == nil || j.Method != JoinHash || len(j.LeftKeys) == 0 {
		return n
	}
	switch j.Kind {
	case JoinInner, JoinLeft, JoinSemi, JoinAnti:
	default:
		return n
	}
	if nj := probeJoin(cat, j); nj != nil {
		return nj
	}
	if j.Kind != JoinInner {
		return n
	}
	sw, ok := swapJoin(j)
	if !ok {
		return n
	}
	if nj := probeJoin(cat, sw.Input.(*Join)); nj != nil {
		sw.Input = nj
		return sw
	}
	return n
}

// probeJoin returns j as an index join probing its right side, or nil
// when no lookup fits or the hash join is estimated cheaper.
func probeJoin(cat *catalog.Catalog, j *Join) *Join {
	filter, s := probeable(j.Right)
	if s == nil {
		return nil
	}
	probe, covered, cost := probeScan(cat, j, s)
	if probe == nil {
		return nil
	}
	if j.Kind.SemiLike() && filter == nil && j.On == nil && allCovered(covered) {
		// Only whether a key exists matters: the probe stops at its first
		// entry and reads no table row, about a hash probe's cost.
		cost = 1
	}
	left, right := EstimateRows(j.Left), EstimateRows(s)
	if guessedProbe(probe) {
		left, right = unsizedEstimate(j.Left), unsizedEstimate(s)
	}
	if left*cost > right {
		return nil
	}
	nj := *j
	nj.Method = JoinIndex
	nj.Right = probe
	if filter != nil {
		nj.Right = &Filter{Input: probe, Pred: filter.Pred}
	}
	nl := len(j.Left.Columns())
	for i := range j.LeftKeys {
		if !covered[i] {
			eq := &Binary{Op: "=", L: j.LeftKeys[i], R: shiftCols(j.RightKeys[i], nl)}
			nj.On = andExpr(nj.On, eq)
		}
	}
	return &nj
}

// probeable splits a plan a lookup can replace: a full scan of a rowid
// table under an optional filter that reads no outer row; s is nil when n
// is not one.
func probeable(n Node) (filter *Filter, s *Scan) {
	if f, ok := n.(*Filter); ok {
		if !lookupSafe(f.Pred) {
			return nil, nil
		}
		filter, n = f, f.Input
	}
	s, ok := n.(*Scan)
	if !ok || s.Table.Virtual || s.Table.WithoutRowid || s.Lookup != nil || s.Index != nil {
		return nil, nil
	}
	return filter, s
}

// probeScan is the lookup of scan s (j's right side, see probeable) on
// j's keys: by rowid, else by the index that covers the most keys; with
// the keys it covers and its cost factor per probe, a nil scan when none
// fits.
func probeScan(cat *catalog.Catalog, j *Join, s *Scan) (*Scan, []bool, float64) {
	probe, covered, cost := rowidProbe(j, s)
	if probe == nil && cat != nil {
		probe, covered, cost = indexProbe(cat, j, s)
	}
	return probe, covered, cost
}

// keyRef is the lookup value of join key i: the left row's evaluated key,
// which the index join pushes as the outer row of its right side.
func keyRef(j *Join, i int) Expr {
	return &OuterRef{Depth: 1, Idx: i, Ref: ColRef{Idx: i, Affinity: ExprAffinity(j.LeftKeys[i])}}
}

// rowidProbe looks the right table up by rowid when a right key is the
// rowid (or its alias column).
func rowidProbe(j *Join, s *Scan) (*Scan, []bool, float64) {
	for i, rk := range j.RightKeys {
		if isRowidRef(rk, s.RowidIdx(), s.Table.RowidCol) {
			covered := make([]bool, len(j.RightKeys))
			covered[i] = true
			ns := *s
			ns.Lookup = &RowidRange{Eq: keyRef(j, i)}
			return &ns, covered, rowidProbeCost
		}
	}
	return nil, nil, 0
}

// indexProbe looks the right table up through the full index whose
// leading columns the most right keys equal (bare columns, BINARY
// collation, as the hash join compares), ties broken by name.
func indexProbe(cat *catalog.Catalog, j *Join, s *Scan) (*Scan, []bool, float64) {
	var best *IndexRange
	var bestCov []bool
	for _, ix := range cat.IndexesOf(s.Table) {
		if ix.Where != "" {
			continue
		}
		r, cov := probeRange(j, ix)
		if r == nil {
			continue
		}
		if best == nil || len(r.Eq) > len(best.Eq) ||
			(len(r.Eq) == len(best.Eq) && strings.Compare(ix.Name, best.Index.Name) < 0) {
			best, bestCov = r, cov
		}
	}
	if best == nil {
		return nil, nil, 0
	}
	ns := *s
	ns.Index = best
	return &ns, bestCov, indexProbeCost
}

// probeRange is the equality prefix of ix the join keys cover.
func probeRange(j *Join, ix *catalog.Index) (*IndexRange, []bool) {
	r := &IndexRange{Index: ix}
	cov := make([]bool, len(j.RightKeys))
	for _, ic := range ix.Columns {
		if ic.Col < 0 || normColl(ic.Collate) != "BINARY" {
			break
		}
		k := -1
		for i, rk := range j.RightKeys {
			if c, ok := rk.(*ColRef); ok && c.Idx == ic.Col && !cov[i] {
				k = i
				break
			}
		}
		if k < 0 {
			break
		}
		cov[k] = true
		r.Eq = append(r.Eq, keyRef(j, k))
	}
	if len(r.Eq) == 0 {
		return nil, nil
	}
	return r, cov
}

// lookupSafe reports whether a filter can run under an index join's right
// side: it must not read outer rows or subqueries, whose OuterRef depths
// the pushed key row would shift.
func lookupSafe(e Expr) bool {
	ok := true
	WalkExpr(e, func(x Expr) {
		switch x.(type) {
		case *OuterRef, *ScalarSub, *Exists, *InSub:
			ok = false
		}
	})
	return ok
}

func allCovered(covered []bool) bool {
	for _, c := range covered {
		if !c {
			return false
		}
	}
	return true
}
