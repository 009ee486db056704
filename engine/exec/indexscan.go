package exec

import (
	"bytes"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
)

// indexScanOp reads the rows whose index keys fall in a range: equality on
// a key prefix, then an optional bound on the next key column. Rows come
// in index order; the filter above re-checks the full predicate. Table
// rows are read a window of batches at a time (indexscan_window.go).
type indexScanOp struct {
	t       *catalog.Table
	ix      *catalog.Index
	r       *plan.IndexRange
	eq      []evaluator
	lo, hi  evaluator
	needed  []bool
	out     *Batch
	ar      arena
	dec     rowDecoder
	cur     *txn.Cursor
	prefix  []byte
	seek    []byte // the first key to visit
	stop    []byte // entries >= stop (or > stop, for an inclusive bound) end the scan
	stopInc bool
	skip    []byte // entries with this prefix are skipped (exclusive lower bound)
	started bool
	done    bool
	rkey    []byte
	once    oneShot
	// covering: answer from the index keys alone (plan.CoveringIndex).
	covering bool
	// tcur reads the table rows of a window in rowid order (readRows).
	table *txn.TxTree
	tcur  *txn.Cursor
	// oldCur and oldTcur are cur and tcur after Close, reopened by the
	// next execution so a prepared statement allocates no cursors.
	oldCur, oldTcur *txn.Cursor
	budget          rowBudget
	in              *inSeeks // the IN list, when the range has one
	// ridCol and aliasCol receive the rowid (-1: not read; rowidOutputs).
	ridCol, aliasCol int
	win              window
	ents             []storage.Entry // readRows' leaf entries
	run              []storage.Entry // fillRuns' index entries
}

// pendingRow is a window row whose table row is still to be read; pos is
// its place in the window (batch pos/BatchSize, row pos%BatchSize).
type pendingRow struct {
	rowid int64
	pos   int
}

func (cp *compiler) newIndexScan(n *plan.Scan) (Operator, error) {
	op := &indexScanOp{t: n.Table, ix: n.Index.Index, r: n.Index, needed: n.Needed, out: emptyBatch(len(n.Cols)),
		covering: plan.CoveringIndex(n)}
	op.ridCol, op.aliasCol = rowidOutputs(n.Table, n.Needed)
	op.win.init(op.out, op.written(), op.covering)
	for _, e := range n.Index.Eq {
		ev, err := cp.compile(e)
		if err != nil {
			return nil, err
		}
		op.eq = append(op.eq, ev)
	}
	var err error
	if op.budget, err = cp.newRowBudget(n.RowLimit); err != nil {
		return nil, err
	}
	if n.Index.Seeks() {
		if op.in, err = cp.newInSeeks(n.Index.In, n.Index.InSub); err != nil {
			return nil, err
		}
	}
	if n.Index.Like != nil {
		if op.in, err = cp.newLikeSeeks(n.Index.Like); err != nil {
			return nil, err
		}
	}
	if n.Index.Lo != nil {
		if op.lo, err = cp.compile(n.Index.Lo); err != nil {
			return nil, err
		}
	}
	if n.Index.Hi != nil {
		if op.hi, err = cp.compile(n.Index.Hi); err != nil {
			return nil, err
		}
	}
	return op, nil
}

// start computes the key bounds and positions the cursor; false means no
// row can match.
func (s *indexScanOp) start(c *Ctx) (bool, error) {
	s.prefix = s.prefix[:0]
	for i, ev := range s.eq {
		v, err := s.once.eval(c, ev)
		if err != nil {
			return false, err
		}
		if v.IsNull() && (i >= len(s.r.EqNull) || !s.r.EqNull[i]) {
			return false, nil
		}
		ic := s.ix.Columns[i]
		s.prefix = types.AppendKey(s.prefix, v, ic.Desc, collOf(ic.Collate))
	}
	if s.in != nil {
		if ok, err := s.startIn(c); !ok {
			return false, err
		}
	}
	s.seek = append(s.seek[:0], s.prefix...)
	seek := s.seek
	var coll types.Collation
	if len(s.eq) < len(s.ix.Columns) {
		coll = collOf(s.ix.Columns[len(s.eq)].Collate)
	}
	if s.lo != nil {
		v, err := s.once.eval(c, s.lo)
		if err != nil || v.IsNull() {
			return false, err
		}
		seek = types.AppendKey(seek, v, false, coll)
		if !s.r.LoIncl {
			s.skip = append([]byte{}, seek...)
		}
	} else if s.hi != nil || s.r.NotNull {
		// Skip NULLs, which sort first and satisfy no bound.
		seek = types.AppendKey(seek, types.Null, false, coll)
		s.skip = append([]byte{}, seek...)
	}
	if s.hi != nil {
		v, err := s.once.eval(c, s.hi)
		if err != nil || v.IsNull() {
			return false, err
		}
		s.stop = types.AppendKey(append([]byte{}, s.prefix...), v, false, coll)
		s.stopInc = s.r.HiIncl
	}
	s.seek = seek // keep the grown buffer
	s.table = c.TableTree(s.t)
	s.cur = c.IndexTree(s.ix).Reopen(s.oldCur)
	if s.r.Reverse {
		return s.seekReverse(), s.cur.Err()
	}
	if !s.cur.Seek(seek) {
		return false, s.cur.Err()
	}
	return true, nil
}

