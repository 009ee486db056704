package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
)

// Default cardinalities when the catalog holds no statistics, as SQLite's
// planner assumes: a table of about a million rows, ten rows per value of
// an index prefix, a range keeping a quarter of what it bounds. ANALYZE's
// numbers (catalog.Table.Stat, catalog.Index.Stat) replace the first two.
const (
	defaultTableRows = 1_000_000
	rowsPerIndexKey  = 10
	rangeFraction    = 4
	filterFraction   = 4
)

// EstimateRows is a rough row count of n's output, used to order joins
// and shown by EXPLAIN. It never reads data.
func EstimateRows(n Node) float64 {
	switch x := n.(type) {
	case *Scan:
		return estimateScan(x)
	case *Filter:
		return max(1, EstimateRows(x.Input)/float64(filterFraction*len(Conjuncts(x.Pred))))
	case *Project:
		return EstimateRows(x.Input)
	case *CTERef:
		if x.Current {
			return 1 // a recursive term reads the one row taken from the queue
		}
		return defaultTableRows
	case *Limit:
		return limitRows(EstimateRows(x.Input), x.Limit)
	case *Sort:
		return limitRows(EstimateRows(x.Input), x.Limit)
	case *Aggregate:
		if len(x.Group) == 0 {
			return 1
		}
		return max(1, EstimateRows(x.Input)/rowsPerIndexKey)
	case *Distinct:
		return max(1, EstimateRows(x.Input)/rowsPerIndexKey)
	case *Join:
		return estimateJoin(x)
	case *SetOp:
		return EstimateRows(x.Left) + EstimateRows(x.Right)
	case *Window:
		return EstimateRows(x.Input)
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

func estimateScan(s *Scan) float64 {
	rows := tableRows(s.Table)
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
			rows = min(inRows(r, rows), tableRows(s.Table))
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

// tableRows is the table's row count from ANALYZE, else the default.
func tableRows(t *catalog.Table) float64 {
	if t.Stat != nil {
		return max(1, float64(t.Stat.Rows))
	}
	return defaultTableRows
}

// estimateJoin assumes an equi-join matches each row of the larger side
// with one row of the smaller (a key lookup), and a join without keys
// multiplies.
func estimateJoin(j *Join) float64 {
	l, r := EstimateRows(j.Left), EstimateRows(j.Right)
	if j.Kind.SemiLike() {
		return l
	}
	var out float64
	switch {
	case j.Method == JoinIndex:
		// The right side's estimate is per probe.
		out = l * probeRows(j.Right)
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
func probeRows(n Node) float64 {
	switch x := n.(type) {
	case *Filter:
		return max(1, probeRows(x.Input)/float64(filterFraction*len(Conjuncts(x.Pred))))
	case *Scan:
		r := x.Index
		if r == nil || len(r.Eq) == 0 || len(r.Index.Stat) > len(r.Eq) ||
			r.Lo != nil || r.Hi != nil || r.Like != nil || r.Seeks() {
			break
		}
		for _, e := range r.Eq {
			if _, ok := e.(*OuterRef); !ok {
				return EstimateRows(n)
			}
		}
		return min(EstimateRows(n), rowsPerIndexKey)
	}
	return EstimateRows(n)
}
