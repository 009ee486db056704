package exec

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/storage"
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
	pick *types.ColumnPicker // nil when no record column is read
	// width is the values picked per row: the record columns, then the
	// rowid when an aggregate reads it (at index rowid, else -1).
	width, rowid int
	vals         []types.Value // a run's picked values, row-major
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
	op := &scanAggOp{out: NewBatch(len(n.Cols)), rowid: -1}
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
	kind, ok := aggKinds[a.Name]
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
	if len(cols) > 0 {
		op.pick = types.NewColumnPicker(cols)
	}
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
	op.accs = make([]numAcc, len(op.aggs))
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

// consume folds every row of the scan's rowid range.
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
	s.key = storage.AppendRowidKey(s.key[:0], s.loKey)
	if !s.cur.Seek(s.key) {
		return s.cur.Err()
	}
	for {
		last, err := op.foldRun()
		if err != nil || last {
			return err
		}
		if err := c.Check(); err != nil {
			return err
		}
		if !s.cur.Next() {
			return s.cur.Err()
		}
	}
}

// foldRun folds the rows from the cursor's entry to the end of its leaf,
// read in place when the leaf allows (txn.Cursor.Cells), else as a run of
// entries; last reports that the scan is over.
func (op *scanAggOp) foldRun() (last bool, err error) {
	s := op.scan
	if r, ok := s.cur.Cells(BatchSize); ok {
		n := r.Len()
		if hi := s.hiKey; hi != math.MaxInt64 && storage.DecodeRowidKey(r.Key(n-1)) > hi {
			for n > 0 && storage.DecodeRowidKey(r.Key(n-1)) > hi {
				n--
			}
			last = true
		}
		return last, op.foldCells(r, n)
	}
	s.run = s.cur.AppendRun(s.run[:0], BatchSize)
	if len(s.run) == 0 {
		return true, s.cur.Err()
	}
	run, last := op.inRange(s.run)
	return last, op.fold(run)
}

// inRange trims run to the rows at or below the scan's upper rowid bound;
// last reports that the bound was reached. An open bound costs no key
// decoding, a bound past the run's last row one.
func (op *scanAggOp) inRange(run []storage.Entry) (_ []storage.Entry, last bool) {
	hi := op.scan.hiKey
	if hi == math.MaxInt64 || storage.DecodeRowidKey(run[len(run)-1].Key) <= hi {
		return run, false
	}
	for i, e := range run {
		if storage.DecodeRowidKey(e.Key) > hi {
			return run[:i], true
		}
	}
	return run, true
}

// point folds the single row of a rowid equality.
func (op *scanAggOp) point(c *Ctx) error {
	s := op.scan
	s.key = storage.AppendRowidKey(s.key[:0], s.loKey)
	val, ok, err := c.TableTree(s.t).Get(s.key)
	if err != nil || !ok {
		return err
	}
	s.run = append(s.run[:0], storage.Entry{Key: s.key, Value: val})
	return op.fold(s.run)
}

// foldCells folds the first n cells of r, as fold does a run of entries.
func (op *scanAggOp) foldCells(r storage.Cells, n int) error {
	vals := op.rowValues(n)
	w := op.width
	if op.pick != nil {
		for i := 0; i < n; i++ {
			if err := op.pick.Pick(r.Value(i), vals[i*w:]); err != nil {
				return errs.Wrap(errs.CodeCorrupt, err)
			}
		}
	}
	if op.rowid >= 0 {
		for i := 0; i < n; i++ {
			vals[i*w+op.rowid] = types.NewInt(storage.DecodeRowidKey(r.Key(i)))
		}
	}
	op.accumulate(vals, n)
	return nil
}

// rowValues returns room for n rows of picked values.
func (op *scanAggOp) rowValues(n int) []types.Value {
	w := op.width
	if need := n * w; cap(op.vals) < need {
		op.vals = make([]types.Value, need, max(need, BatchSize*w))
	}
	return op.vals[:n*w]
}

// fold decodes run's picked values and adds them to the accumulators, one
// aggregate at a time over the whole run.
func (op *scanAggOp) fold(run []storage.Entry) error {
	w := op.width
	vals := op.rowValues(len(run))
	if op.pick != nil {
		for i, e := range run {
			if err := op.pick.Pick(e.Value, vals[i*w:]); err != nil {
				return errs.Wrap(errs.CodeCorrupt, err)
			}
		}
	}
	if op.rowid >= 0 {
		for i, e := range run {
			vals[i*w+op.rowid] = types.NewInt(storage.DecodeRowidKey(e.Key))
		}
	}
	op.accumulate(vals, len(run))
	return nil
}

// accumulate adds n rows of picked values to the accumulators, one
// aggregate at a time over all n.
func (op *scanAggOp) accumulate(vals []types.Value, n int) {
	w := op.width
	for k, f := range op.aggs {
		a := &op.accs[k]
		switch f.kind {
		case aggCountStar:
			a.count += int64(n)
		case aggCount:
			a.countStrided(vals, f.src, w)
		default:
			a.sumStrided(vals, f.src, w)
		}
	}
}

func (op *scanAggOp) Close() {
	op.scan.Close()
	op.done, op.accs = false, nil
}
