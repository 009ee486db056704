package exec

import (
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/factorized"
)

// setOp is UNION [ALL], INTERSECT and EXCEPT. UNION ALL streams both
// inputs; the others stream the left input through a hash of seen rows,
// INTERSECT and EXCEPT against a hash of the right input's rows.
type setOp struct {
	op          plan.SetOpKind
	all         bool
	left, right Operator
	colls       []string
	seen        *factorized.HashTable
	mem         held // seen and rightSet, charged to the memory limit
	rightSet    *factorized.HashTable
	onRight     bool
	sel         []int32
	key         []byte
	// pending is the left input's first batch (values cloned), read
	// before the right input of INTERSECT and EXCEPT so that an empty
	// left input never runs the right one, as in SQLite; leftEmpty says
	// there was none.
	pending   *Batch
	leftEmpty bool
	// keptSeen and keptRight keep the hash sets across runs (keptHash).
	keptSeen, keptRight keptHash
}

func (b *builder) setOp(n *plan.SetOp) (Operator, error) {
	l, err := b.build(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := b.build(n.Right)
	if err != nil {
		return nil, err
	}
	op := &setOp{op: n.Op, all: n.All, left: l, right: r}
	for _, c := range n.Columns() {
		op.colls = append(op.colls, c.Collate)
	}
	return op, nil
}

func (s *setOp) rowKey(b *Batch, i int) []byte {
	s.key = s.key[:0]
	for col, coll := range s.colls {
		s.key = appendKey(s.key, b.Cols[col][i], coll, false, true)
	}
	return s.key
}

func (s *setOp) init(c *Ctx) error {
	var err error
	if s.seen == nil && !(s.op == plan.Union && s.all) {
		if s.seen, err = s.keptSeen.take(c.Pool, noPayload); err != nil {
			return err
		}
	}
	if s.rightSet == nil && s.op != plan.Union && !s.leftEmpty {
		first, err := s.left.Next(c)
		if err != nil {
			return err
		}
		if first == nil {
			s.leftEmpty = true
			return nil
		}
		s.pending = cloneLive(first)
		if s.rightSet, err = s.keptRight.take(c.Pool, noPayload); err != nil {
			return err
		}
		for {
			b, err := s.right.Next(c)
			if err != nil {
				return err
			}
			if b == nil {
				break
			}
			for k, n := 0, b.Len(); k < n; k++ {
				s.rightSet.FindOrInsert(s.rowKey(b, b.Phys(k)))
			}
			if err := s.mem.set(c, s.rightSet.SizeBytes()); err != nil {
				return err
			}
			if err := c.CheckNow(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *setOp) Next(c *Ctx) (*Batch, error) {
	if err := s.init(c); err != nil {
		return nil, err
	}
	if s.leftEmpty {
		return nil, nil
	}
	for {
		in := s.left
		if s.onRight {
			in = s.right
		}
		b, err := s.pending, error(nil)
		if s.pending != nil {
			s.pending = nil
		} else if b, err = in.Next(c); err != nil {
			return nil, err
		}
		if b == nil {
			if s.op == plan.Union && !s.onRight {
				s.onRight = true
				continue
			}
			return nil, nil
		}
		if s.seen == nil {
			return b, nil
		}
		s.sel = s.sel[:0]
		for k, n := 0, b.Len(); k < n; k++ {
			i := b.Phys(k)
			key := s.rowKey(b, i)
			if s.rightSet != nil {
				_, inRight := s.rightSet.Find(key)
				if inRight != (s.op == plan.Intersect) {
					continue
				}
			}
			if _, dup := s.seen.FindOrInsert(key); !dup {
				s.sel = append(s.sel, int32(i))
			}
		}
		if err := s.mem.set(c, s.setBytes()); err != nil {
			return nil, err
		}
		if len(s.sel) > 0 {
			b.Sel = s.sel
			return b, nil
		}
		if err := c.Check(); err != nil {
			return nil, err
		}
	}
}

// setBytes is the memory of the hash sets.
func (s *setOp) setBytes() int64 {
	n := s.seen.SizeBytes()
	if s.rightSet != nil {
		n += s.rightSet.SizeBytes()
	}
	return n
}

func (s *setOp) Close() {
	s.mem.release()
	s.left.Close()
	s.right.Close()
	for _, h := range []*factorized.HashTable{s.seen, s.rightSet} {
		if h != nil {
			h.Release()
		}
	}
	s.seen, s.rightSet, s.onRight = nil, nil, false
	s.pending, s.leftEmpty = nil, false
}

// cloneLive copies the live rows of b into a new batch whose values own
// their bytes (b's may point into pages its operator releases).
func cloneLive(b *Batch) *Batch {
	out := newBatchCap(len(b.Cols), max(b.Len(), 1))
	b.ForEach(func(i int) {
		for c, col := range b.Cols {
			out.Cols[c][out.N] = col[i].Clone()
		}
		out.N++
	})
	return out
}
