package plan

import "github.com/ladybugsql/ladybug/engine/catalog"

// orderByIndex drops a Sort whose keys the scan below it already delivers
// in order: a rowid-ordered table scan sorted by the rowid, or an index
// scan sorted by the index columns after its equality prefix. For a top-N
// (ORDER BY … LIMIT) over an unsorted full scan it switches the scan to an
// index whose leading columns are the keys, so the first rows read are the
// answer. The Limit above the Sort stays and stops the scan early.
//
// Only ascending keys with SQLite's default NULLs-first order and BINARY
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
		if k.Desc || !k.NullsFirst || normColl(k.Collate) != "BINARY" {
			return n
		}
	}
	switch {
	case scan.Index == nil && isRowidOrder(scan, cols):
		return s.Input
	case scan.Index != nil && indexDelivers(scan.Index.Index, len(scan.Index.Eq), scan.Table, cols):
		return s.Input
	case scan.Index == nil && scan.Lookup == nil && s.Limit != nil && cat != nil:
		for _, ix := range cat.IndexesOf(scan.Table) {
			if ix.Where == "" && indexDelivers(ix, 0, scan.Table, cols) {
				scan.Index = &IndexRange{Index: ix}
				return s.Input
			}
		}
	}
	return n
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
