package exec

import (
	"regexp"
	"unicode/utf8"

	"github.com/ladybugsql/ladybug/engine/errs"
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
	xb, pb, eb := scratch(), scratch(), scratch()
	op, not := e.Op, e.Not
	var reCache map[string]*regexp.Regexp
	return func(c *Ctx, b *Batch, out []types.Value) error {
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
				m = globMatch(p, s)
			case "REGEXP":
				if reCache == nil {
					reCache = map[string]*regexp.Regexp{}
				}
				re, ok := reCache[p]
				if !ok {
					if re, ferr = regexp.Compile(p); ferr != nil {
						ferr = errs.New(errs.CodeGeneric, "invalid regular expression: %v", ferr)
						return
					}
					reCache[p] = re
				}
				m = re.MatchString(s)
			default:
				escR := rune(-1)
				if !eb[i].IsNull() {
					es := toText(eb[i])
					r, n := utf8.DecodeRuneInString(es)
					if n != len(es) || n == 0 {
						ferr = errs.New(errs.CodeGeneric, "ESCAPE expression must be a single character")
						return
					}
					escR = r
				}
				m = likeMatch(p, s, escR)
			}
			out[i] = types.NewBool(m != not)
		})
		return ferr
	}, nil
}

// likeMatch is SQLite's LIKE: % any run, _ one character, ASCII letters
// match case-insensitively, esc (when >= 0) quotes the next character.
func likeMatch(pat, s string, esc rune) bool {
	for len(pat) > 0 {
		pr, pn := utf8.DecodeRuneInString(pat)
		switch {
		case pr == esc:
			pat = pat[pn:]
			if len(pat) == 0 {
				return false
			}
			pr, pn = utf8.DecodeRuneInString(pat)
			sr, sn := utf8.DecodeRuneInString(s)
			if len(s) == 0 || foldASCII(pr) != foldASCII(sr) {
				return false
			}
			pat, s = pat[pn:], s[sn:]
		case pr == '%':
			for len(pat) > 0 && (pat[0] == '%' || pat[0] == '_') {
				if pat[0] == '_' {
					if len(s) == 0 {
						return false
					}
					_, sn := utf8.DecodeRuneInString(s)
					s = s[sn:]
				}
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for {
				if likeMatch(pat, s, esc) {
					return true
				}
				if len(s) == 0 {
					return false
				}
				_, sn := utf8.DecodeRuneInString(s)
				s = s[sn:]
			}
		case pr == '_':
			if len(s) == 0 {
				return false
			}
			_, sn := utf8.DecodeRuneInString(s)
			pat, s = pat[pn:], s[sn:]
		default:
			sr, sn := utf8.DecodeRuneInString(s)
			if len(s) == 0 || foldASCII(pr) != foldASCII(sr) {
				return false
			}
			pat, s = pat[pn:], s[sn:]
		}
	}
	return len(s) == 0
}

func foldASCII(r rune) rune {
	if r >= 'A' && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// globMatch is SQLite's GLOB: * any run, ? one character, [...] a class
// (with ^ negation and ranges), case-sensitive.
func globMatch(pat, s string) bool {
	for len(pat) > 0 {
		pr, pn := utf8.DecodeRuneInString(pat)
		switch pr {
		case '*':
			for len(pat) > 0 && pat[0] == '*' {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for {
				if globMatch(pat, s) {
					return true
				}
				if len(s) == 0 {
					return false
				}
				_, sn := utf8.DecodeRuneInString(s)
				s = s[sn:]
			}
		case '?':
			if len(s) == 0 {
				return false
			}
			_, sn := utf8.DecodeRuneInString(s)
			pat, s = pat[pn:], s[sn:]
		case '[':
			if len(s) == 0 {
				return false
			}
			sr, sn := utf8.DecodeRuneInString(s)
			rest, ok := globClass(pat[1:], sr)
			if !ok {
				return false
			}
			pat, s = rest, s[sn:]
		default:
			sr, sn := utf8.DecodeRuneInString(s)
			if len(s) == 0 || pr != sr {
				return false
			}
			pat, s = pat[pn:], s[sn:]
		}
	}
	return len(s) == 0
}

// globClass matches r against the class starting after '['; it returns the
// pattern after ']' and whether r matched.
func globClass(p string, r rune) (string, bool) {
	neg := false
	if len(p) > 0 && p[0] == '^' {
		neg, p = true, p[1:]
	}
	matched, first := false, true
	for len(p) > 0 {
		c, n := utf8.DecodeRuneInString(p)
		if c == ']' && !first {
			return p[n:], matched != neg
		}
		first = false
		p = p[n:]
		if len(p) > 1 && p[0] == '-' && p[1] != ']' {
			hi, hn := utf8.DecodeRuneInString(p[1:])
			if r >= c && r <= hi {
				matched = true
			}
			p = p[1+hn:]
			continue
		}
		if c == r {
			matched = true
		}
	}
	return "", false
}
