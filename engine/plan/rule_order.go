package plan

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
)

// orderByIndex drops a Sort whose keys the scan below it already delivers
// in order: a rowid-ordered table scan sorted by the rowid (read backward
// for DESC), or an index scan sorted by the index columns after its
// equality prefix, read forward or (Reverse) backward, IN lists and LIKE
// prefixes included (their seeks then run from the last key down). For a
// top-N (ORDER BY … LIMIT), or a query the index covers, over an unsorted
// full scan it switches the scan to an index whose leading columns are the
// keys, so the first rows read are the answer (and no sort runs). The
// Limit above the Sort stays and stops the scan early.
//
// Only keys with SQLite's default NULL placement (first ascending, last
// descending: what an index read in either direction yields) qualify, each
// with the index column's collation (a key's COLLATE, or its column's),
// and with one reversal for all keys: a mixed ORDER BY a DESC, b reads an
// index on (a DESC, b) forward and one on (a, b DESC) backward. A WITHOUT
// ROWID table qualifies through its primary key only: its secondary
// indexes order equal keys by the hidden rowid, SQLite's by the primary
// key. Anything else keeps its Sort.
func orderByIndex(cat *catalog.Catalog, n Node) Node {
	s, ok := n.(*Sort)
	if !ok {
		return n
	}
	keys := make([]SortKey, len(s.Keys))
	for i, k := range s.Keys {
		if c, ok := k.Expr.(*Collate); ok {
			k.Expr = c.X // the key's Collate names it
		}
		keys[i] = k
	}
	scan, cols, ok := sortSource(s.Input, keys)
	if !ok || scan.Table.Virtual || (scan.Table.WithoutRowid && (scan.Index == nil || !primaryIndex(scan.Table, scan.Index.Index))) {
		return n
	}
	for _, k := range keys {
		if k.NullsFirst == k.Desc {
			return n
		}
	}
	switch {
	case scan.Index == nil && isRowidOrder(scan, cols):
		if keys[0].Desc {
			if scan.Lookup != nil && scan.Lookup.Eq != nil {
				return s.Input // one row at most
			}
			scan.Reverse = true
		}
		return s.Input
	case scan.Index != nil:
		r := scan.Index
		rev, ok := indexReads(r.Index, len(r.Eq), cols, keys)
		if !ok && cat != nil {
			r, rev, ok = orderedTwin(cat, scan, cols, keys, s.Limit != nil)
		}
		if !ok || (rev && !r.reversible()) || (r.Seeks() && r.Index.Columns[len(r.Eq)].Desc) {
			return n
		}
		r.Reverse = rev
		scan.Index = r
		return s.Input
	case scan.Lookup == nil && cat != nil:
		for _, ix := range cat.IndexesOf(scan.Table) {
			rev, ok := indexReads(ix, 0, cols, keys)
			if ix.Where != "" || !ok {
				continue
			}
			cand := &IndexRange{Index: ix, Reverse: rev}
			if s.Limit != nil || CoveringIndex(&Scan{Table: scan.Table, Needed: scan.Needed, Index: cand}) {
				scan.Index = cand
				return s.Input
			}
		}
	}
	return n
}

// orderedTwin finds, for an index scan whose index does not deliver the
// sort keys, another full index of the table with the same leading
// columns (the equality prefix, and the column of an IN, LIKE or range
// after it; the same collations, so the same conjuncts bound them)
// followed by the keys, and returns the same range over it and the read
// direction. Under no LIMIT it must cover the query when the current scan
// does, so the switch adds no row lookups. A WITHOUT ROWID table keeps its
// scan (secondary indexes order ties apart from SQLite's).
func orderedTwin(cat *catalog.Catalog, scan *Scan, cols []int, keys []SortKey, limited bool) (*IndexRange, bool, bool) {
	r := scan.Index
	eq, lead := len(r.Eq), len(r.Eq)
	if r.Lo != nil || r.Hi != nil || r.Seeks() || r.Like != nil {
		lead++
	}
	if lead == 0 || r.NotNull || scan.Table.WithoutRowid {
		return nil, false, false
	}
	covered := CoveringIndex(scan)
	for _, ix := range cat.IndexesOf(scan.Table) {
		if ix == r.Index || ix.Where != "" || len(ix.Columns) < lead || !samePrefix(r.Index, ix, lead) {
			continue
		}
		rev, ok := indexReads(ix, eq, cols, keys)
		if !ok {
			continue
		}
		cand := *r
		cand.Index, cand.Reverse = ix, false
		if limited || !covered || CoveringIndex(&Scan{Table: scan.Table, Needed: scan.Needed, Index: &cand}) {
			return &cand, rev, true
		}
	}
	return nil, false, false
}

// samePrefix reports whether indexes a and b start with the same n
// columns, collations included.
func samePrefix(a, b *catalog.Index, n int) bool {
	for i := range n {
		ca, cb := a.Columns[i], b.Columns[i]
		if ca.Col < 0 || ca.Col != cb.Col || !strings.EqualFold(normColl(ca.Collate), normColl(cb.Collate)) {
			return false
		}
	}
	return true
}

// primaryIndex reports whether ix is t's PRIMARY KEY index.
func primaryIndex(t *catalog.Table, ix *catalog.Index) bool {
	for _, u := range t.Uniques {
		if u.Primary && u.Index == ix.Name {
			return true
		}
	}
	return false
}

// reversible reports whether the index scan can read r backwards: an
// equality prefix and bounds, or IN / LIKE seeks (visited from the last
// key down); not a scan that skips NULLs for min/max.
func (r *IndexRange) reversible() bool {
	return !r.NotNull
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
// backward read: each key must be the next index column, with the
// index column's collation, and every key's direction must differ from
// its index column's declared one by the same reversal.
func indexReads(ix *catalog.Index, eq int, cols []int, keys []SortKey) (reverse, ok bool) {
	if eq+len(cols) > len(ix.Columns) {
		return false, false
	}
	for i, c := range cols {
		ic := ix.Columns[eq+i]
		if ic.Col < 0 || ic.Col != c || !strings.EqualFold(normColl(ic.Collate), normColl(keys[i].Collate)) {
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
