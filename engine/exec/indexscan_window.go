package exec

import (
	"bytes"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/types"
)

// An index scan that reads table rows fills a window of batches with index
// entries, then reads the window's table rows in one rowid-ordered walk:
// the wider the window, the more of its rows share a table leaf, so the
// walk loads each leaf once per window rather than once per batch (a 5%
// range of random rowids puts ~10 rows of a window on a leaf, but fewer
// than one of a single batch). The batches still come out in index order.

// maxWindow is the most batches a window holds; a window position
// (pendingRow.pos) must fit posBits.
const maxWindow = 16

// windowValues is the size of a window's pooled column storage, in values
// (32 bytes each: 1 MiB); it bounds the batches a wide row allows.
const windowValues = 1 << 15

// windowStore is the scratch memory of a window: the column storage of
// its batches after the first and readRows' lists.
type windowStore struct {
	vals   []types.Value // allocated on the first wide window
	pend   []pendingRow
	ids    []int64
	packed [2][]uint64 // sortPending's scratch
}

// windowStores recycles window scratch between executions, so a cached
// or re-prepared statement holds none while idle and a repeated wide scan
// allocates none. It keeps at most a couple (a sync.Pool would lose them
// at each collection, which a scan that misses the page cache brings on
// every few queries); a store holds at most ~1.7 MiB. The values left in a
// returned store are plain copies (text in the scan's arena, never page
// memory).
var windowStores = make(chan *windowStore, 2)

// getWindowStore returns a recycled store or a new one.
func getWindowStore() *windowStore {
	select {
	case st := <-windowStores:
		return st
	default:
		return new(windowStore)
	}
}

// putWindowStore recycles st, or drops it when enough are kept.
func putWindowStore(st *windowStore) {
	select {
	case windowStores <- st:
	default:
	}
}

// nullColumn is the column of a window batch the scan never writes
// (a column the query does not read): all NULL, shared, read-only.
var nullColumn = make([]types.Value, BatchSize)

// window is an index scan's batches between two table walks.
type window struct {
	bats  []*Batch     // bats[0] is the scan's own batch
	cols  []int        // the columns the scan writes
	max   int          // the most batches a window may hold
	st    *windowStore // the scratch, from the first fill to close
	n, at int          // batches filled; the next to hand out
	fills int          // windows filled this execution
	// drained: the consumer reads every row (see drainedBy), so even the
	// first window may be wide.
	drained bool
}

// init sets up a window over first; cols are the columns the scan writes.
// A covering scan reads (almost) no table rows, so its window is a batch.
func (w *window) init(first *Batch, cols []int, covering bool) {
	w.bats, w.cols, w.max = []*Batch{first}, cols, 1
	if !covering {
		w.max = min(maxWindow, 1+windowValues/(max(1, len(cols))*BatchSize))
	}
}

// size is how many batches the next window may hold: one first, so a
// consumer that stops early (EXISTS, a LIMIT over a filter) reads no more
// rows than a batch; w.max once the scan has gone past a batch, or from
// the start when the consumer drains the scan.
func (w *window) size() int {
	w.fills++
	if w.fills == 1 && !w.drained {
		return 1
	}
	return w.max
}

// store returns the window's scratch, taken from the pool on first use
// in this execution.
func (w *window) store() *windowStore {
	if w.st == nil {
		w.st = getWindowStore()
	}
	return w.st
}

// batch returns window batch i, binding scratch storage to it.
func (w *window) batch(i int) *Batch {
	if i == 0 {
		return w.bats[0]
	}
	st := w.store()
	if st.vals == nil {
		st.vals = make([]types.Value, windowValues)
	}
	for len(w.bats) <= i {
		cols := make([][]types.Value, len(w.bats[0].Cols))
		for c := range cols {
			cols[c] = nullColumn
		}
		w.bats = append(w.bats, &Batch{Cols: cols})
	}
	b := w.bats[i]
	for j, c := range w.cols {
		off := ((i-1)*len(w.cols) + j) * BatchSize
		b.Cols[c] = st.vals[off : off+BatchSize : off+BatchSize]
	}
	return b
}

// next hands out the next filled batch, nil when none is left.
func (w *window) next() *Batch {
	if w.at >= w.n {
		return nil
	}
	w.at++
	return w.bats[w.at-1]
}

// close ends an execution: the scratch goes back to the pool.
func (w *window) close() {
	w.n, w.at, w.fills = 0, 0, 0
	if w.st != nil {
		for _, b := range w.bats[1:] {
			for _, c := range w.cols {
				b.Cols[c] = nullColumn
			}
		}
		putWindowStore(w.st)
		w.st = nil
	}
}

// drainedBy marks the index scan under in (through filters and
// projections) as read to its end by its consumer, an aggregate without
// GROUP BY or a sort: its first window need not be narrow.
func drainedBy(in Operator) {
	if op, ok := scanUnder(in, false).(*indexScanOp); ok {
		op.win.drained = true
	}
}

