package exec

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/keycodec"
)

// startReverse positions a reverse table scan on the last row with rowid
// <= hiKey and fills the first batch.
func (s *scanOp) startReverse() (*Batch, error) {
	var ok bool
	if s.hiKey == math.MaxInt64 {
		ok = s.cur.Last()
	} else {
		s.key = keycodec.AppendRowid(s.key[:0], s.hiKey+1)
		if s.cur.Seek(s.key) {
			ok = s.cur.Prev()
		} else if s.cur.Err() == nil {
			ok = s.cur.Last()
		}
	}
	if !ok {
		s.done = true
		return nil, s.cur.Err()
	}
	return s.fillReverse()
}

// nextReverse steps a reverse scan below the last row read and fills the
// next batch.
func (s *scanOp) nextReverse() (*Batch, error) {
	if s.budget.exhausted() || !s.cur.Prev() {
		s.done = true
		return nil, s.cur.Err()
	}
	return s.fillReverse()
}

// fillReverse decodes rows from the cursor's position downwards, stopping
// below loKey or at the row budget; the cursor stays on the last row read.
func (s *scanOp) fillReverse() (*Batch, error) {
	b := s.out
	b.Reset()
	s.ar.reset()
	rid := len(s.t.Columns)
	decode := s.decodes()
	limit := s.budget.batchCap()
	for {
		rowid := keycodec.DecodeRowid(s.cur.Key())
		if rowid < s.loKey {
			s.done = true
			break
		}
		b.ensureRow()
		if decode {
			v, err := s.cur.Value()
			if err != nil {
				return nil, err
			}
			if err := s.dec.decode(v, s.needed, b.Cols[:rid], b.N, &s.ar); err != nil {
				return nil, err
			}
		}
		s.putRowid(b, b.N, rowid)
		b.N++
		if b.N == limit {
			break
		}
		if !s.cur.Prev() {
			s.done = true
			if err := s.cur.Err(); err != nil {
				return nil, err
			}
			break
		}
	}
	s.budget.took(b.N)
	return nonEmpty(b), nil
}
