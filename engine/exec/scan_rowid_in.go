package exec

import (
	"slices"

	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// rowidInOp reads the rows whose rowid is one of the values of an IN list
// or uncorrelated IN subquery (plan.RowidRange.In / InSub): the values are
// converted as the rowid's INTEGER affinity compares them, those equal to
// no integer dropped, then each distinct rowid is read with a Get, in
// rowid order (descending for a Reverse scan). Decoding is the table
// scan's.
type rowidInOp struct {
	s     *scanOp // decodes the rows; its own bounds are unused
	items []evaluator
	sub   *inValues
	ids   []int64 // the rowids to read, in scan order
	next  int
	once  oneShot
	// reverse reads the rowids from the highest down (plan.Scan.Reverse).
	reverse bool
}

func (cp *compiler) newRowidIn(n *plan.Scan) (Operator, error) {
	s := &scanOp{t: n.Table, needed: n.Needed, out: emptyBatch(len(n.Cols))}
	s.ridCol, s.aliasCol = rowidOutputs(n.Table, n.Needed)
	var err error
	if s.budget, err = cp.newRowBudget(n.RowLimit); err != nil {
		return nil, err
	}
	op := &rowidInOp{s: s, reverse: n.Reverse}
	for _, e := range n.Lookup.In {
		ev, err := cp.compile(e)
		if err != nil {
			return nil, err
		}
		op.items = append(op.items, ev)
	}
	if n.Lookup.InSub != nil {
		if op.sub, err = cp.newInValues(n.Lookup.InSub); err != nil {
			return nil, err
		}
	}
	return op, nil
}

// Close implements Operator.
func (op *rowidInOp) Close() {
	op.s.started = false
}

// start collects the distinct rowids in scan order.
func (op *rowidInOp) start(c *Ctx) error {
	op.ids, op.next = op.ids[:0], 0
	add := func(v types.Value) {
		if r, ok := exactRowid(types.AffinityInteger.ApplyCompare(v)); ok {
			op.ids = append(op.ids, r)
		}
	}
	for _, ev := range op.items {
		v, err := op.once.eval(c, ev)
		if err != nil {
			return err
		}
		add(v)
	}
	if op.sub != nil {
		if err := op.sub.each(c, add); err != nil {
			return err
		}
	}
	slices.Sort(op.ids)
	op.ids = slices.Compact(op.ids)
	if op.reverse {
		slices.Reverse(op.ids)
	}
	return op.s.budget.start(c)
}

// Next implements Operator: up to a batch of the listed rows that exist.
func (op *rowidInOp) Next(c *Ctx) (*Batch, error) {
	s := op.s
	if err := c.Check(); err != nil {
		return nil, err
	}
	if !s.started {
		s.started = true
		if err := op.start(c); err != nil {
			return nil, err
		}
	}
	b := s.out
	b.Reset()
	s.ar.reset()
	tree := c.TableTree(s.t)
	limit := s.budget.batchCap()
	decode := s.decodes()
	rid := len(s.t.Columns)
	for b.N < limit && op.next < len(op.ids) {
		id := op.ids[op.next]
		op.next++
		s.key = keycodec.AppendRowid(s.key[:0], id)
		val, ok, err := tree.Get(s.key)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		b.ensureRow()
		if decode {
			if err := s.dec.decode(val, s.needed, b.Cols[:rid], b.N, &s.ar); err != nil {
				return nil, err
			}
		}
		s.putRowid(b, b.N, id)
		b.N++
	}
	s.budget.took(b.N)
	return nonEmpty(b), nil
}
