package plan

import (
	"github.com/ladybugsql/ladybug/engine/types"
)

// Default cardinalities when the catalog holds no statistics, as SQLite's
// planner assumes: a table of about a million rows, ten rows per value of
// an index prefix, a range keeping a quarter of what it bounds. ANALYZE's
// numbers (catalog.Table.Stat, catalog.Index.Stat) replace the first two;
// without them, a table the binder sized (Scan.Size) counts its size
// class's rows.
const (
	defaultTableRows = 1_000_000
	rowsPerIndexKey  = 10
	rangeFraction    = 4
	filterFraction   = 4
)

// EstimateRows is a rough row count of n's output, used to order joins
// and shown by EXPLAIN. It never reads data.
func EstimateRows(n Node) float64 { return estimateRows(n, true) }

// unsizedEstimate is EstimateRows with every table ANALYZE has not
// measured at defaultTableRows, whatever its size class (Scan.Size), as
// SQLite counts it: for a choice that hinges on a guess the class cannot
// correct, such as the rows an index probe without ANALYZE numbers
// matches (rowsPerIndexKey, whatever the table's size).
func unsizedEstimate(n Node) float64 { return estimateRows(n, false) }

// estimateRows is EstimateRows, with the size classes of the scans when
// sized.
func estimateRows(n Node, sized bool) float64 {
	switch x := n.(type) {
	case *Scan:
		return estimateScan(x, sized)
	case *Filter:
		return max(1, estimateRows(x.Input, sized)/float64(filterFraction*len(Conjuncts(x.Pred))))
	case *Project:
		return estimateRows(x.Input, sized)
	case *CTERef:
		if x.Current {
			return 1 // a recursive term reads the one row taken from the queue
		}
		return defaultTableRows
	case *Limit:
		return limitRows(estimateRows(x.Input, sized), x.Limit)
	case *Sort:
		return limitRows(estimateRows(x.Input, sized), x.Limit)
	case *Aggregate:
		if len(x.Group) == 0 {
			return 1
		}
		return max(1, estimateRows(x.Input, sized)/rowsPerIndexKey)
	case *Distinct:
		return max(1, estimateRows(x.Input, sized)/rowsPerIndexKey)
	case *Join:
		return estimateJoin(x, sized)
	case *SetOp:
		return estimateRows(x.Left, sized) + estimateRows(x.Right, sized)
	case *Window:
		return estimateRows(x.Input, sized)
	case *Single, *TableCount:
		return 1
	case *Values:
		return float64(len(x.Rows))
	case *GraphExpand:
		return estimateGraph(x)
	}
	return defaultTableRows
}

// limitRows caps rows by a constant, non-negative LIMIT.
func limitRows(rows float64, limit Expr) float64 {
	if c, ok := limit.(*Const); ok && c.V.Kind() == types.KindInt && c.V.Int() >= 0 {
		return min(rows, float64(c.V.Int()))
	}
	return rows
}

func estimateScan(s *Scan, sized bool) float64 {
	rows := scanTableRows(s)
	if !sized {
		rows = unsizedRows(s)
	}
	switch {
	case s.Lookup != nil && s.Lookup.Eq != nil:
		return 1
	case s.Lookup != nil && s.Lookup.In != nil:
		return float64(len(s.Lookup.In))
	case s.Lookup != nil && s.Lookup.InSub != nil:
		return InSubRows(s.Lookup.InSub.Sub.Plan)
	case s.Lookup != nil:
		return max(1, rows/rangeFraction)
	case s.Index != nil:
		r := s.Index
		if r.Index.Unique && len(r.Eq) == len(r.Index.Columns) {
			return 1
		}
		if st := r.Index.Stat; len(st) > len(r.Eq) {
			rows = float64(st[len(r.Eq)]) // ANALYZE: entries per prefix value
		} else {
			for range r.Eq {
				rows /= rowsPerIndexKey
			}
		}
		if r.Lo != nil || r.Hi != nil || r.Like != nil {
			rows /= rangeFraction
		}
		if r.Seeks() {
			rows = min(inRows(r, rows), scanTableRows(s))
			if !sized {
				rows = min(rows, unsizedRows(s))
			}
		}
		return max(1, rows)
	}
	return rows
}

// inRows estimates an IN-list scan: one key value's rows per list value.
func inRows(r *IndexRange, rows float64) float64 {
	if st := r.Index.Stat; len(st) > len(r.Eq)+1 {
		return float64(st[len(r.Eq)+1]) * r.inValues()
	}
	if r.Index.Unique && len(r.Eq)+1 == len(r.Index.Columns) {
		return r.inValues()
	}
	return rows / rowsPerIndexKey * r.inValues()
}

// scanTableRows is the scanned table's row count from ANALYZE, else its
// size class's (Scan.Size), else the default.
func scanTableRows(s *Scan) float64 {
	if s.Table.Stat == nil && s.Size > 0 {
		return s.Size.Rows()
	}
	return unsizedRows(s)
}

// estimateJoin assumes an equi-join matches each row of the larger side
// with one row of the smaller (a key lookup), and a join without keys
// multiplies.
func estimateJoin(j *Join, sized bool) float64 {
	l, r := estimateRows(j.Left, sized), estimateRows(j.Right, sized)
	if j.Kind.SemiLike() {
		return l
	}
	var out float64
	switch {
	case j.Method == JoinIndex:
		// The right side's estimate is per probe.
		out = l * probeRows(j.Right, sized)
	case len(j.LeftKeys) > 0:
		out = max(l, r)
	case j.On != nil && OrJoinKeys(j.On, len(j.Left.Columns())) != nil:
		out = 2 * max(l, r) // a key match per disjunct
	default:
		out = l * r
	}
	if j.Kind == JoinLeft || j.Kind == JoinFull {
		out = max(out, l)
	}
	if j.Kind == JoinRight || j.Kind == JoinFull {
		out = max(out, r)
	}
	return out
}

// probeRows is the estimate of an index join's right side per probe: as
// estimateScan, except that an index probed on the left row's keys
// without ANALYZE numbers reads one key value's rows, rowsPerIndexKey,
// rather than a tenth of the table per key column (a guess for a
// constant whose frequency is unknown).
func probeRows(n Node, sized bool) float64 {
	switch x := n.(type) {
	case *Filter:
		return max(1, probeRows(x.Input, sized)/float64(filterFraction*len(Conjuncts(x.Pred))))
	case *Scan:
		r := x.Index
		if r == nil || len(r.Eq) == 0 || len(r.Index.Stat) > len(r.Eq) ||
			r.Lo != nil || r.Hi != nil || r.Like != nil || r.Seeks() {
			break
		}
		for _, e := range r.Eq {
			if _, ok := e.(*OuterRef); !ok {
				return estimateRows(n, sized)
			}
		}
		return min(estimateRows(n, sized), rowsPerIndexKey)
	}
	return estimateRows(n, sized)
}
