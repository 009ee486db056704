package exec

import (
	"container/heap"
	"unsafe"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/factorized"
)

// cteStore is the working table of one recursive CTE while its steps run:
// the row (or, on the fast path, rows) just taken from the queue.
type cteStore struct {
	work [][]types.Value
}

// recursiveOp runs a recursive CTE as SQLite does: the setup rows go into
// a queue; then, until the queue is empty, one row is taken out, output,
// and every recursive term runs over that row alone, adding its rows to
// the queue. Without ORDER BY the queue is FIFO; with it, a priority queue
// on the ORDER BY keys (ties FIFO), which is how a query chooses a
// depth-first or breadth-first walk. UNION (not ALL) queues each distinct
// row once. OFFSET skips output rows (their terms still run); LIMIT stops
// the recursion once that many rows are output. The consumer stopping
// stops it too, so "SELECT … FROM c LIMIT n" ends an unbounded recursion.
//
// chunk is how many rows one run of the terms may take at once: 1, or
// BatchSize when a single term is a filter/projection of the current row
// (running it over k rows gives the k one-row runs' results in order).
type recursiveOp struct {
	setup    Operator
	steps    []Operator
	store    *cteStore
	unionAll bool
	ncol     int
	chunk    int
	order    *sortKeyer // nil: FIFO
	lim      limitOp    // evaluates LIMIT and OFFSET only
	limit    int64
	offset   int64
	emitted  int64

	started, done bool
	// fifo holds the queued rows without ORDER BY back to back, ncol
	// values each; rows before head are taken. A taken row stays in place
	// until compact, which runs only while no taken row is pending.
	fifo []types.Value
	head int
	// slab is where an ordered CTE's queued rows are cut from.
	slab    []types.Value
	pq      cteHeap
	seq     uint64
	pending [][]types.Value // output rows whose terms have not run
	seen    *factorized.HashTable
	mem     held // the queue and seen, charged to the memory limit
	key     []byte
	out     *Batch
}

// workOp reads the working table inside a recursive term.
type workOp struct {
	store *cteStore
	held  *heldOp
}

func (w *workOp) Next(c *Ctx) (*Batch, error) {
	if w.held.rows == nil {
		w.held.rows = w.store.work
		if w.held.rows == nil {
			w.held.rows = [][]types.Value{}
		}
	}
	return w.held.Next(c)
}

func (w *workOp) Close() { w.held.rows, w.held.pos = nil, 0 }

