package exec

import (
	"time"

	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// funcEnv adapts Ctx to funcs.Env.
type funcEnv struct{ c *Ctx }

func (e funcEnv) Changes() int64 {
	if e.c.Sess == nil {
		return 0
	}
	return e.c.Sess.Changes()
}

func (e funcEnv) TotalChanges() int64 {
	if e.c.Sess == nil {
		return 0
	}
	return e.c.Sess.TotalChanges()
}

func (e funcEnv) LastInsertRowid() int64 {
	if e.c.Sess == nil {
		return 0
	}
	return e.c.Sess.LastInsertRowid()
}

func (e funcEnv) Now() time.Time { return e.c.Time() }

// Check lets long-running functions (like(), glob()) poll the statement's
// context.
func (e funcEnv) Check() error { return e.c.CheckNow() }

// Fits lets functions check a large result against the statement's
// memory limit before they build it.
func (e funcEnv) Fits(n int64) error { return e.c.fits(n) }

// funcCall compiles a scalar function call: arguments are evaluated over
// the batch, then the function runs once per live row.
func (cp *compiler) funcCall(e *plan.Func) (evaluator, error) {
	f, err := funcs.Resolve(e.Name, len(e.Args))
	if err != nil {
		return nil, err
	}
	if f.Kind != funcs.KindScalar {
		return nil, notSupportedErr("function " + e.Name + " in this position")
	}
	if ev, ok, err := cp.lazyFunc(e); ok {
		return ev, err
	}
	fm := newCallMem(len(e.Args))
	args, consts, bufs, row, fc := fm.args, fm.consts, fm.bufs, fm.row, &fm.fc
	for i, a := range e.Args {
		// A constant argument is read as it is, with no evaluator.
		if k, ok := a.(*plan.Const); ok {
			consts[i] = k.V
			continue
		}
		if args[i], err = cp.compile(a); err != nil {
			return nil, err
		}
	}
	fn := f.Scalar
	st := cp.stack()
	return func(c *Ctx, b *Batch, out []types.Value) error {
		// A compiled program is reused across executions: point the
		// function context at this one's session.
		fc.Env, fc.MaxLen, fc.MaxPattern = funcEnv{c}, int64(c.LengthLimit), int(c.LikeLimit)
		m := st.mark()
		defer st.release(m)
		for i, a := range args {
			if a == nil {
				continue
			}
			bufs[i] = st.values(b)
			if err := a(c, b, bufs[i]); err != nil {
				return err
			}
		}
		for k, n := 0, b.Len(); k < n; k++ {
			// A function can be slow per row (printf of a megabyte): poll
			// within the batch, not only between batches.
			if err := c.Check(); err != nil {
				return err
			}
			i := b.Phys(k)
			for j := range row {
				if args[j] == nil {
					row[j] = consts[j]
				} else {
					row[j] = bufs[j][i]
				}
			}
			v, err := fn(fc, row)
			if err != nil {
				return err
			}
			out[i] = v
		}
		return nil
	}, nil
}

// callMem is a function call's context and argument slices: the
// evaluators (nil for a constant argument), the constants, each evaluated
// argument's values (lent by the stack per batch) and the row passed to
// the function. For a few arguments they are one allocation.
type callMem struct {
	fc           funcs.Context
	args         []evaluator
	consts, row  []types.Value
	bufs         [][]types.Value
	argv         [callSmallArgs]evaluator
	constv, rowv [callSmallArgs]types.Value
	bufv         [callSmallArgs][]types.Value
}

// callSmallArgs is the most arguments a callMem holds inline.
const callSmallArgs = 2

func newCallMem(n int) *callMem {
	m := &callMem{}
	if n <= callSmallArgs {
		m.args, m.consts, m.row, m.bufs = m.argv[:n:n], m.constv[:n:n], m.rowv[:n:n], m.bufv[:n:n]
	} else {
		m.args, m.consts, m.row, m.bufs = make([]evaluator, n), make([]types.Value, n), make([]types.Value, n), make([][]types.Value, n)
	}
	return m
}
