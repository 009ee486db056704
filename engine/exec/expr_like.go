package exec

import (
	"regexp"
	"unicode/utf8"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

func (cp *compiler) like(e *plan.Like) (evaluator, error) {
	x, err := cp.compile(e.X)
	if err != nil {
		return nil, err
	}
	// The evaluator's state is one allocation (a variable the closure
	// assigns would be one each): the caches, and a constant pattern or
	// escape (the usual case), read as it is with no evaluator.
	ls := &struct {
		re       map[string]*regexp.Regexp
		pc       patternCache
		pat, esc operand
	}{}
	if ls.pat, err = cp.operand(e.Pat); err != nil {
		return nil, err
	}
	if e.Escape != nil {
		if ls.esc, err = cp.operand(e.Escape); err != nil {
			return nil, err
		}
	}
	pc := &ls.pc
	op, not := e.Op, e.Not
	st := cp.stack()
	return func(c *Ctx, b *Batch, out []types.Value) error {
		m := st.mark()
		defer st.release(m)
		// x's values go to out, each replaced by its row's result.
		xb := out
		if err := x(c, b, xb); err != nil {
			return err
		}
		if err := ls.pat.eval(c, b, st); err != nil {
			return err
		}
		if err := ls.esc.eval(c, b, st); err != nil {
			return err
		}
		var ferr error
		b.ForEach(func(i int) {
			if ferr != nil {
				return
			}
			pv := ls.pat.at(i)
			if xb[i].IsNull() || pv.IsNull() {
				out[i] = types.Null
				return
			}
			s, p := toText(xb[i]), toText(pv)
			var m bool
			switch op {
			case "GLOB":
				m, ferr = pc.match(c, p, s, -1)
			case "REGEXP":
				if ls.re == nil {
					ls.re = map[string]*regexp.Regexp{}
				}
				re, ok := ls.re[p]
				if !ok {
					if re, ferr = regexp.Compile(p); ferr != nil {
						ferr = errs.New(errs.CodeGeneric, "invalid regular expression: %v", ferr)
						return
					}
					ls.re[p] = re
				}
				m = re.MatchString(s)
			default:
				escR := rune(0)
				if ev := ls.esc.at(i); !ev.IsNull() {
					es := toText(ev)
					r, n := utf8.DecodeRuneInString(es)
					if n != len(es) || n == 0 {
						ferr = errs.New(errs.CodeGeneric, "ESCAPE expression must be a single character")
						return
					}
					escR = r
				}
				m, ferr = pc.match(c, p, s, escR)
			}
			out[i] = types.NewBool(m != not)
		})
		return ferr
	}, nil
}

// operand is an expression's values over a batch: a constant's one value,
// or an evaluator's, computed into a buffer borrowed per batch. The zero
// operand is the constant NULL.
type operand struct {
	k   types.Value
	ev  evaluator // nil for a constant
	buf []types.Value
}

// operand compiles e as an operand, with no evaluator for a constant.
func (cp *compiler) operand(e plan.Expr) (operand, error) {
	if k, ok := e.(*plan.Const); ok {
		return operand{k: k.V}, nil
	}
	ev, err := cp.compile(e)
	return operand{ev: ev}, err
}

// eval computes the operand's values over b into a buffer borrowed from
// st, which the caller gives back.
func (o *operand) eval(c *Ctx, b *Batch, st *scratchStack) error {
	if o.ev == nil {
		return nil
	}
	o.buf = st.values(b)
	return o.ev(c, b, o.buf)
}

// at is the operand's value at physical row i, after eval.
func (o *operand) at(i int) types.Value {
	if o.ev == nil {
		return o.k
	}
	return o.buf[i]
}

// patternCache keeps the last compiled LIKE or GLOB pattern of an
// evaluator: the pattern is almost always a constant.
type patternCache struct {
	text string
	esc  rune // -1 for GLOB
	p    *funcs.Pattern
}

// match matches s against pattern p (a GLOB one when esc is -1), polling
// the statement's context while a long match runs.
func (pc *patternCache) match(c *Ctx, p, s string, esc rune) (bool, error) {
	if c.LikeLimit > 0 && len(p) > int(c.LikeLimit) {
		return false, funcs.ErrPatternTooComplex
	}
	if pc.p == nil || pc.text != p || pc.esc != esc {
		var err error
		if esc < 0 {
			pc.p, err = funcs.CompileGlob(p)
		} else {
			pc.p, err = funcs.CompileLike(p, esc)
		}
		if err != nil {
			pc.p = nil
			return false, err
		}
		pc.text, pc.esc = p, esc
	}
	return pc.p.Match(s, c.CheckNow)
}
