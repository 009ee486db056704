package exec

import (
	"bytes"
	"slices"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// inSeeks is an index scan's IN list (plan.IndexRange.In): the scan
// visits the entries of each distinct non-NULL value's key prefix in turn,
// in key order, with one seek per value.
type inSeeks struct {
	items []evaluator
	keys  [][]byte // encoded values, sorted and distinct
	next  int      // the next key to visit
	base  int      // length of the equality prefix before the value
}

func (cp *compiler) newInSeeks(list []plan.Expr) (*inSeeks, error) {
	in := &inSeeks{}
	for _, e := range list {
		ev, err := cp.compile(e)
		if err != nil {
			return nil, err
		}
		in.items = append(in.items, ev)
	}
	return in, nil
}

// startIn evaluates the list and extends the scan's prefix with its first
// value; false means the list holds no non-NULL value.
func (s *indexScanOp) startIn(c *Ctx) (bool, error) {
	in := s.in
	ic := s.ix.Columns[len(s.eq)]
	in.keys = in.keys[:0]
	for _, ev := range in.items {
		v, err := s.once.eval(c, ev)
		if err != nil {
			return false, err
		}
		if !v.IsNull() { // NULL matches nothing
			in.keys = append(in.keys, types.AppendKey(nil, v, ic.Desc, collOf(ic.Collate)))
		}
	}
	if len(in.keys) == 0 {
		return false, nil
	}
	slices.SortFunc(in.keys, bytes.Compare)
	in.keys = slices.CompactFunc(in.keys, bytes.Equal)
	in.base = len(s.prefix)
	s.prefix = append(s.prefix, in.keys[0]...)
	in.next = 1
	return true, nil
}

// nextIn moves the scan to the next IN value's entries; false when the
// list is exhausted or no entry follows.
func (s *indexScanOp) nextIn() (bool, error) {
	in := s.in
	if in == nil || in.next >= len(in.keys) {
		return false, nil
	}
	s.prefix = append(s.prefix[:in.base], in.keys[in.next]...)
	in.next++
	if k := s.cur.Key(); k != nil && bytes.Compare(k, s.prefix) >= 0 {
		return true, nil // already there: the previous value ended past it
	}
	if !s.cur.SeekAhead(s.prefix) {
		return false, s.cur.Err()
	}
	return true, nil
}
