package exec

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
)

// scanOp reads a table's rows in rowid order, optionally restricted to a
// rowid or rowid range, decoding only the needed columns. It holds one
// batch, never the table.
type scanOp struct {
	t      *catalog.Table
	needed []bool
	lookup *plan.RowidRange
	eq     evaluator
	lo, hi evaluator
	out    *Batch
	ar     arena
	dec    rowDecoder
	cur    *txn.Cursor
	// oldCur is cur after Close, reopened by the next run (a correlated
	// subquery's scan runs once per outer row) so it allocates no cursor.
	oldCur *txn.Cursor
	// state
	started, done bool
	loKey         int64
	hiKey         int64
	key           []byte
	run           []storage.Entry // the leaf run fill is decoding
	// ridCol and aliasCol are the output columns that receive the rowid,
	// -1 when the query reads neither.
	ridCol, aliasCol int
	once             oneShot
	budget           rowBudget
	reverse          bool // read from hiKey down (plan.Scan.Reverse)
	// outMem is out's memory when the scan reads at most eight columns.
	outMem batchMem[[8][]types.Value]
}

func (cp *compiler) newScan(s *plan.Scan) (Operator, error) {
	op := &scanOp{t: s.Table, needed: s.Needed, lookup: s.Lookup, reverse: s.Reverse}
	op.out = op.outMem.batch(len(s.Cols))
	op.ridCol, op.aliasCol = rowidOutputs(s.Table, s.Needed)
	var err error
	if op.budget, err = cp.newRowBudget(s.RowLimit); err != nil {
		return nil, err
	}
	if s.Lookup != nil {
		if s.Lookup.Eq != nil {
			if op.eq, err = cp.compile(s.Lookup.Eq); err != nil {
				return nil, err
			}
		}
		if s.Lookup.Lo != nil {
			if op.lo, err = cp.compile(s.Lookup.Lo); err != nil {
				return nil, err
			}
		}
		if s.Lookup.Hi != nil {
			if op.hi, err = cp.compile(s.Lookup.Hi); err != nil {
				return nil, err
			}
		}
	}
	return op, nil
}

func (s *scanOp) Close() {
	if s.cur != nil {
		s.cur.Close()
		s.oldCur, s.cur = s.cur, nil
	}
	s.started, s.done = false, false
}

// oneShot evaluates row-independent expressions without allocating: the
// one-row batch and result slot live in the operator.
type oneShot struct {
	b   Batch
	out [1]types.Value
}

func (o *oneShot) eval(c *Ctx, e evaluator) (types.Value, error) {
	o.b = Batch{N: 1}
	if err := e(c, &o.b, o.out[:]); err != nil {
		return types.Null, err
	}
	return o.out[0], nil
}

// evalOne evaluates a row-independent expression once.
func evalOne(c *Ctx, e evaluator) (types.Value, error) {
	var o oneShot // escapes to the evaluator: one allocation for the batch and slot
	return o.eval(c, e)
}

// start computes the rowid bounds; it reports false when no row can match.
func (s *scanOp) start(c *Ctx) (bool, error) {
	s.loKey, s.hiKey = math.MinInt64, math.MaxInt64
	if s.eq != nil {
		v, err := s.once.eval(c, s.eq)
		if err != nil {
			return false, err
		}
		r, ok := exactRowid(v)
		if !ok {
			return false, nil
		}
		s.loKey, s.hiKey = r, r
	}
	if s.lo != nil {
		v, err := s.once.eval(c, s.lo)
		if err != nil {
			return false, err
		}
		lo, ok := lowerRowid(v, s.lookup.LoIncl)
		if !ok {
			return false, nil
		}
		s.loKey = max(s.loKey, lo)
	}
	if s.hi != nil {
		v, err := s.once.eval(c, s.hi)
		if err != nil {
			return false, err
		}
		hi, ok := upperRowid(v, s.lookup.HiIncl)
		if !ok {
			return false, nil
		}
		s.hiKey = min(s.hiKey, hi)
	}
	return s.loKey <= s.hiKey, nil
}

// exactRowid converts a comparison value to the rowid it equals.
func exactRowid(v types.Value) (int64, bool) {
	switch v.Kind() {
	case types.KindInt:
		return v.Int(), true
	case types.KindReal:
		if i, ok := realIsInt(v.Real()); ok {
			return i, true
		}
	}
	return 0, false
}

// lowerRowid is the smallest rowid satisfying rowid > v (or >= v).
func lowerRowid(v types.Value, incl bool) (int64, bool) {
	switch v.Kind() {
	case types.KindNull:
		return 0, false
	case types.KindInt:
		if incl {
			return v.Int(), true
		}
		if v.Int() == math.MaxInt64 {
			return 0, false
		}
		return v.Int() + 1, true
	case types.KindReal:
		f := math.Ceil(v.Real())
		if !incl && f == v.Real() {
			f++
		}
		if f > 9.2e18 {
			return 0, false
		}
		if f < -9.2e18 {
			return math.MinInt64, true
		}
		return int64(f), true
	}
	return 0, false // text and blobs sort after every number
}

// upperRowid is the largest rowid satisfying rowid < v (or <= v).
func upperRowid(v types.Value, incl bool) (int64, bool) {
	switch v.Kind() {
	case types.KindNull:
		return 0, false
	case types.KindInt:
		if incl {
			return v.Int(), true
		}
		if v.Int() == math.MinInt64 {
			return 0, false
		}
		return v.Int() - 1, true
	case types.KindReal:
		f := math.Floor(v.Real())
		if !incl && f == v.Real() {
			f--
		}
		if f < -9.2e18 {
			return 0, false
		}
		if f > 9.2e18 {
			return math.MaxInt64, true
		}
		return int64(f), true
	}
	return math.MaxInt64, true
}

