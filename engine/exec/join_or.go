package exec

import (
	"slices"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/factorized"
)

// orProbe finds the candidates of a hash join whose condition is an OR of
// equalities (plan.OrJoinKeys): one hash table per disjunct's keys, and a
// right row is a candidate of a left row when any of them lists it. The
// candidates are the union, in build order, so every pair the whole ON
// condition (the residual) accepts is among them and none comes twice.
type orProbe struct {
	sets []orKeySet
	// seen holds per build row the stamp of the left row that last listed
	// it, so a row found by two sets is listed once.
	seen  []uint32
	stamp uint32
	key   []byte
}

// orKeySet is one disjunct's keys and its hash table.
type orKeySet struct {
	lkeys, rkeys []evaluator
	lbufs, rbufs [][]types.Value
	ht           *factorized.HashTable
}

// compileOrProbe compiles the key sets of an OR join condition.
func (b *builder) compileOrProbe(sets []plan.JoinKeySet) (*orProbe, error) {
	p := &orProbe{}
	for _, s := range sets {
		lk, rk, err := b.compileKeys(s.Left, s.Right)
		if err != nil {
			return nil, err
		}
		p.sets = append(p.sets, orKeySet{lkeys: lk, rkeys: rk,
			lbufs: make([][]types.Value, len(lk)), rbufs: make([][]types.Value, len(rk))})
	}
	return p, nil
}

// start makes the empty hash tables of a build.
func (p *orProbe) start(c *Ctx) error {
	for i := range p.sets {
		ht, err := factorized.NewHashTable(c.Pool, int64Schema)
		if err != nil {
			return err
		}
		p.sets[i].ht = ht
	}
	return nil
}

// add enters the rows of right batch b, numbered from first in build
// order, into every set's table.
func (p *orProbe) add(c *Ctx, b *Batch, first int) error {
	for s := range p.sets {
		ks := &p.sets[s]
		for i, ev := range ks.rkeys {
			if err := ev(c, b, fit(&ks.rbufs[i], b)); err != nil {
				return err
			}
		}
		for k, n := 0, b.Len(); k < n; k++ {
			var null bool
			if p.key, null = appendJoinKey(p.key[:0], ks.rbufs, b.Phys(k)); !null {
				ks.ht.Insert(p.key).SetInt64(0, int64(first+k))
			}
		}
	}
	return nil
}

// loadLeft evaluates every set's left keys over left batch b.
func (p *orProbe) loadLeft(c *Ctx, b *Batch) error {
	for s := range p.sets {
		ks := &p.sets[s]
		for i, ev := range ks.lkeys {
			if err := ev(c, b, fit(&ks.lbufs[i], b)); err != nil {
				return err
			}
		}
	}
	return nil
}

// candidates appends to cands the build rows any set finds for physical
// left row i, in build order.
func (p *orProbe) candidates(cands []int32, i, nrows int) []int32 {
	if len(p.seen) < nrows {
		p.seen = make([]uint32, nrows)
		p.stamp = 0
	}
	p.stamp++
	if p.stamp == 0 {
		clear(p.seen)
		p.stamp = 1
	}
	start := len(cands)
	for s := range p.sets {
		ks := &p.sets[s]
		var null bool
		if p.key, null = appendJoinKey(p.key[:0], ks.lbufs, i); null {
			continue
		}
		m := ks.ht.Probe(p.key)
		for r, ok := m.Next(); ok; r, ok = m.Next() {
			if row := r.Int64(0); p.seen[row] != p.stamp {
				p.seen[row] = p.stamp
				cands = append(cands, int32(row))
			}
		}
	}
	slices.Sort(cands[start:])
	return cands
}

// release frees the hash tables.
func (p *orProbe) release() {
	for i := range p.sets {
		if ht := p.sets[i].ht; ht != nil {
			ht.Release()
			p.sets[i].ht = nil
		}
	}
}

// appendJoinKey encodes the join key of physical row i of the key
// columns bufs; null reports a NULL key value, which matches nothing.
func appendJoinKey(dst []byte, bufs [][]types.Value, i int) ([]byte, bool) {
	for _, buf := range bufs {
		v := buf[i]
		if v.IsNull() {
			return dst, true
		}
		dst = appendKey(dst, v, "", false, true)
	}
	return dst, false
}
