package plan

import "github.com/ladybugsql/ladybug/engine/catalog"

// groupByIndex marks an Aggregate whose input already arrives ordered by
// its group keys as Sorted: a rowid-ordered table scan grouped by the
// rowid, or an index scan whose columns after its equality prefix are the
// keys in order (through filters, which keep the order). A full table
// scan switches to such an index only when the index covers the query, so
// the sorted read costs no row lookups, and only for aggregates whose
// answer does not depend on the order rows arrive in within a group
// (count, min, max: a REAL sum may round differently). Keys must be plain BINARY columns,
// as orderByIndex requires.
func groupByIndex(cat *catalog.Catalog, n Node) Node {
	a, ok := n.(*Aggregate)
	if !ok || len(a.Group) == 0 || a.Sorted {
		return n
	}
	keys := make([]SortKey, len(a.Group))
	for i, g := range a.Group {
		keys[i] = SortKey{Expr: g}
	}
	scan, cols, ok := sortSource(a.Input, keys)
	if !ok || scan.Table.Virtual || scan.Table.WithoutRowid {
		return n
	}
	for _, c := range cols {
		if c < len(scan.Table.Columns) && normColl(scan.Table.Columns[c].Collate) != "BINARY" {
			return n
		}
	}
	r := scan.Index
	switch {
	case r == nil && scan.Lookup == nil && isRowidOrder(scan, cols):
	case r != nil && !r.Seeks() && !r.Reverse && indexDelivers(r.Index, len(r.Eq), scan.Table, cols):
	case r == nil && scan.Lookup == nil && cat != nil && orderFree(a.Aggs):
		ix := coveringGroupIndex(cat, scan, cols)
		if ix == nil {
			return n
		}
		scan.Index = &IndexRange{Index: ix}
	default:
		return n
	}
	na := *a
	na.Sorted = true
	return &na
}

// coveringGroupIndex finds a full index led by cols that covers scan.
func coveringGroupIndex(cat *catalog.Catalog, scan *Scan, cols []int) *catalog.Index {
	for _, ix := range cat.IndexesOf(scan.Table) {
		if ix.Where != "" || !indexDelivers(ix, 0, scan.Table, cols) {
			continue
		}
		if CoveringIndex(&Scan{Table: scan.Table, Needed: scan.Needed, Index: &IndexRange{Index: ix}}) {
			return ix
		}
	}
	return nil
}

// orderFree reports whether every aggregate's result is independent of
// the order of its group's rows.
func orderFree(aggs []AggCall) bool {
	for _, ag := range aggs {
		switch ag.Name {
		case "count", "min", "max":
		default:
			return false
		}
	}
	return true
}

// orderByGroup drops a Sort over a Sorted aggregate (through plain-column
// projections) whose keys are its leading group keys, ascending with
// NULLs first and BINARY collation: the groups already come in that
// order. A Limit above the Sort stays.
func orderByGroup(_ *catalog.Catalog, n Node) Node {
	s, ok := n.(*Sort)
	if !ok {
		return n
	}
	cols := make([]int, len(s.Keys))
	for i, k := range s.Keys {
		ref, ok := k.Expr.(*ColRef)
		if !ok || k.Desc || !k.NullsFirst || normColl(k.Collate) != "BINARY" {
			return n
		}
		cols[i] = ref.Idx
	}
	in := s.Input
	for {
		p, ok := in.(*Project)
		if !ok {
			break
		}
		for i, c := range cols {
			if c >= len(p.Exprs) {
				return n
			}
			ref, ok := p.Exprs[c].(*ColRef)
			if !ok {
				return n
			}
			cols[i] = ref.Idx
		}
		in = p.Input
	}
	a, ok := in.(*Aggregate)
	if !ok || !a.Sorted || len(cols) > len(a.Group) {
		return n
	}
	for i, c := range cols {
		if c != i {
			return n
		}
	}
	return s.Input
}

// distinctByIndex marks a DISTINCT over plain columns of an ordered scan
// as Sorted: the scan's index delivers the columns in order after its
// equality prefix (or a full scan switches to a covering index led by
// them). Rows then come out in index order, as SQLite's DISTINCT through
// an index returns them.
func distinctByIndex(cat *catalog.Catalog, n Node) Node {
	d, ok := n.(*Distinct)
	if !ok || d.Sorted {
		return n
	}
	p, ok := d.Input.(*Project)
	if !ok || len(p.Exprs) == 0 {
		return n
	}
	keys := make([]SortKey, len(p.Exprs))
	for i := range p.Exprs {
		keys[i] = SortKey{Expr: &ColRef{Idx: i}}
	}
	scan, cols, ok := sortSource(p, keys)
	if !ok || scan.Table.Virtual || scan.Table.WithoutRowid {
		return n
	}
	r := scan.Index
	switch {
	case r != nil && !r.Seeks() && !r.Reverse && indexDelivers(r.Index, len(r.Eq), scan.Table, cols):
	case r == nil && scan.Lookup == nil && cat != nil:
		ix := coveringGroupIndex(cat, scan, cols)
		if ix == nil {
			return n
		}
		scan.Index = &IndexRange{Index: ix}
	default:
		return n
	}
	return &Distinct{Input: d.Input, Sorted: true}
}