func (s *scanOp) Next(c *Ctx) (*Batch, error) {
	if s.done {
		return nil, nil
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	if !s.started {
		s.started = true
		ok, err := s.start(c)
		if err != nil || !ok {
			s.done = true
			return nil, err
		}
		if s.loKey == s.hiKey {
			s.done = true
			return s.point(c)
		}
		if err := s.budget.start(c); err != nil || s.budget.exhausted() {
			s.done = true
			return nil, err
		}
		s.cur = c.TableTree(s.t).Reopen(s.oldCur)
		if s.reverse {
			return s.startReverse()
		}
		s.key = keycodec.AppendRowid(s.key[:0], s.loKey)
		if !s.cur.Seek(s.key) {
			s.done = true
			return nil, s.cur.Err()
		}
	} else if s.reverse {
		return s.nextReverse()
	} else if s.budget.exhausted() || !s.cur.Next() {
		s.done = true
		return nil, s.cur.Err()
	}
	return s.fill()
}

// fill decodes rows from the cursor's current position into the batch,
// a leaf run at a time (read in place, txn.Cursor.Cells, or else copied
// out, txn.Cursor.AppendRun), at most the row budget's. The cursor stays
// on the last row read; the next call advances it.
func (s *scanOp) fill() (*Batch, error) {
	b := s.out
	b.Reset()
	s.ar.reset()
	b, err := s.fillRuns(b)
	s.budget.took(b.N)
	if err != nil {
		return nil, err
	}
	return nonEmpty(b), nil
}

func (s *scanOp) fillRuns(b *Batch) (*Batch, error) {
	decode := s.decodes()
	limit := s.budget.batchCap()
	for {
		stop, err := false, error(nil)
		if r, ok := s.cur.Cells(limit - b.N); ok {
			s.reserveRun(b, r.Len())
			for i := 0; i < r.Len() && !stop; i++ {
				stop, err = s.row(b, r.Key(i), r.Value(i), decode)
			}
		} else {
			s.run = s.cur.AppendRun(s.run[:0], limit-b.N)
			if len(s.run) == 0 {
				s.done = true
				return b, s.cur.Err()
			}
			s.reserveRun(b, len(s.run))
			for i := 0; i < len(s.run) && !stop; i++ {
				stop, err = s.row(b, s.run[i].Key, s.run[i].Value, decode)
			}
		}
		if stop || b.N == limit {
			return b, err
		}
		more, err := stepCursor(s.cur, &s.done)
		if err != nil || !more {
			return b, err
		}
	}
}

// reserveRun makes room in b for a leaf run of n rows at once rather
// than doubling row by row (8, 16, 32 ... one allocation each), unless an
// upper rowid bound may end the scan inside the run.
func (s *scanOp) reserveRun(b *Batch, n int) {
	if s.hiKey == math.MaxInt64 {
		b.reserve(b.N + n)
	}
}

// row adds the row of table entry (key, val) to b; stop reports that the
// scan is over: the rowid is past the upper bound, or val is damaged.
func (s *scanOp) row(b *Batch, key, val []byte, decode bool) (stop bool, err error) {
	rowid := keycodec.DecodeRowid(key)
	if rowid > s.hiKey {
		s.done = true
		return true, nil
	}
	b.ensureRow()
	if decode {
		if err := s.dec.decode(val, s.needed, b.Cols[:len(s.t.Columns)], b.N, &s.ar); err != nil {
			return true, err
		}
	}
	s.putRowid(b, b.N, rowid)
	b.N++
	return false, nil
}

// rowidOutputs returns the output columns of a scan of t that receive the
// rowid: the hidden rowid column and t's INTEGER PRIMARY KEY alias, each -1
// when needed (nil = all) leaves it unread, so a scan feeding count(*) or
// sum(x) stores no rowids.
func rowidOutputs(t *catalog.Table, needed []bool) (rid, alias int) {
	rid, alias = len(t.Columns), t.RowidCol
	if needed == nil {
		return rid, alias
	}
	if rid >= len(needed) || !needed[rid] {
		rid = -1
	}
	if alias >= 0 && (alias >= len(needed) || !needed[alias]) {
		alias = -1
	}
	return rid, alias
}

// putRowid stores rowid in row i of the rowid outputs.
func (s *scanOp) putRowid(b *Batch, i int, rowid int64) {
	rv := types.NewInt(rowid)
	if s.ridCol >= 0 {
		b.Cols[s.ridCol][i] = rv
	}
	if s.aliasCol >= 0 {
		b.Cols[s.aliasCol][i] = rv
	}
}

// decodes reports whether any record column is needed; count(*) and
// rowid-only scans read keys alone.
func (s *scanOp) decodes() bool {
	if s.needed == nil {
		return true
	}
	for i, n := range s.needed[:min(len(s.needed), len(s.t.Columns))] {
		if n && i != s.t.RowidCol {
			return true
		}
	}
	return false
}

// point reads the single row of a rowid equality lookup with a Get, which
// costs no cursor.
func (s *scanOp) point(c *Ctx) (*Batch, error) {
	s.key = keycodec.AppendRowid(s.key[:0], s.loKey)
	val, ok, err := c.TableTree(s.t).Get(s.key)
	if err != nil || !ok {
		return nil, err
	}
	b := s.out
	b.Reset()
	s.ar.reset()
	rid := len(s.t.Columns)
	b.ensureRow()
	if s.decodes() {
		if err := s.dec.decode(val, s.needed, b.Cols[:rid], 0, &s.ar); err != nil {
			return nil, err
		}
	}
	s.putRowid(b, 0, s.loKey)
	b.N = 1
	return b, nil
}