// scanUnder returns the operator under in through filters and
// projections, and LIMITs too when throughLimit: the scan that feeds in
// row for row, when that is what it reaches.
func scanUnder(in Operator, throughLimit bool) Operator {
	for {
		switch op := in.(type) {
		case *filterOp:
			in = op.in
		case *constFilterOp:
			in = op.in
		case *projectOp:
			in = op.in
		case *limitOp:
			if !throughLimit {
				return in
			}
			in = op.in
		default:
			return in
		}
	}
}

// written lists the output columns the scan stores: the needed table
// columns and the rowid outputs.
func (s *indexScanOp) written() []int {
	var cols []int
	for c := range s.t.Columns {
		if s.needed == nil || (c < len(s.needed) && s.needed[c]) || c == s.aliasCol {
			cols = append(cols, c)
		}
	}
	if s.ridCol >= 0 {
		cols = append(cols, s.ridCol)
	}
	return cols
}

// fillWindow fills the next window, reads its table rows and returns its
// first batch (nil at the end of the range).
func (s *indexScanOp) fillWindow(c *Ctx) (*Batch, error) {
	if err := s.fillEntries(c); err != nil {
		s.win.n = 0
		return nil, err
	}
	if err := s.readRows(); err != nil {
		s.win.n = 0
		return nil, err
	}
	return s.win.next(), nil
}

// fillEntries fills the window's batches with index entries from the
// cursor's position.
func (s *indexScanOp) fillEntries(c *Ctx) error {
	s.ar.reset()
	w := &s.win
	st := w.store()
	st.pend = st.pend[:0]
	size := w.size()
	w.n, w.at = 0, 0
	for {
		b := w.batch(w.n)
		if err := s.fill(b, w.n*BatchSize); err != nil {
			return err
		}
		if b.N == 0 {
			return nil
		}
		w.n++
		if s.done || w.n == size || s.budget.exhausted() {
			return nil
		}
		if err := c.Check(); err != nil {
			return err
		}
		if more, err := s.step(); !more {
			return err
		}
	}
}

// readRows reads the table rows of the window's queued rows. It visits
// them in rowid order through one cursor, a leaf's worth per call
// (AppendRowids), and decodes each into its place in index order.
func (s *indexScanOp) readRows() error {
	st := s.win.st
	if len(st.pend) == 0 {
		return nil
	}
	if len(st.pend) == 1 {
		return s.getRow(st.pend[0])
	}
	if s.tcur == nil {
		s.tcur = s.table.Reopen(s.oldTcur)
	}
	sortPending(st.pend, &st.packed)
	ids := st.ids[:0]
	for _, p := range st.pend {
		ids = append(ids, p.rowid)
	}
	st.ids = ids
	for i := 0; i < len(ids); {
		ents, n := s.tcur.AppendRowids(s.ents[:0], ids[i:])
		s.ents = ents[:0]
		if n == 0 {
			if err := s.readRow(st.pend[i]); err != nil {
				return err
			}
			i++
			continue
		}
		for j, e := range ents {
			if err := s.decodeRow(e.Value, st.pend[i+j]); err != nil {
				return err
			}
		}
		i += n
	}
	return nil
}

// getRow reads the one row of a window by a point lookup instead of the
// table cursor: it costs no cursor, and in a write transaction it leaves
// the lookup's path for a write of the same row (a DELETE or UPDATE by an
// indexed column removes the row it just found without a second descent).
func (s *indexScanOp) getRow(p pendingRow) error {
	s.rkey = keycodec.AppendRowid(s.rkey[:0], p.rowid)
	val, ok, err := s.table.Get(s.rkey)
	if err != nil {
		return err
	}
	if !ok {
		return errs.New(errs.CodeCorrupt, "database disk image is malformed: index %s points at a missing row", s.ix.Name)
	}
	return s.decodeRow(val, p)
}

// readRow reads the table row of p alone, by key.
func (s *indexScanOp) readRow(p pendingRow) error {
	s.rkey = keycodec.AppendRowid(s.rkey[:0], p.rowid)
	if !s.tcur.SeekAhead(s.rkey) || !bytes.Equal(s.tcur.Key(), s.rkey) {
		if err := s.tcur.Err(); err != nil {
			return err
		}
		return errs.New(errs.CodeCorrupt, "database disk image is malformed: index %s points at a missing row", s.ix.Name)
	}
	val, err := s.tcur.Value()
	if err != nil {
		return err
	}
	return s.decodeRow(val, p)
}

// decodeRow decodes record val of row p into its window place.
func (s *indexScanOp) decodeRow(val []byte, p pendingRow) error {
	b, row := s.win.bats[p.pos/BatchSize], p.pos%BatchSize
	if err := s.dec.decode(val, s.needed, b.Cols[:len(s.t.Columns)], row, &s.ar); err != nil {
		return err
	}
	if s.aliasCol >= 0 {
		b.Cols[s.aliasCol][row] = types.NewInt(p.rowid)
	}
	return nil
}
