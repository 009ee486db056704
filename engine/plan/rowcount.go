package plan

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/catalog"
)

// TableSizer estimates how many rows a table holds, for the tables ANALYZE
// has not measured. The engine's reads a page or so per table level
// (storage's Tree.ApproxCount) in the snapshot the statement will read;
// plan itself never reads data.
type TableSizer interface {
	// ApproxRows returns an estimate of t's rows, false when it has none
	// (a virtual table, a store it cannot read now).
	ApproxRows(t *catalog.Table) (rows int64, ok bool)
}

// SizeClass is a table's estimated row count rounded to a half power of
// ten: class c stands for 10^((c-1)/2) rows (1, 3, 10, 32, 100, ...), an
// empty table being in the one-row class; 0 is no estimate, which
// EstimateRows reads as defaultTableRows. Plans depend on the class, not
// the exact count, so a cached plan stays right while its tables' classes
// hold (SizesHold), and EXPLAIN's estimates do not move with every insert.
type SizeClass int8

// maxSizeClass is the class of 10^18 rows and more.
const maxSizeClass = 37

// ClassOf returns the size class of a table of rows rows.
func ClassOf(rows int64) SizeClass {
	if rows <= 1 {
		return 1
	}
	c := math.Round(2 * math.Log10(float64(rows)))
	return SizeClass(min(c, maxSizeClass-1)) + 1
}

// Rows returns the row count c stands for; 0 for no estimate.
func (c SizeClass) Rows() float64 {
	if c <= 0 {
		return 0
	}
	return math.Round(math.Pow(10, float64(c-1)/2))
}

// TableSize is a table's size class as a plan was bound with.
type TableSize struct {
	Table *catalog.Table
	Class SizeClass
}

// SizesHold reports whether every table of sizes is still in the class a
// plan was bound with, as z sees it now: when one is not, the plan was
// made for another size and should be bound again. A table z cannot size
// now keeps its plan.
func SizesHold(z TableSizer, sizes []TableSize) bool {
	for _, ts := range sizes {
		if n, ok := z.ApproxRows(ts.Table); ok && ClassOf(n) != ts.Class {
			return false
		}
	}
	return true
}

// SizeTables makes the binder stamp each scan of a table ANALYZE has not
// measured with the table's size class from z (Scan.Size), for
// EstimateRows; nil, the default, leaves every such table at
// defaultTableRows. It returns b.
func (b *Binder) SizeTables(z TableSizer) *Binder {
	b.sizer = z
	return b
}

// Sizes returns the tables the binder sized and their classes, each once,
// which the bound plan is valid for (SizesHold); none when the plan cannot
// depend on them: one sized scan and no join in any FROM clause (a point
// lookup, an UPDATE by key). A plan's choices that read a class weigh two
// inputs against each other (join order, build sides, index joins); those
// of one table alone keep SQLite's counts (unsizedRows), so checking its
// class before each run would cost a tree descent for nothing.
func (b *Binder) Sizes() []TableSize {
	if b.sizedScans < 2 && !b.joins {
		return nil
	}
	return b.sizes
}

// sizeOf returns t's size class for a scan being bound, asking the sizer
// once per table per binder.
func (b *Binder) sizeOf(t *catalog.Table) SizeClass {
	if b.sizer == nil || t.Virtual || t.Stat != nil {
		return 0
	}
	for _, ts := range b.sizes {
		if ts.Table == t {
			return ts.Class
		}
	}
	n, ok := b.sizer.ApproxRows(t)
	if !ok {
		return 0
	}
	c := ClassOf(n)
	b.sizes = append(b.sizes, TableSize{Table: t, Class: c})
	return c
}

// newScan is NewScan stamped with t's size class.
func (b *Binder) newScan(t *catalog.Table, alias string) *Scan {
	s := NewScan(t, alias)
	b.stampSize(s)
	return s
}

// stampSize sets scan s's size class, counting the sized scans.
func (b *Binder) stampSize(s *Scan) {
	if s.Size = b.sizeOf(s.Table); s.Size > 0 {
		b.sizedScans++
	}
}

// unsizedRows is s's table's rows as SQLite's planner counts them: from
// ANALYZE, else defaultTableRows, whatever its size class. The rules that
// choose one table's access path alone (a seek per IN-subquery value, a
// group-limit's index order) use it: for a table small enough for its
// class to change their choice either way is quick, and keeping SQLite's
// keeps the order in which rows of equal keys come out SQLite's.
func unsizedRows(s *Scan) float64 {
	if s.Table.Stat != nil {
		return max(1, float64(s.Table.Stat.Rows))
	}
	return defaultTableRows
}

// guessedProbe reports whether an index join's probe of s matches a
// number of rows only guessed (rowsPerIndexKey): a non-unique index
// prefix ANALYZE has not measured. The join then decides between probing
// and hashing on SQLite's counts (unsizedEstimate), not the size classes:
// a small left side probing a bigger table's index by a key of few
// distinct values reads most of the table a row at a time, which the
// class alone would make look cheap (1,000 rows probing 20,000 by a
// 100-value key: 20,000 fetches where a hash join reads the table once).
func guessedProbe(s *Scan) bool {
	r := s.Index
	if r == nil {
		return false
	}
	if r.Index.Unique && len(r.Eq) >= len(r.Index.Columns) {
		return false
	}
	return len(r.Index.Stat) <= len(r.Eq)
}
