package exec

import (
	"time"

	"github.com/ladybugsql/ladybug/engine/plan"
)

// OpStats is what one operator did during a profiled run: the rows and
// batches it returned and the time spent in its Next calls, its inputs'
// time included.
type OpStats struct {
	Rows    int64
	Batches int64
	Time    time.Duration
}

// Profile maps each plan node of a profiled operator tree to its stats.
type Profile map[plan.Node]*OpStats

// BuildProfiled is Build with every operator wrapped to count its output
// rows and time its Next calls (EXPLAIN ANALYZE). The wrapping costs two
// clock reads per batch, so ordinary queries use Build.
func BuildProfiled(n plan.Node) (Operator, Profile, error) {
	b := newBuilder()
	b.profile = Profile{}
	op, err := b.build(n)
	return op, b.profile, err
}

// buildProfiled builds n's operator (its inputs profiled in turn through
// build) and wraps it.
func (b *builder) buildProfiled(n plan.Node) (Operator, error) {
	b.bare = true
	op, err := b.build(n)
	if err != nil {
		return nil, err
	}
	st := &OpStats{}
	b.profile[n] = st
	return &profiledOp{in: op, st: st}, nil
}

// profiledOp counts what its operator returns.
type profiledOp struct {
	in Operator
	st *OpStats
}

func (p *profiledOp) Next(c *Ctx) (*Batch, error) {
	start := time.Now()
	bt, err := p.in.Next(c)
	p.st.Time += time.Since(start)
	if bt != nil {
		p.st.Batches++
		p.st.Rows += int64(bt.Len())
	}
	return bt, err
}

func (p *profiledOp) Close() { p.in.Close() }
