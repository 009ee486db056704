package exec

import "github.com/ladybugsql/ladybug/engine/types"

// joinProbe runs the right side of an index join once per left row: the
// right plan is a rowid or index lookup keyed by OuterRefs to the row's
// join key values, which probe pushes on Ctx.outer for the run. The rows
// found for one left batch are kept in the join's row table, row k's in
// [starts[k], starts[k+1]), so the pairing code is the hash join's.
type joinProbe struct {
	keyRow []types.Value // the current left row's key values
	starts []int32
	mem    held // the row table, charged to the memory limit
}

// run probes the right side for every live row of left batch lb.
func (p *joinProbe) run(c *Ctx, j *joinOp, lb *Batch) error {
	j.rows.Reset()
	p.starts = p.starts[:0]
	for k, n := 0, lb.Len(); k < n; k++ {
		p.starts = append(p.starts, int32(j.rows.Len()))
		if !p.loadKey(j, lb.Phys(k)) {
			continue // a NULL key matches nothing
		}
		c.outer = append(c.outer, p.keyRow)
		err := p.collect(c, j)
		c.outer = c.outer[:len(c.outer)-1]
		if err != nil {
			return err
		}
	}
	p.starts = append(p.starts, int32(j.rows.Len()))
	return p.mem.set(c, j.rows.SizeBytes())
}

// loadKey copies physical left row i's key values; false for a NULL key.
func (p *joinProbe) loadKey(j *joinOp, i int) bool {
	for x, buf := range j.lbufs {
		v := buf[i]
		if v.IsNull() {
			return false
		}
		p.keyRow[x] = v
	}
	return true
}

// collect runs the right side to its end, appending its rows to the row
// table, and closes it for the next probe. A semi or anti join without a
// residual needs one row only: any match decides.
func (p *joinProbe) collect(c *Ctx, j *joinOp) error {
	defer j.right.Close()
	one := j.kind.SemiLike() && j.on == nil
	for {
		b, err := j.right.Next(c)
		if err != nil || b == nil {
			return err
		}
		n := b.Len()
		if one && n > 0 {
			appendBatchRow(j.rows, b, b.Phys(0), j.nr)
			return nil
		}
		for k := 0; k < n; k++ {
			appendBatchRow(j.rows, b, b.Phys(k), j.nr)
		}
	}
}

// close gives back the accounted memory.
func (p *joinProbe) close() {
	p.mem.release()
	p.starts = p.starts[:0]
}
