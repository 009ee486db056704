package plan

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
)

// groupLimit lets a LIMIT stop a GROUP BY early. Under a Limit (through
// projections and a HAVING filter, nothing that needs every group), an
// aggregate whose input arrives ordered by its keys (Sorted, from
// group-by-index) streams: it emits each group once the next begins, so
// the scan below stops when the Limit has its rows. An ORDER BY of the
// leading group keys between them is dropped once the groups come in its
// order: ascending as order-by-group does, or all descending by reading
// the scan backward (reverseGroups; each group's rows then come in
// descending rowid order, as SQLite's backward GROUP BY reads them). An
// aggregate group-by-index
// left hashing over a full table scan switches to an index whose columns
// are exactly its keys, in order (ascending, the columns' own collations,
// not partial) when that index covers the query or the LIMIT is a
// constant small against the estimated groups: within a group such an
// index yields the rows in rowid order, the table scan's, so every
// aggregate (a REAL sum, group_concat) sees them in the same order as
// before; and groups come out in key order, as SQLite's GROUP BY returns
// them. Any other hashing aggregate under the LIMIT gets a top-N sort of
// its groups (sortGroups), so the LIMIT takes the groups SQLite's would.
func groupLimit(cat *catalog.Catalog, n Node) Node {
	l, ok := n.(*Limit)
	if !ok || l.Limit == nil {
		return n
	}
	in, having := l.Input, false
	var sort *Sort
	var setSortInput func(Node) // replaces the Sort in its parent
	var havingAt func(Node)     // replaces the HAVING filter in its parent
	var havingNode *Filter
	setInput := func(x Node) { l.Input = x }
	for {
		switch x := in.(type) {
		case *Project:
			in, setInput = x.Input, func(y Node) { x.Input = y }
			continue
		case *Filter:
			if !having {
				havingAt, havingNode, having = setInput, x, true
				in, setInput = x.Input, func(y Node) { x.Input = y }
				continue
			}
		case *Sort:
			if sort == nil && !having {
				sort, setSortInput = x, setInput
				in, setInput = x.Input, func(y Node) { x.Input = y }
				continue
			}
		}
		break
	}
	a, ok := in.(*Aggregate)
	if !ok || len(a.Group) == 0 || a.Stream {
		return n
	}
	desc := false
	if sort != nil {
		if desc, ok = groupOrder(sort, a); !ok {
			return n
		}
	}
	switch {
	case a.Sorted:
		if desc && !reverseGroups(a) {
			return n
		}
	case cat == nil || !groupIndexForLimit(cat, a, l, having, desc):
		if sort == nil && having {
			sortGroups(a, havingNode, havingAt, l)
		} else if sort == nil {
			sortGroups(a, a, setInput, l)
		}
		return n
	}
	a.Sorted, a.Stream = true, true
	if sort != nil {
		setSortInput(sort.Input)
	}
	return n
}

// groupOrder reports whether sort s orders the rows of aggregate a (below
// it through projections and a filter) by a's leading group keys, all
// ascending with NULLs first or all descending with NULLs last, each with
// its group key's collation: the order of the groups read from an index
// of the keys forward, or backward (desc).
func groupOrder(s *Sort, a *Aggregate) (desc, ok bool) {
	cols := make([]int, len(s.Keys))
	for i, k := range s.Keys {
		ref, ok := k.Expr.(*ColRef)
		if !ok || k.Desc != s.Keys[0].Desc || k.NullsFirst == k.Desc {
			return false, false
		}
		cols[i] = ref.Idx
	}
	for in := s.Input; in != Node(a); {
		switch x := in.(type) {
		case *Project:
			for i, c := range cols {
				if c >= len(x.Exprs) {
					return false, false
				}
				ref, ok := x.Exprs[c].(*ColRef)
				if !ok {
					return false, false
				}
				cols[i] = ref.Idx
			}
			in = x.Input
		case *Filter:
			in = x.Input
		default:
			return false, false
		}
	}
	if len(cols) > len(a.Group) {
		return false, false
	}
	for i, c := range cols {
		if c != i || !strings.EqualFold(normColl(s.Keys[i].Collate), normColl(columnCollation(a.Group[i]))) {
			return false, false
		}
	}
	return s.Keys[0].Desc, true
}