// seekLast positions a reverse scan on the last entry with the equality
// prefix (or before it, where inRange stops): the byte 0xFF after the
// prefix sorts above every value encoding, inverted ones included.
func (s *indexScanOp) seekLast() bool {
	if len(s.prefix) == 0 {
		return s.cur.Last()
	}
	if s.cur.Seek(append(append([]byte{}, s.prefix...), 0xFF)) {
		return s.cur.Prev()
	}
	return s.cur.Err() == nil && s.cur.Last()
}

// seekReverse positions a reverse scan on the last entry at or below the
// upper bound: before stop, or before stop followed by 0xFF (above every
// entry equal to an inclusive bound, as in seekLast).
func (s *indexScanOp) seekReverse() bool {
	if s.stop == nil {
		return s.seekLast()
	}
	key := s.stop
	if s.stopInc {
		key = append(append([]byte{}, s.stop...), 0xFF)
	}
	if s.cur.Seek(key) {
		return s.cur.Prev()
	}
	return s.cur.Err() == nil && s.cur.Last()
}

// step moves to the next entry in scan order.
func (s *indexScanOp) step() (bool, error) {
	if !s.r.Reverse {
		return stepCursor(s.cur, &s.done)
	}
	if s.cur.Prev() {
		return true, nil
	}
	s.done = true
	return false, s.cur.Err()
}

// inRange reports whether key k is inside the bounds; past reports that
// no later key can be.
func (s *indexScanOp) inRange(k []byte) (in, past bool) {
	if !bytes.HasPrefix(k, s.prefix) {
		return false, true
	}
	if s.stop != nil {
		if bytes.HasPrefix(k, s.stop) {
			if !s.stopInc || !s.r.Reverse {
				return s.stopInc, !s.stopInc
			}
			// A reverse scan starts on the inclusive upper bound, which
			// may lie below the lower bound: that is checked below.
		} else if bytes.Compare(k, s.stop) > 0 {
			return false, true
		}
	}
	if s.skip != nil && bytes.HasPrefix(k, s.skip) {
		return false, s.r.Reverse // a reverse scan meets the NULLs last
	}
	if s.r.Reverse && bytes.Compare(k, s.seek) < 0 {
		return false, true // below the lower bound (or NULL skip) key
	}
	return true, false
}

