package exec

import (
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/factorized"
)

// cteStore is the working table of one recursive CTE while its step runs.
type cteStore struct {
	work [][]types.Value // rows of the previous iteration, read by the step
}

// recursiveOp streams a recursive CTE: the base rows, then each
// iteration's new rows, where an iteration runs the step over the previous
// one's rows. It stops when an iteration adds nothing (or when the
// consumer stops pulling, so "LIMIT n" ends an unbounded recursion).
type recursiveOp struct {
	base, step Operator
	store      *cteStore
	unionAll   bool
	ncol       int
	seen       *factorized.HashTable
	next       [][]types.Value
	onStep     bool
	sel        []int32
	key        []byte
}

// workOp reads the working table inside the step.
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
		return &workOp{store: st, held: &heldOp{out: NewBatch(len(n.Cols))}}, nil
	}
	base, err := b.build(n.CTE.Plan)
	if err != nil {
		return nil, err
	}
	st := &cteStore{}
	b.ctes[n.CTE.ID] = st
	step, err := b.build(n.CTE.Step)
	delete(b.ctes, n.CTE.ID)
	if err != nil {
		return nil, err
	}
	var op Operator = &recursiveOp{base: base, step: step, store: st, unionAll: n.CTE.UnionAll, ncol: len(n.Cols)}
	if n.CTE.Limit == nil && n.CTE.Offset == nil {
		return op, nil
	}
	lim := &limitOp{in: op}
	if n.CTE.Limit != nil {
		if lim.limE, err = b.cp.compile(n.CTE.Limit); err != nil {
			return nil, err
		}
	}
	if n.CTE.Offset != nil {
		if lim.offE, err = b.cp.compile(n.CTE.Offset); err != nil {
			return nil, err
		}
	}
	return lim, nil
}

func (r *recursiveOp) Next(c *Ctx) (*Batch, error) {
	if r.seen == nil && !r.unionAll {
		ht, err := factorized.NewHashTable(c.Pool, factorized.MustSchema())
		if err != nil {
			return nil, err
		}
		r.seen = ht
	}
	for {
		in := r.base
		if r.onStep {
			in = r.step
		}
		b, err := in.Next(c)
		if err != nil {
			return nil, err
		}
		if b == nil {
			if len(r.next) == 0 {
				return nil, nil
			}
			// Start the next iteration over the rows just produced.
			r.store.work, r.next = r.next, nil
			r.step.Close()
			r.onStep = true
			if err := c.CheckNow(); err != nil {
				return nil, err
			}
			continue
		}
		if out := r.keep(b); out != nil {
			return out, nil
		}
	}
}

// keep records the batch's new rows for the next iteration and returns the
// batch narrowed to them, or nil when none is new.
func (r *recursiveOp) keep(b *Batch) *Batch {
	r.sel = r.sel[:0]
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
		row := make([]types.Value, r.ncol)
		for col := range row {
			row[col] = b.Cols[col][i].Clone()
		}
		r.next = append(r.next, row)
		r.sel = append(r.sel, int32(i))
	}
	if len(r.sel) == 0 {
		return nil
	}
	b.Sel = r.sel
	return b
}

func (r *recursiveOp) Close() {
	r.base.Close()
	r.step.Close()
	if r.seen != nil {
		r.seen.Release()
		r.seen = nil
	}
	r.next, r.store.work, r.onStep = nil, nil, false
}
