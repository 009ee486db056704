package exec

import (
	"unsafe"

	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/types"
)

// Keep bounds: a reused operator keeps per-group state of at most this
// many groups between executions, so one huge GROUP BY does not pin it.
const aggKeepGroups = 1 << 14

// aggKeepAccs bounds the accumulators (of any number of groups) a reused
// operator keeps room for.
const aggKeepAccs = 256

// assignSlots places each aggregate's state: a grouped count, sum,
// total or avg without DISTINCT, FILTER or ORDER BY in a dense numAcc
// slice of its own, anything else in the run of accumulators each group
// holds in accs (ngen of them). An ungrouped aggregate keeps one
// accumulator per call, at its own index.
func (a *aggregateOp) assignSlots() {
	a.ngen = 0
	for k := range a.aggs {
		s := &a.aggs[k]
		switch {
		case len(a.groups) == 0:
			s.slot = k
			a.ngen++
		case s.twin >= 0:
			s.slot = -1
		case s.kind.numeric() && s.filter == nil && !s.distinct && s.order == nil:
			s.fast, s.slot = true, len(a.nums)
			a.nums = append(a.nums, nil)
		default:
			s.slot = a.ngen
			a.ngen++
		}
	}
}

// addFast folds a fast aggregate over a batch's live rows into their
// groups' states: one typed loop per batch, integers and reals added
// inline.
func (a *aggregateOp) addFast(s *aggSpec, b *Batch, gidx []int) {
	st := a.nums[s.slot]
	col := s.args
	switch s.kind {
	case aggCountStar:
		if b.Sel == nil {
			for _, g := range gidx[:b.N] {
				st[g].count++
			}
			return
		}
		for _, i := range b.Sel {
			st[gidx[i]].count++
		}
	case aggCount:
		if b.Sel == nil {
			for i, g := range gidx[:b.N] {
				if !col[i].IsNull() {
					st[g].count++
				}
			}
			return
		}
		for _, i := range b.Sel {
			if !col[i].IsNull() {
				st[gidx[i]].count++
			}
		}
	default:
		if b.Sel == nil {
			col = col[:b.N]
			for i, g := range gidx[:len(col)] {
				st[g].add(&col[i])
			}
			return
		}
		for _, i := range b.Sel {
			st[gidx[i]].add(&col[i])
		}
	}
}

// add folds one value into a sum, total or avg state: an INTEGER that
// does not overflow and a REAL into a REAL sum inline, the rest through
// addNumber.
func (n *numAcc) add(v *types.Value) {
	switch v.Kind() {
	case types.KindNull:
		return
	case types.KindInt:
		if !n.real {
			x := v.Int()
			if s := n.isum + x; (s > n.isum) == (x > 0) || x == 0 {
				n.isum = s
				n.count++
				return
			}
		}
	case types.KindReal:
		if n.real {
			n.ovf = false
			funcs.KBNStep(&n.fsum, &n.ferr, v.Real())
			n.count++
			return
		}
	}
	n.addNumber(*v)
}

// result is aggregate k's value for group g.
func (a *aggregateOp) result(g, k int) (types.Value, error) {
	s := &a.aggs[k]
	kind := s.kind
	if s.twin >= 0 {
		s = &a.aggs[s.twin] // the overflow flag of the sum before it
	}
	if s.fast {
		return a.nums[s.slot][g].result(kind)
	}
	acc := &a.accs[g*a.ngen+s.slot]
	if acc.ordered != nil {
		if err := acc.replayOrdered(*s); err != nil {
			return types.Null, err
		}
	}
	return acc.result(kind)
}

// stateBytes approximates the memory the groups' states hold.
func (a *aggregateOp) stateBytes() int64 {
	n := int64(len(a.accs)) * unsafeSizeofAccum
	for _, st := range a.nums {
		n += int64(cap(st)) * int64(unsafe.Sizeof(numAcc{}))
	}
	return n + a.ig.bytes()
}

// resetState forgets every group's state after an execution, keeping the
// room of a moderate run for the next one.
func (a *aggregateOp) resetState() {
	for i, st := range a.nums {
		if cap(st) > aggKeepGroups {
			st = nil
		}
		a.nums[i] = st[:0]
	}
	clear(a.accs) // what the accumulators held
	if cap(a.accs) > aggKeepAccs {
		a.accs = nil
	}
	a.accs = a.accs[:0]
	a.ig.reset()
}
