package plan

import (
	"slices"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
)

// inSubDefaultRows is how many values an IN subquery over tables without
// statistics is assumed to yield: SQLite's planner assumes 25 too.
const inSubDefaultRows = 25

// seekPerValue is how many full-scan rows one seek is taken to cost: an
// IN is answered by seeks when its values times this are fewer than the
// table's rows.
const seekPerValue = 8

// rowidIn turns Filter(rowid IN (list) AND rest), or rowid IN an
// uncorrelated subquery expected to yield few values, over a full scan of
// a rowid table into a scan that reads those rowids alone, in rowid order
// (RowidRange.In / InSub), the rest staying as a filter. A filter drops a
// NULL IN result as it drops false, so the IN is exact: the rows whose
// rowid equals one of the non-NULL values, compared with the rowid's
// INTEGER affinity (numeric for every operand).
func rowidIn(_ *catalog.Catalog, n Node) Node {
	f, ok := n.(*Filter)
	if !ok {
		return n
	}
	s, ok := f.Input.(*Scan)
	if !ok || s.Lookup != nil || s.Index != nil || s.Table.Virtual || s.Table.WithoutRowid {
		return n
	}
	rid, alias := s.RowidIdx(), s.Table.RowidCol
	i := 0
	for c := range conjunctsOf(f.Pred) {
		var rr *RowidRange
		switch x := c.(type) {
		case *InList:
			if !x.Not && len(x.List) > 0 && isRowidRef(x.X, rid, alias) && !slices.ContainsFunc(x.List, func(e Expr) bool { return !constLike(e) }) {
				rr = &RowidRange{In: x.List}
			}
		case *InSub:
			if inSubUsable(x) && isRowidRef(x.X[0], rid, alias) && inSubSmall(x, s) {
				rr = &RowidRange{InSub: x}
			}
		}
		if rr != nil {
			ns := *s
			ns.Lookup = rr
			return withFilter(&ns, without(Conjuncts(f.Pred), []int{i}))
		}
		i++
	}
	return n
}

// findInSub finds a conjunct "column IN (uncorrelated subquery)" on index
// column ic that one seek per distinct subquery value answers exactly, and
// whose subquery is expected to yield few enough values to beat a scan of
// s, returning it and its position (nil, -1 when none). Exact means:
//
//   - the collation is the index column's: the column's own (a bare
//     column), and the subquery column's is the same or none (an explicit
//     COLLATE on it would win over a column's declared one);
//   - the comparison affinity leaves the column's stored values as they
//     are, SQLite's sqlite3IndexAffinityOk: none, TEXT on a TEXT column,
//     or numeric on a numeric column. The seek keys are the subquery
//     values under that affinity, NULLs dropped (a NULL or false IN
//     result drops the row in a filter alike).
func findInSub(conj []Expr, ic catalog.IndexColumn, s *Scan) (*InSub, int) {
	for i, c := range conj {
		in, ok := c.(*InSub)
		if !ok || !inSubUsable(in) || ic.Col < 0 {
			continue
		}
		col, ok := in.X[0].(*ColRef)
		if !ok || col.Idx != ic.Col || normColl(col.Collate) != normColl(ic.Collate) {
			continue
		}
		sc := in.Sub.Plan.Columns()[0]
		if sc.Collate != "" && normColl(sc.Collate) != normColl(ic.Collate) {
			continue
		}
		if !seekAffinityOK(col.Affinity, types.CompareAffinity(col.Affinity, sc.Affinity)) || !inSubSmall(in, s) {
			continue
		}
		return in, i
	}
	return nil, -1
}

// inSubUsable reports whether in is a positive single-column IN over an
// uncorrelated subquery, the shape a seek per value can answer.
func inSubUsable(in *InSub) bool {
	return !in.Not && len(in.X) == 1 && !in.Sub.Correlated && len(in.Sub.Plan.Columns()) == 1
}

// seekAffinityOK reports whether comparing a column of affinity col under
// comparison affinity cmp leaves its stored values unchanged, so its keys
// can be sought with the other operand converted.
func seekAffinityOK(col, cmp types.Affinity) bool {
	switch {
	case cmp == types.AffinityNone || cmp == types.AffinityBlob:
		return true
	case cmp == types.AffinityText:
		return col == types.AffinityText
	}
	return col.IsNumeric()
}

// inSubSmall reports whether seeking each of in's values costs less than
// scanning s's table (SQLite's count of it: unsizedRows).
func inSubSmall(in *InSub, s *Scan) bool {
	return InSubRows(in.Sub.Plan)*seekPerValue < unsizedRows(s)
}

// InSubRows estimates how many values an IN subquery's plan yields: its
// estimate when ANALYZE has measured every table it reads, else at most
// inSubDefaultRows, as SQLite assumes.
func InSubRows(n Node) float64 {
	rows := EstimateRows(n)
	measured := true
	walkPlan(n, func(x Node) {
		if s, ok := x.(*Scan); ok && s.Table.Stat == nil {
			measured = false
		}
		if _, ok := x.(*CTERef); ok {
			measured = false
		}
	})
	if !measured {
		rows = min(rows, inSubDefaultRows)
	}
	return max(1, rows)
}

// inValues is how many values an index range's IN seeks visit, as
// estimated.
func (r *IndexRange) inValues() float64 {
	if r.InSub != nil {
		return InSubRows(r.InSub.Sub.Plan)
	}
	return float64(len(r.In))
}

// Seeks reports whether the range visits several key prefixes of the
// column after its equality prefix (an IN list or subquery): its rows come
// in key order, forward only.
func (r *IndexRange) Seeks() bool {
	return r.In != nil || r.InSub != nil
}