func (b *builder) cteRef(n *plan.CTERef) (Operator, error) {
	if st, ok := b.ctes[n.CTE.ID]; ok {
		return &workOp{store: st, held: &heldOp{out: emptyBatch(len(n.Cols))}}, nil
	}
	setup, err := b.build(n.CTE.Plan)
	if err != nil {
		return nil, err
	}
	st := &cteStore{}
	r := &recursiveOp{setup: setup, store: st, unionAll: n.CTE.UnionAll, ncol: len(n.Cols), chunk: 1, out: emptyBatch(len(n.Cols))}
	if b.ctes == nil {
		b.ctes = map[int]*cteStore{}
	}
	b.ctes[n.CTE.ID] = st
	defer delete(b.ctes, n.CTE.ID)
	for _, s := range n.CTE.Steps {
		op, err := b.build(s)
		if err != nil {
			return nil, err
		}
		r.steps = append(r.steps, op)
	}
	if len(n.CTE.Order) > 0 {
		if r.order, err = b.cp.newSortKeyer(n.CTE.Order); err != nil {
			return nil, err
		}
	} else if len(n.CTE.Steps) == 1 && rowWise(n.CTE.Steps[0], n.CTE.ID) {
		r.chunk = BatchSize
	}
	if n.CTE.Limit != nil {
		if r.lim.limE, err = b.cp.compile(n.CTE.Limit); err != nil {
			return nil, err
		}
	}
	if n.CTE.Offset != nil {
		if r.lim.offE, err = b.cp.compile(n.CTE.Offset); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// rowWise reports whether step is filters and projections over the CTE's
// current row only, so it can run over many queued rows at once.
func rowWise(step plan.Node, id int) bool {
	switch n := step.(type) {
	case *plan.Project:
		return rowWise(n.Input, id)
	case *plan.Filter:
		return rowWise(n.Input, id)
	case *plan.CTERef:
		return n.CTE.ID == id
	}
	return false
}

func (r *recursiveOp) Next(c *Ctx) (*Batch, error) {
	if !r.started {
		r.started = true
		if err := r.start(c); err != nil {
			return nil, err
		}
	}
	out := r.out
	out.Reset()
	for out.N < BatchSize && !r.done {
		if len(r.pending) > 0 {
			if err := r.runSteps(c); err != nil {
				return nil, err
			}
		}
		n := min(r.chunk, BatchSize-out.N)
		for n > 0 && !r.done {
			row := r.pop()
			if row == nil {
				r.done = len(r.pending) == 0
				break
			}
			n--
			r.pending = append(r.pending, row)
			if r.offset > 0 {
				r.offset--
				continue
			}
			out.ensureRow()
			for col, v := range row {
				out.Cols[col][out.N] = v
			}
			out.N++
			r.emitted++
			r.done = r.limit >= 0 && r.emitted >= r.limit
		}
		if err := c.Check(); err != nil {
			return nil, err
		}
	}
	if out.N == 0 {
		return nil, nil
	}
	return out, nil
}

// start evaluates LIMIT and OFFSET and queues the setup rows.
func (r *recursiveOp) start(c *Ctx) error {
	if err := r.lim.init(c); err != nil {
		return err
	}
	r.limit, r.offset = r.lim.limit, r.lim.offset
	if r.limit == 0 {
		r.done = true
		return nil
	}
	if !r.unionAll {
		ht, err := factorized.NewHashTable(c.Pool, noPayload)
		if err != nil {
			return err
		}
		r.seen = ht
	}
	return r.drain(c, r.setup)
}

// runSteps runs every recursive term over the pending rows.
func (r *recursiveOp) runSteps(c *Ctx) error {
	r.store.work = r.pending
	for _, s := range r.steps {
		s.Close()
		if err := r.drain(c, s); err != nil {
			return err
		}
	}
	clear(r.pending)
	r.pending = r.pending[:0]
	r.compact()
	return nil
}

// compact drops the taken rows from the front of the FIFO queue when they
// are all of it or at least half of a long one, so the queue's room is
// reused and stays the size of its live rows. The pending rows alias the
// queue: it runs only when there are none.
func (r *recursiveOp) compact() {
	taken := r.head * r.ncol
	switch {
	case taken == 0:
		return
	case taken == len(r.fifo):
		clear(r.fifo)
		r.fifo = r.fifo[:0]
	case r.head >= 1024 && taken*2 >= len(r.fifo):
		n := copy(r.fifo, r.fifo[taken:])
		clear(r.fifo[n:])
		r.fifo = r.fifo[:n]
	default:
		return
	}
	r.head = 0
}

// drain queues every row op produces.
func (r *recursiveOp) drain(c *Ctx, op Operator) error {
	for {
		b, err := op.Next(c)
		if err != nil || b == nil {
			return err
		}
		if err := r.push(c, b); err != nil {
			return err
		}
	}
}

// push queues the batch's rows, dropping rows seen before under UNION.
func (r *recursiveOp) push(c *Ctx, b *Batch) error {
	if r.order != nil {
		if err := r.order.eval(c, b); err != nil {
			return err
		}
	}
	for k, n := 0, b.Len(); k < n; k++ {
		i := b.Phys(k)
		if r.seen != nil {
			r.key = r.key[:0]
			for col := 0; col < r.ncol; col++ {
				r.key = appendKey(r.key, b.Cols[col][i], "", false, true)
			}
			if _, dup := r.seen.FindOrInsert(r.key); dup {
				continue
			}
		}
		if r.order == nil {
			for col := 0; col < r.ncol; col++ {
				r.fifo = append(r.fifo, b.Cols[col][i].Clone())
			}
			continue
		}
		row := r.newRow()
		for col := range row {
			row[col] = b.Cols[col][i].Clone()
		}
		r.seq++
		heap.Push(&r.pq, cteEntry{key: string(r.order.key(nil, i)), seq: r.seq, row: row})
	}
	return r.mem.set(c, r.queueBytes())
}

// newRow returns room for one row of an ordered CTE's queue, cut from a
// slab of rows so that queueing a row does not allocate.
func (r *recursiveOp) newRow() []types.Value {
	if len(r.slab) < r.ncol {
		r.slab = make([]types.Value, 256*r.ncol)
	}
	row := r.slab[:r.ncol:r.ncol]
	r.slab = r.slab[r.ncol:]
	return row
}

// queueBytes is the memory of the queued rows (their values, not the
// text they point to) and of the UNION's set of rows seen.
func (r *recursiveOp) queueBytes() int64 {
	value := int64(unsafe.Sizeof(types.Value{}))
	n := int64(len(r.fifo)-r.head*r.ncol)*value +
		int64(len(r.pq))*(int64(r.ncol)*value+int64(unsafe.Sizeof(cteEntry{})))
	if r.seen != nil {
		n += r.seen.SizeBytes()
	}
	return n
}

// pop takes the next row out of the queue, nil when it is empty.
func (r *recursiveOp) pop() []types.Value {
	if r.order != nil {
		if r.pq.Len() == 0 {
			return nil
		}
		return heap.Pop(&r.pq).(cteEntry).row
	}
	at := r.head * r.ncol
	if at == len(r.fifo) {
		return nil
	}
	r.head++
	return r.fifo[at : at+r.ncol : at+r.ncol]
}

func (r *recursiveOp) Close() {
	r.mem.release()
	r.setup.Close()
	for _, s := range r.steps {
		s.Close()
	}
	if r.seen != nil {
		r.seen.Release()
		r.seen = nil
	}
	r.lim = limitOp{limE: r.lim.limE, offE: r.lim.offE}
	r.started, r.done, r.emitted, r.seq = false, false, 0, 0
	r.fifo, r.head, r.slab, r.pq, r.pending, r.store.work = nil, 0, nil, nil, nil, nil
}

// cteEntry is one queued row of an ordered recursive CTE.
type cteEntry struct {
	key string
	seq uint64
	row []types.Value
}

// cteHeap is the priority queue of an ordered recursive CTE: the smallest
// ORDER BY key first, the earliest queued among equal keys.
type cteHeap []cteEntry

func (h cteHeap) Len() int { return len(h) }
func (h cteHeap) Less(i, j int) bool {
	if h[i].key != h[j].key {
		return h[i].key < h[j].key
	}
	return h[i].seq < h[j].seq
}
func (h cteHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cteHeap) Push(x any)   { *h = append(*h, x.(cteEntry)) }
func (h *cteHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = cteEntry{}
	*h = old[:len(old)-1]
	return e
}
