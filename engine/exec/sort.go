package exec

import (
	"github.com/ladybugsql/ladybug/factorized"
)

// sortOp materialises its input in a factorized table and emits it in key
// order. With a constant LIMIT (and OFFSET) it keeps only the top rows.
type sortOp struct {
	in         Operator
	ncol       int
	keyer      *sortKeyer
	limE, offE evaluator
	out        *Batch

	table  *factorized.Table
	sorter *factorized.Sorter
	topn   *factorized.TopN
	order  []int
	pos    int
	ready  bool
	key    []byte
	mem    held
	spill  *sortSpill // the temp file, once rows were written out
	once   oneShot
}

func (s *sortOp) Next(c *Ctx) (*Batch, error) {
	if !s.ready {
		if err := s.build(c); err != nil {
			return nil, err
		}
		s.ready = true
	}
	if s.spill != nil {
		return s.nextSpilled(c)
	}
	if s.pos >= len(s.order) {
		return nil, nil
	}
	b := s.out
	b.Reset()
	b.reserve(min(len(s.order)-s.pos, BatchSize))
	for s.pos < len(s.order) && b.N < BatchSize {
		readRow(s.table, s.order[s.pos], b)
		s.pos++
	}
	return b, nil
}

// topLimit returns limit+offset when both are constant and non-negative.
func (s *sortOp) topLimit(c *Ctx) (int, bool, error) {
	if s.limE == nil {
		return 0, false, nil
	}
	v, err := s.once.eval(c, s.limE)
	if err != nil {
		return 0, false, err
	}
	lim, err := limitValue(v, "LIMIT")
	if err != nil || lim < 0 {
		return 0, false, err
	}
	var off int64
	if s.offE != nil {
		v, err := s.once.eval(c, s.offE)
		if err != nil {
			return 0, false, err
		}
		if off, err = limitValue(v, "OFFSET"); err != nil {
			return 0, false, err
		}
		off = max(off, 0)
	}
	if lim+off > 1<<20 {
		return 0, false, nil
	}
	return int(lim + off), true, nil
}

func (s *sortOp) build(c *Ctx) error {
	if s.table == nil {
		s.table = factorized.NewTable(c.Pool, valueSchema(s.ncol))
	}
	n, top, err := s.topLimit(c)
	if err != nil {
		return err
	}
	if top {
		s.topn = factorized.NewTopN(c.Pool, n)
	} else {
		s.sorter = factorized.NewSorter(c.Pool)
	}
	for {
		b, err := s.in.Next(c)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		if err := s.keyer.eval(c, b); err != nil {
			return err
		}
		if s.table == nil {
			s.table = factorized.NewTable(c.Pool, valueSchema(s.ncol))
		}
		for k, cnt := 0, b.Len(); k < cnt; k++ {
			i := b.Phys(k)
			s.key = s.keyer.key(s.key[:0], i)
			if top {
				s.offerTop(b, i)
				continue
			}
			s.sorter.Add(s.table.Len(), s.key)
			appendBatchRow(s.table, b, i, s.ncol)
		}
		grown := s.table.SizeBytes()
		if top {
			grown += s.topn.SizeBytes()
			if s.topTooBig(c, grown) {
				// The top rows alone pass the limit: sort all of them
				// instead, through temp files, and let the LIMIT above
				// cut.
				s.topToSorter(c)
				top = false
			}
		} else {
			grown += s.sorter.SizeBytes()
		}
		if s.shouldSpill(c, grown) {
			if err := s.spillRun(c); err != nil {
				return err
			}
		} else if grown != s.mem.n {
			if err := s.mem.set(c, grown); err != nil {
				return err
			}
		}
		if err := c.CheckNow(); err != nil {
			return err
		}
	}
	if s.spill != nil {
		return s.finishSpill(c)
	}
	s.collect()
	return nil
}

func (s *sortOp) offerTop(b *Batch, i int) {
	slot, ok := s.topn.Offer(s.key)
	if !ok {
		return
	}
	if slot == s.table.Len() {
		appendBatchRow(s.table, b, i, s.ncol)
		return
	}
	r := s.table.Row(slot)
	for c := 0; c < s.ncol; c++ {
		setFact(r, c, b.Cols[c][i])
	}
}

func (s *sortOp) collect() {
	s.order = s.order[:0]
	if s.topn != nil {
		s.topn.Sort()
		for i := 0; i < s.topn.Len(); i++ {
			s.order = append(s.order, s.topn.Slot(i))
		}
		return
	}
	s.sorter.Sort()
	for i := 0; i < s.sorter.Len(); i++ {
		s.order = append(s.order, s.sorter.Row(i))
	}
}

func (s *sortOp) Close() {
	s.in.Close()
	s.mem.release()
	if s.spill != nil {
		s.spill.close()
		s.spill = nil
	}
	if s.table != nil {
		s.table.Release()
		s.table = nil
	}
	if s.sorter != nil {
		s.sorter.Reset()
		s.sorter = nil
	}
	if s.topn != nil {
		// Its long keys live in pool blocks: give them back.
		s.topn.Reset()
		s.topn = nil
	}
	s.order, s.pos, s.ready = s.order[:0], 0, false
}