func (s *indexScanOp) Next(c *Ctx) (*Batch, error) {
	if b := s.win.next(); b != nil {
		return b, nil
	}
	if s.done {
		return nil, nil
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	if !s.started {
		s.started = true
		if err := s.budget.start(c); err != nil || s.budget.exhausted() {
			s.done = true
			return nil, err
		}
		ok, err := s.start(c)
		if err != nil || !ok {
			s.done = true
			return nil, err
		}
	} else if s.budget.exhausted() {
		s.done = true
		return nil, nil
	} else if more, err := s.step(); !more {
		return nil, err
	}
	return s.fillWindow(c)
}

// fill reads index entries from the cursor's position into b, up to the
// budget's batch cap or the end of the range. The cursor stays on the last
// entry taken; the next fill steps past it first.
func (s *indexScanOp) fill(b *Batch, pos int) error {
	b.Reset()
	if s.in == nil && !s.r.Reverse {
		return s.fillRuns(b, pos)
	}
	limit := s.budget.batchCap()
	for {
		k := s.cur.Key()
		in, past := s.inRange(k)
		if past {
			more, err := s.nextIn()
			if err != nil {
				return err
			}
			if more {
				continue
			}
			s.done = true
			break
		}
		if in {
			if err := s.addEntry(b, k, pos+b.N); err != nil {
				return err
			}
			if b.N == limit {
				break
			}
		}
		more, err := s.step()
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	s.budget.took(b.N)
	return nil
}

// fillRuns is fill for a forward scan of one range: it reads the index a
// leaf run at a time (txn.Cursor.Cells, else AppendRun), with no cursor
// step or key copy per entry.
func (s *indexScanOp) fillRuns(b *Batch, pos int) error {
	limit := s.budget.batchCap()
	defer func() { s.budget.took(b.N) }()
	for {
		if end, err := s.takeRun(b, pos, limit-b.N); end || err != nil {
			return err
		}
		if b.N == limit {
			return nil
		}
		if more, err := s.step(); !more {
			return err
		}
	}
}

// takeRun adds the in-range entries of the leaf run at the cursor, at most
// max, to b; end reports that the range (or the index) ended.
func (s *indexScanOp) takeRun(b *Batch, pos, max int) (end bool, err error) {
	if r, ok := s.cur.Cells(max); ok {
		n := r.Len()
		all := s.runInRange(r.Key(0), r.Key(n-1))
		for i := range n {
			if end, err := s.takeKey(b, r.Key(i), pos, all); end || err != nil {
				return true, err
			}
		}
		return false, nil
	}
	run := s.cur.AppendRun(s.run[:0], max)
	s.run = run[:0]
	if len(run) == 0 {
		s.done = true
		return true, s.cur.Err()
	}
	all := s.runInRange(run[0].Key, run[len(run)-1].Key)
	for _, e := range run {
		if end, err := s.takeKey(b, e.Key, pos, all); end || err != nil {
			return true, err
		}
	}
	return false, nil
}

// takeKey adds the row of index entry k to b when it is in range (all:
// known to be); end reports that k is past the range.
func (s *indexScanOp) takeKey(b *Batch, k []byte, pos int, all bool) (end bool, err error) {
	if !all {
		in, past := s.inRange(k)
		if past {
			s.done = true
			return true, nil
		}
		if !in {
			return false, nil
		}
	}
	return false, s.addEntry(b, k, pos+b.N)
}

// runInRange reports whether every entry of a forward run from key first
// to key last is in range: last is, and first is past the skipped prefix
// (the skipped entries all come before the others, and the bounds are
// contiguous).
func (s *indexScanOp) runInRange(first, last []byte) bool {
	if s.skip != nil && bytes.HasPrefix(first, s.skip) {
		return false
	}
	in, _ := s.inRange(last)
	return in
}

// addEntry adds the row of index entry k to batch b, at window place pos:
// decoded from the key when the scan is covering, otherwise queued for
// readRows.
func (s *indexScanOp) addEntry(b *Batch, k []byte, pos int) error {
	b.ensureRow() // the scan's own batch grows with the rows it meets
	rowid, err := keycodec.TrailingRowid(k)
	if err != nil {
		return errs.Wrap(errs.CodeCorrupt, err)
	}
	if s.ridCol >= 0 || s.aliasCol >= 0 {
		rv := types.NewInt(rowid)
		if s.ridCol >= 0 {
			b.Cols[s.ridCol][b.N] = rv
		}
		if s.aliasCol >= 0 {
			b.Cols[s.aliasCol][b.N] = rv
		}
	}
	ok := false
	if s.covering {
		if ok, err = s.decodeKey(b, k[:len(k)-8]); err != nil {
			return err
		}
	}
	if !ok {
		st := s.win.st
		st.pend = append(st.pend, pendingRow{rowid: rowid, pos: pos})
	}
	b.N++
	return nil
}

// decodeKey fills the needed columns of batch row b.N from an index key
// (without its rowid suffix); false means a value is ambiguous in the key
// and the row must be read from the table.
func (s *indexScanOp) decodeKey(b *Batch, k []byte) (bool, error) {
	for _, ic := range s.ix.Columns {
		v, rest, err := types.DecodeKey(k, ic.Desc)
		if err != nil {
			return false, errs.Wrap(errs.CodeCorrupt, err)
		}
		k = rest
		if ic.Col < 0 || ic.Col == s.t.RowidCol || !s.needed[ic.Col] {
			continue
		}
		aff := s.t.Columns[ic.Col].Affinity
		if !plan.KeyDecodable(v, aff) {
			return false, nil
		}
		if kd := v.Kind(); kd == types.KindText || kd == types.KindBlob {
			v = s.ar.keepValue(v)
		}
		b.Cols[ic.Col][b.N] = plan.KeyValue(v, aff)
	}
	return true, nil
}

func (s *indexScanOp) Close() {
	if s.cur != nil {
		s.cur.Close()
		s.oldCur, s.cur = s.cur, nil
	}
	if s.tcur != nil {
		s.tcur.Close()
		s.oldTcur, s.tcur = s.tcur, nil
	}
	s.win.close()
	s.started, s.done, s.stop, s.skip = false, false, nil, nil
}
