package exec

import (
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// lazyFunc compiles the functions SQLite codes inline, evaluating an
// argument only for the rows that need it: iif (as the CASE it equals)
// and coalesce/ifnull (each argument only where the ones before it are
// NULL). An error an unneeded argument would raise, such as json_array of
// a BLOB, does not happen. ok is false for other functions.
func (cp *compiler) lazyFunc(e *plan.Func) (ev evaluator, ok bool, err error) {
	switch e.Name {
	case "iif":
		c := &plan.Case{}
		for i := 0; i+1 < len(e.Args); i += 2 {
			c.Whens = append(c.Whens, plan.When{Cond: e.Args[i], Then: e.Args[i+1]})
		}
		if len(e.Args)%2 == 1 {
			c.Else = e.Args[len(e.Args)-1]
		}
		ev, err = cp.caseExpr(c)
		return ev, true, err
	case "coalesce", "ifnull":
		ev, err = cp.coalesce(e.Args)
		return ev, true, err
	}
	return nil, false, nil
}

// coalesce evaluates each argument into out over the rows still NULL.
func (cp *compiler) coalesce(args []plan.Expr) (evaluator, error) {
	evs := make([]evaluator, len(args))
	for i, a := range args {
		var err error
		if evs[i], err = cp.compile(a); err != nil {
			return nil, err
		}
	}
	st := cp.stack()
	return func(c *Ctx, b *Batch, out []types.Value) error {
		m := st.mark()
		defer st.release(m)
		remain, rest := liveRows(b, st.rows(b)), st.rows(b)
		view := Batch{Cols: b.Cols, N: b.N}
		for _, ev := range evs {
			if len(remain) == 0 {
				return nil
			}
			view.Sel = remain
			if err := ev(c, &view, out); err != nil {
				return err
			}
			rest = rest[:0]
			for _, i := range remain {
				if out[i].IsNull() {
					rest = append(rest, i)
				}
			}
			remain, rest = rest, remain
		}
		return nil
	}, nil
}