// reverseGroups makes the scan under a sorted aggregate read backward, so
// its groups come in descending key order: a rowid-ordered table scan, or
// an index scan (not one seeking IN values on a DESC column, nor one
// skipping NULLs). It reports whether it could.
func reverseGroups(a *Aggregate) bool {
	keys := make([]SortKey, len(a.Group))
	for i, g := range a.Group {
		keys[i] = SortKey{Expr: g}
	}
	scan, cols, ok := sortSource(a.Input, keys)
	if !ok || scan.Reverse {
		return false
	}
	switch r := scan.Index; {
	case r == nil && isRowidOrder(scan, cols):
		scan.Reverse = true
	case r != nil && !r.Reverse && r.reversible() && !(r.Seeks() && r.Index.Columns[len(r.Eq)].Desc):
		r.Reverse = true
	default:
		return false
	}
	return true
}

// sortGroups puts a top-N sort by the group keys (ascending, NULLs first,
// each key's collation) above top, a hashing aggregate a or the HAVING
// filter right above it, that a LIMIT l reads with no ORDER BY between;
// set replaces top in its parent. The LIMIT then takes the first groups in
// key order, the ones SQLite's GROUP BY (a sorter, or an index in key
// order) returns, rather than the first ones the hash table met.
func sortGroups(a *Aggregate, top Node, set func(Node), l *Limit) {
	if f, ok := top.(*Filter); ok && f.Input != a {
		return // projections below the HAVING renumber the keys
	}
	keys := make([]SortKey, len(a.Group))
	for i, g := range a.Group {
		c := a.Cols[i]
		keys[i] = SortKey{Expr: &ColRef{Idx: i, Affinity: c.Affinity, Collate: c.Collate}, NullsFirst: true, Collate: columnCollation(g)}
	}
	set(&Sort{Input: top, Keys: keys, Limit: l.Limit, Offset: l.Offset})
}

// groupIndexForLimit switches the full scan under a hashing aggregate to
// an index led by exactly its keys, when one is worth it for a LIMIT of l
// (see groupLimit); it reports whether it did.
func groupIndexForLimit(cat *catalog.Catalog, a *Aggregate, l *Limit, having, desc bool) bool {
	keys := make([]SortKey, len(a.Group))
	for i, g := range a.Group {
		keys[i] = SortKey{Expr: g}
	}
	scan, cols, ok := sortSource(a.Input, keys)
	if !ok || scan.Table.Virtual || scan.Table.WithoutRowid || scan.Index != nil || scan.Lookup != nil {
		return false
	}
	for _, ix := range cat.IndexesOf(scan.Table) {
		if ix.Where != "" || !indexGroups(ix, scan.Table, cols) {
			continue
		}
		cand := &Scan{Table: scan.Table, Needed: scan.Needed, Index: &IndexRange{Index: ix, Reverse: desc}}
		// The aggregate's groups as SQLite counts them (see unsizedRows).
		groups := EstimateRows(a) * unsizedRows(scan) / scanTableRows(scan)
		if CoveringIndex(cand) || limitSmall(l, indexKeys(ix, groups), having) {
			scan.Index = cand.Index
			return true
		}
	}
	return false
}

// indexKeys estimates the distinct keys of ix (all its columns): from
// ANALYZE's entries and rows per key, else the aggregate's estimate.
func indexKeys(ix *catalog.Index, groups float64) float64 {
	if st := ix.Stat; len(st) > len(ix.Columns) && st[len(ix.Columns)] > 0 {
		return float64(st[0]) / float64(st[len(ix.Columns)])
	}
	return groups
}

// limitSmall reports whether l is a constant limit (plus offset) reading
// few enough of groups estimated groups for index order, each row read
// through the index, to beat one pass over the table: a sixteenth at
// most, or a sixty-fourth under a HAVING (taken to keep a quarter).
func limitSmall(l *Limit, groups float64, having bool) bool {
	want, ok := constInt(l.Limit)
	if !ok || want < 0 {
		return false
	}
	if l.Offset != nil {
		off, ok := constInt(l.Offset)
		if !ok {
			return false
		}
		want += max(off, 0)
	}
	need := float64(want) * 16
	if having {
		need *= filterFraction
	}
	return need <= groups
}

// indexGroups reports whether ix's columns are exactly cols, ascending,
// each with its column's own collation (the one GROUP BY compares with):
// a scan of it brings equal keys together, in key order, each key's rows
// in rowid order.
func indexGroups(ix *catalog.Index, t *catalog.Table, cols []int) bool {
	if len(ix.Columns) != len(cols) {
		return false
	}
	for i, c := range cols {
		ic := ix.Columns[i]
		if ic.Col < 0 || ic.Col != c || ic.Desc || c >= len(t.Columns) ||
			normColl(ic.Collate) != normColl(t.Columns[c].Collate) {
			return false
		}
	}
	return true
}
