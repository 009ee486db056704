package plan

import "github.com/ladybugsql/ladybug/engine/catalog"

// orderByIndex drops a Sort whose keys the scan below it already delivers
// in order: a rowid-ordered table scan sorted by the rowid (read backward
// for DESC), or an index
// scan sorted by the index columns after its equality prefix, read forward
// or (Reverse) backward. For a top-N (ORDER BY … LIMIT) over an unsorted
// full scan it switches the scan to an index whose leading columns are the
// keys, so the first rows read are the answer. The Limit above the Sort
// stays and stops the scan early.
//
// Only keys with SQLite's default NULL placement (first ascending, last
// descending: what an index read in either direction yields) and BINARY
// collation on both the column and the index qualify; anything else keeps
// its Sort.
func orderByIndex(cat *catalog.Catalog, n Node) Node {
	s, ok := n.(*Sort)
	if !ok {
		return n
	}
	scan, cols, ok := sortSource(s.Input, s.Keys)
	if !ok || scan.Table.Virtual || scan.Table.WithoutRowid {
		return n
	}
	for _, k := range s.Keys {
		if k.NullsFirst == k.Desc || normColl(k.Collate) != "BINARY" {
			return n
		}
	}
	switch {
	case scan.Index == nil && isRowidOrder(scan, cols):
		if s.Keys[0].Desc {
			if scan.Lookup != nil && scan.Lookup.Eq != nil {
				return s.Input // one row at most
			}
			scan.Reverse = true
		}
		return s.Input
	case scan.Index != nil:
		r := scan.Index
		rev, ok := indexReads(r.Index, len(r.Eq), scan.Table, cols, s.Keys)
		if !ok || (rev && !r.reversible()) || (r.Seeks() && r.Index.Columns[len(r.Eq)].Desc) {
			return n
		}
		r.Reverse = rev
		return s.Input
	case scan.Lookup == nil && s.Limit != nil && cat != nil:
		for _, ix := range cat.IndexesOf(scan.Table) {
			if rev, ok := indexReads(ix, 0, scan.Table, cols, s.Keys); ix.Where == "" && ok {
				scan.Index = &IndexRange{Index: ix, Reverse: rev}
				return s.Input
			}
		}
	}
	return n
}

// reversible reports whether the index scan can read r backwards: an
// equality prefix and bounds, with no IN list or LIKE prefix (those seek
// forward only).
func (r *IndexRange) reversible() bool {
	return !r.Seeks() && r.Like == nil
}

// sortSource follows the sort keys down through filters and plain-column
// projections to the scan they read, returning the scan and each key's
// column index in it.
func sortSource(n Node, keys []SortKey) (*Scan, []int, bool) {
	cols := make([]int, len(keys))
	for i, k := range keys {
		ref, ok := k.Expr.(*ColRef)
		if !ok {
			return nil, nil, false
		}
		cols[i] = ref.Idx
	}
	for {
		switch x := n.(type) {
		case *Scan:
			return x, cols, true
		case *Filter:
			n = x.Input
		case *Project:
			for i, c := range cols {
				if c >= len(x.Exprs) {
					return nil, nil, false
				}
				ref, ok := x.Exprs[c].(*ColRef)
				if !ok {
					return nil, nil, false
				}
				cols[i] = ref.Idx
			}
			n = x.Input
		default:
			return nil, nil, false
		}
	}
}

// isRowidOrder reports whether cols is just the rowid (or its alias).
func isRowidOrder(s *Scan, cols []int) bool {
	return len(cols) == 1 && (cols[0] == s.RowidIdx() || (s.Table.RowidCol >= 0 && cols[0] == s.Table.RowidCol))
}

// indexDelivers reports whether scanning ix with an equality prefix of
// length eq yields rows ordered by cols: they must be the next index
// columns, ascending, with BINARY collation in the index and the table.
func indexDelivers(ix *catalog.Index, eq int, t *catalog.Table, cols []int) bool {
	if eq+len(cols) > len(ix.Columns) {
		return false
	}
	for i, c := range cols {
		ic := ix.Columns[eq+i]
		if ic.Col < 0 || ic.Col != c || ic.Desc || normColl(ic.Collate) != "BINARY" ||
			c >= len(t.Columns) || normColl(t.Columns[c].Collate) != "BINARY" {
			return false
		}
	}
	return true
}

// indexReads reports whether scanning ix with an equality prefix of length
// eq yields rows in the order of keys over cols, and whether that needs a
// backward read: each key must be the next index column, with BINARY
// collation in the index and the table, and every key's direction must
// differ from its index column's declared one by the same reversal.
func indexReads(ix *catalog.Index, eq int, t *catalog.Table, cols []int, keys []SortKey) (reverse, ok bool) {
	if eq+len(cols) > len(ix.Columns) {
		return false, false
	}
	for i, c := range cols {
		ic := ix.Columns[eq+i]
		if ic.Col < 0 || ic.Col != c || normColl(ic.Collate) != "BINARY" ||
			c >= len(t.Columns) || normColl(t.Columns[c].Collate) != "BINARY" {
			return false, false
		}
		rev := ic.Desc != keys[i].Desc
		if i > 0 && rev != reverse {
			return false, false
		}
		reverse = rev
	}
	return reverse, true
}
