package exec

import "github.com/ladybugsql/ladybug/engine/types"

// scratchStack lends evaluators the buffers of their intermediate results
// (an operand's values, a CASE's pending rows) for the length of one call.
// One stack serves a whole operator tree (its builder's), so a statement
// holds buffers for its deepest chain of nested expressions rather than
// one per expression node, and compiling a node allocates no buffer at
// all. Calls nest (an evaluator's operands, a subquery's operators, run
// inside it, borrow above it and give back before it resumes), so a buffer
// is given back by restoring the mark taken before borrowing, on every
// return path. A tree runs on one goroutine at a time (a program is taken
// out of the cache while it runs), like the per-node buffers before it.
type scratchStack struct {
	vals []types.Value
	top  int // vals[:top] is lent out
	sels []int32
	stop int // sels[:stop] is lent out
}

// mark is the stack's state before a call borrows; release(m) gives back
// everything borrowed since.
type scratchMark struct{ top, stop int }

func (s *scratchStack) mark() scratchMark { return scratchMark{s.top, s.stop} }

func (s *scratchStack) release(m scratchMark) { s.top, s.stop = m.top, m.stop }

// values lends a buffer for the physical rows of b (b.N values; an
// evaluator writes out[i] for live i < b.N). Its contents are stale.
func (s *scratchStack) values(b *Batch) []types.Value {
	top, n := s.top, b.N
	if top+n > len(s.vals) {
		s.growValues(n)
	}
	s.top = top + n
	return s.vals[top : top+n : top+n]
}

// growValues replaces vals with a larger array holding room for n more
// values above top. Buffers lent from the old array stay valid (their
// borrowers hold it); the new one's first top values wait unused until
// those are given back.
func (s *scratchStack) growValues(n int) {
	size := max(2*len(s.vals), roomFor(s.top+n))
	for size < s.top+n {
		size *= 2
	}
	s.vals = make([]types.Value, size)
	countGrown(size)
}

// rows lends an empty selection with room for the live rows of b.
func (s *scratchStack) rows(b *Batch) []int32 {
	top, n := s.stop, b.Len()
	if top+n > len(s.sels) {
		size := max(2*len(s.sels), roomFor(top+n))
		for size < top+n {
			size *= 2
		}
		s.sels = make([]int32, size)
	}
	s.stop = top + n
	return s.sels[top : top : top+n]
}
