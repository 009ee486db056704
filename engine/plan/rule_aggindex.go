package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
)

// TableCount is SELECT count(*) over a whole table, answered from the cell
// counts of a tree (the smallest index, which holds one entry per row,
// else the table) without decoding a row. Its one output column is the
// count.
type TableCount struct {
	Table *catalog.Table
	Index *catalog.Index // nil = count the table tree
	Cols  []Column
}

// Columns implements Node.
func (t *TableCount) Columns() []Column { return t.Cols }

// countFromTree turns Aggregate(count(*)) with no group over a full table
// scan into a TableCount.
func countFromTree(cat *catalog.Catalog, n Node) Node {
	a, ok := n.(*Aggregate)
	if !ok || len(a.Group) != 0 || len(a.Aggs) != 1 {
		return n
	}
	agg := a.Aggs[0]
	if agg.Name != "count" || !agg.Star || agg.Filter != nil || agg.Distinct {
		return n
	}
	s, ok := a.Input.(*Scan)
	if !ok || s.Lookup != nil || s.Table.Virtual || (s.Index != nil && !s.Index.full()) {
		return n
	}
	tc := &TableCount{Table: s.Table, Cols: a.Cols}
	if cat != nil && !s.Table.WithoutRowid {
		for _, ix := range cat.IndexesOf(s.Table) {
			if ix.Where == "" && (tc.Index == nil || len(ix.Columns) < len(tc.Index.Columns)) {
				tc.Index = ix
			}
		}
	}
	if s.Table.WithoutRowid && s.Index != nil {
		tc.Index = s.Index.Index
	}
	return tc
}

// full reports whether the range covers the whole index.
func (r *IndexRange) full() bool {
	return len(r.Eq) == 0 && r.Lo == nil && r.Hi == nil && !r.NotNull && !r.Reverse && !r.Seeks() && r.Like == nil
}

// minMaxFromIndex answers a lone min(col) or max(col) with no group from
// one index entry: an index whose next column (after the equality prefix
// the scan already has) is col, read forward from its first non-NULL entry
// for min, backward from its last for max, limited to one row. The
// aggregate stays above, so an empty range still gives NULL. Only a column
// compared with its own collation, ascending in the index, qualifies.
func minMaxFromIndex(cat *catalog.Catalog, n Node) Node {
	a, ok := n.(*Aggregate)
	if !ok || len(a.Group) != 0 || len(a.Aggs) != 1 || cat == nil {
		return n
	}
	agg := a.Aggs[0]
	if (agg.Name != "min" && agg.Name != "max") || len(agg.Args) != 1 || agg.Filter != nil || agg.Distinct || len(agg.OrderBy) > 0 {
		return n
	}
	ref, ok := agg.Args[0].(*ColRef)
	if !ok {
		return n
	}
	s, ok := a.Input.(*Scan)
	if !ok || s.Lookup != nil || s.Table.Virtual || s.Table.WithoutRowid || ref.Idx >= len(s.Table.Columns) {
		return n
	}
	r := edgeRange(cat, s, ref)
	if r == nil {
		return n
	}
	r.NotNull, r.Reverse = true, agg.Name == "max"
	ns := *s
	ns.Index = r
	na := *a
	na.Input = &Limit{Input: &ns, Limit: &Const{V: types.NewInt(1)}}
	return &na
}

// edgeRange is the index range whose next key column after its equality
// prefix is ref: the scan's own equality-only range, or a whole index
// led by ref.
func edgeRange(cat *catalog.Catalog, s *Scan, ref *ColRef) *IndexRange {
	fits := func(ix *catalog.Index, eq int) bool {
		if ix.Where != "" || eq >= len(ix.Columns) {
			return false
		}
		ic := ix.Columns[eq]
		return ic.Col == ref.Idx && !ic.Desc && normColl(ic.Collate) == normColl(s.Table.Columns[ref.Idx].Collate)
	}
	if s.Index != nil {
		r := s.Index
		if r.Lo != nil || r.Hi != nil || r.NotNull || r.Reverse || r.Seeks() || r.Like != nil || !fits(r.Index, len(r.Eq)) {
			return nil
		}
		c := *r
		return &c
	}
	for _, ix := range cat.IndexesOf(s.Table) {
		if fits(ix, 0) {
			return &IndexRange{Index: ix}
		}
	}
	return nil
}
