package exec

import (
	"slices"

	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
)

// scanAggOp answers an ungrouped aggregate whose every call is count(*) or
// count, sum, total or avg of a plain column, over a table scan: it folds
// each leaf run's records straight into the accumulators, decoding only the
// argument columns (types.ColumnPicker) and no batch in between. The
// answers are aggregateOp's: the same accum fields, the same additions in
// the same (rowid) order.
type scanAggOp struct {
	scan *scanOp
	aggs []fusedAgg
	accs []numAcc
	cols []int     // the record columns read, ascending
	rd   aggReader // reads the scan's rows
	// width is the values picked per row: the record columns, then the
	// rowid when an aggregate reads it (at index rowid, else -1).
	width, rowid int
	out          *Batch
	done         bool
}

// fusedAgg is one aggregate of a scanAggOp.
type fusedAgg struct {
	kind aggKind
	src  int // the argument's index among a row's picked values; -1 for count(*)
}

// scanAgg returns the fused operator for n when n is an ungrouped
// aggregate scanAggOp can answer, else nil.
func (b *builder) scanAgg(n *plan.Aggregate) (Operator, error) {
	s, ok := n.Input.(*plan.Scan)
	if !ok || len(n.Group) > 0 || b.profile != nil || !plainTableScan(s) {
		return nil, nil
	}
	op := &scanAggOp{out: newBatchCap(len(n.Cols), 1), rowid: -1}
	var cols []int
	srcs := map[int]int{} // scan column -> index among picked values
	for _, a := range n.Aggs {
		kind, ok := fusedKind(a)
		if !ok {
			return nil, nil
		}
		f := fusedAgg{kind: kind, src: -1}
		if kind != aggCountStar {
			c := a.Args[0].(*plan.ColRef).Idx
			if c == s.Table.RowidCol {
				c = len(s.Table.Columns) // the alias reads the rowid
			}
			if c > len(s.Table.Columns) {
				return nil, nil
			}
			src, seen := srcs[c]
			if !seen {
				src = len(srcs)
				srcs[c] = src
				if c < len(s.Table.Columns) {
					cols = append(cols, c)
				}
			}
			f.src = src
		}
		op.aggs = append(op.aggs, f)
	}
	op.layoutValues(cols, srcs, len(s.Table.Columns))
	scan, err := b.cp.newScan(s)
	if err != nil {
		return nil, err
	}
	op.scan = scan.(*scanOp)
	return op, nil
}

// plainTableScan reports whether s reads a table's rows in rowid order,
// all of them or one rowid range (Eq, Lo, Hi), with no index, row limit or
// rowid IN list: the reads scanAggOp makes itself.
func plainTableScan(s *plan.Scan) bool {
	if s.Table.Virtual || s.Index != nil || s.Reverse || s.RowLimit != nil {
		return false
	}
	return s.Lookup == nil || (s.Lookup.In == nil && s.Lookup.InSub == nil)
}

// fusedKind is a's accumulation rule when scanAggOp can fold it: count(*),
// or count, sum, total or avg of a plain column, with no DISTINCT, FILTER
// or ORDER BY.
func fusedKind(a plan.AggCall) (aggKind, bool) {
	if a.Distinct || a.Filter != nil || len(a.OrderBy) > 0 {
		return 0, false
	}
	if a.Star {
		return aggCountStar, true
	}
	kind, ok := kindOf(a)
	if !ok || len(a.Args) != 1 || (kind != aggCount && kind != aggSum && kind != aggTotal && kind != aggAvg) {
		return 0, false
	}
	_, col := a.Args[0].(*plan.ColRef)
	return kind, col
}

// layoutValues orders a row's picked values as the picker fills them:
// the record columns ascending, then the rowid; it renumbers the
// aggregates' sources to match.
func (op *scanAggOp) layoutValues(cols []int, srcs map[int]int, rid int) {
	sortInts(cols)
	at := make(map[int]int, len(srcs)) // old source index -> new
	for j, c := range cols {
		at[srcs[c]] = j
	}
	op.width = len(cols)
	if r, ok := srcs[rid]; ok {
		at[r], op.rowid = len(cols), len(cols)
		op.width++
	}
	for k := range op.aggs {
		if op.aggs[k].src >= 0 {
			op.aggs[k].src = at[op.aggs[k].src]
		}
	}
	op.cols = cols
}

// sortInts sorts a short slice in place (insertion sort: a handful of
// columns).
func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

func (op *scanAggOp) Next(c *Ctx) (*Batch, error) {
	if op.done {
		return nil, nil
	}
	op.done = true
	op.accs = slices.Grow(op.accs[:0], len(op.aggs))[:len(op.aggs)]
	clear(op.accs) // kept from the last run (a correlated subquery's)
	if err := op.consume(c); err != nil {
		return nil, err
	}
	b := op.out
	b.Reset()
	for k, f := range op.aggs {
		v, err := op.accs[k].result(f.kind)
		if err != nil {
			return nil, err
		}
		b.Cols[k][0] = v
	}
	b.N = 1
	return b, nil
}

// consume folds every row of the scan's rowid range, in rowid order.
func (op *scanAggOp) consume(c *Ctx) error {
	s := op.scan
	if err := c.Check(); err != nil {
		return err
	}
	ok, err := s.start(c)
	if err != nil || !ok {
		return err
	}
	if s.loKey == s.hiKey {
		return op.point(c)
	}
	s.cur = c.TableTree(s.t).Cursor()
	return op.foldRange(c, s.loKey, s.hiKey)
}

// foldRange folds the rows of rowids [lo, hi] read with the scan's cursor.
func (op *scanAggOp) foldRange(c *Ctx, lo, hi int64) error {
	rd := op.reader(op.scan.cur, &op.rd)
	if err := rd.seek(lo, hi); err != nil {
		return err
	}
	for {
		n, err := rd.next()
		if err != nil || n == 0 {
			return err
		}
		op.accumulate(rd, n)
		if err := c.Check(); err != nil {
			return err
		}
	}
}

// point folds the single row of a rowid equality.
func (op *scanAggOp) point(c *Ctx) error {
	s := op.scan
	s.key = keycodec.AppendRowid(s.key[:0], s.loKey)
	val, ok, err := c.TableTree(s.t).Get(s.key)
	if err != nil || !ok {
		return err
	}
	rd := op.reader(nil, &op.rd)
	rd.run = append(rd.run[:0], storage.Entry{Key: s.key, Value: val})
	if err := rd.decodeEntries(rd.run); err != nil {
		return err
	}
	op.accumulate(rd, 1)
	return nil
}

// reader makes r, reused across runs of the operator, read with cur.
func (op *scanAggOp) reader(cur *txn.Cursor, r *aggReader) *aggReader {
	if r.pick == nil && len(op.cols) > 0 {
		r.pick = types.NewColumnPicker(op.cols)
	}
	r.cur, r.width, r.rowid, r.moved, r.ended = cur, op.width, op.rowid, false, false
	return r
}

// accumulate adds the n rows rd read last to the accumulators, one
// aggregate at a time over all n.
func (op *scanAggOp) accumulate(rd *aggReader, n int) {
	for k, f := range op.aggs {
		a := &op.accs[k]
		switch f.kind {
		case aggCountStar:
			a.count += int64(n)
		case aggCount:
			a.countRun(rd, f.src, n)
		default:
			a.sumRun(rd, f.src, n)
		}
	}
}

func (op *scanAggOp) Close() {
	op.scan.Close()
	op.done = false
}
