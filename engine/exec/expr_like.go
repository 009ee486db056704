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
	pat, err := cp.compile(e.Pat)
	if err != nil {
		return nil, err
	}
	esc := constEval(types.Null)
	if e.Escape != nil {
		if esc, err = cp.compile(e.Escape); err != nil {
			return nil, err
		}
	}
	op, not := e.Op, e.Not
	// The caches are one allocation (a variable the closure assigns
	// would be one each).
	caches := &struct {
		re map[string]*regexp.Regexp
		pc patternCache
	}{}
	pc := &caches.pc
	st := cp.stack()
	return func(c *Ctx, b *Batch, out []types.Value) error {
		m := st.mark()
		defer st.release(m)
		xb, pb, eb := st.values(b), st.values(b), st.values(b)
		for _, p := range [...]struct {
			f   evaluator
			buf []types.Value
		}{{x, xb}, {pat, pb}, {esc, eb}} {
			if err := p.f(c, b, p.buf); err != nil {
				return err
			}
		}
		var ferr error
		b.ForEach(func(i int) {
			if ferr != nil {
				return
			}
			if xb[i].IsNull() || pb[i].IsNull() {
				out[i] = types.Null
				return
			}
			s, p := toText(xb[i]), toText(pb[i])
			var m bool
			switch op {
			case "GLOB":
				m, ferr = pc.match(c, p, s, -1)
			case "REGEXP":
				if caches.re == nil {
					caches.re = map[string]*regexp.Regexp{}
				}
				re, ok := caches.re[p]
				if !ok {
					if re, ferr = regexp.Compile(p); ferr != nil {
						ferr = errs.New(errs.CodeGeneric, "invalid regular expression: %v", ferr)
						return
					}
					caches.re[p] = re
				}
				m = re.MatchString(s)
			default:
				escR := rune(0)
				if !eb[i].IsNull() {
					es := toText(eb[i])
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
