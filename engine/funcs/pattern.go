package funcs

// Pattern is a compiled LIKE or GLOB pattern. Compiling reads SQLite's
// syntax exactly as its patternCompare does (which character is a
// wildcard, an escape or a set, in which order they are recognised);
// matching is the greedy two-pointer algorithm over elements that each
// match one character or, for '%' / '*', any run: on a mismatch it
// resumes after the last run wildcard, one character further. That is
// O(len(pattern) × len(s)) at worst, with no recursion, where SQLite's
// recursive matcher can take time polynomial in the number of wildcards;
// Match polls a check function on long inputs so a deadline interrupts
// it.
type Pattern struct {
	elems  []patElem
	sets   []patSet
	noCase bool
	never  bool // an unterminated set or a trailing ESCAPE: nothing matches
}

// patElem is one element: kind, the literal character, or the index of
// its set.
type patElem struct {
	kind uint8
	c    rune
}

const (
	elemLit uint8 = iota // c, ASCII case-folded for LIKE
	elemOne              // any one character
	elemAll              // any run of characters
	elemSet              // sets[c]
)

// patSet is a GLOB [...] set: ranges (lo, hi), single characters as
// (c, c).
type patSet struct {
	ranges [][2]rune
	invert bool
}

// MaxPatternLength is the longest LIKE or GLOB pattern accepted, in bytes
// (SQLITE_MAX_LIKE_PATTERN_LENGTH).
const MaxPatternLength = 50000

// ErrPatternTooComplex is returned for a pattern over MaxPatternLength.
var ErrPatternTooComplex = errf("LIKE or GLOB pattern too complex")

// checkPattern fails with ErrPatternTooComplex when pattern passes the
// Context's lowered MaxPattern (compilePattern checks the default).
func (c *Context) checkPattern(pattern string) error {
	if c != nil && c.MaxPattern > 0 && len(pattern) > c.MaxPattern {
		return ErrPatternTooComplex
	}
	return nil
}

// CompileLike compiles a LIKE pattern: % any run, _ one character, esc
// (0 for none) quoting the next character; ASCII letters fold case.
func CompileLike(pattern string, esc rune) (*Pattern, error) {
	return compilePattern(pattern, matchInfo{all: '%', one: '_', other: esc, noCase: true})
}

// CompileGlob compiles a GLOB pattern: * any run, ? one character,
// [...] a set (^ inverts, a-z ranges); case-sensitive.
func CompileGlob(pattern string) (*Pattern, error) {
	return compilePattern(pattern, matchInfo{all: '*', one: '?', other: '[', sets: true})
}

func compilePattern(pattern string, m matchInfo) (*Pattern, error) {
	if len(pattern) > MaxPatternLength {
		return nil, ErrPatternTooComplex
	}
	pat := cString(pattern)
	p := &Pattern{noCase: m.noCase}
	inRun := false // within a run of wildcards that began with m.all
	for pi := 0; ; {
		c := read(pat, &pi)
		wasRun := inRun
		inRun = false
		switch {
		case c == 0:
			return p, nil
		case c == m.all:
			inRun = true
			if n := len(p.elems); n == 0 || p.elems[n-1].kind != elemAll {
				p.elems = append(p.elems, patElem{kind: elemAll})
			}
		case c == m.one && wasRun:
			// SQLite reads the wildcards after a run wildcard before it
			// looks for an escape, so here m.one is a wildcard even when
			// it is also the ESCAPE character.
			inRun = true
			p.elems = append(p.elems, patElem{kind: elemOne})
		case c == m.other && m.other != 0 && m.sets:
			set, next, ok := compileSet(pat, pi)
			if !ok {
				p.never = true
				return p, nil
			}
			p.elems = append(p.elems, patElem{kind: elemSet, c: rune(len(p.sets))})
			p.sets = append(p.sets, set)
			pi = next
		case c == m.other && m.other != 0:
			if c = read(pat, &pi); c == 0 {
				p.never = true
				return p, nil
			}
			p.elems = append(p.elems, patElem{kind: elemLit, c: c})
		case c == m.one:
			p.elems = append(p.elems, patElem{kind: elemOne})
		default:
			p.elems = append(p.elems, patElem{kind: elemLit, c: c})
		}
	}
}

// compileSet reads the set after '[' at pat[pi], as SQLite's matchSet:
// a leading ^ inverts, a leading ] is a member, x-y is a range when x is
// a plain member before it and y is not the closing ]. It reports false
// for a set without its closing ].
func compileSet(pat string, pi int) (patSet, int, bool) {
	var s patSet
	var prior rune
	c2 := read(pat, &pi)
	if c2 == '^' {
		s.invert = true
		c2 = read(pat, &pi)
	}
	if c2 == ']' {
		s.ranges = append(s.ranges, [2]rune{']', ']'})
		c2 = read(pat, &pi)
	}
	for c2 != 0 && c2 != ']' {
		if c2 == '-' && pi < len(pat) && pat[pi] != ']' && prior > 0 {
			c2 = read(pat, &pi)
			s.ranges = append(s.ranges, [2]rune{prior, c2})
			prior = 0
		} else {
			s.ranges = append(s.ranges, [2]rune{c2, c2})
			prior = c2
		}
		c2 = read(pat, &pi)
	}
	return s, pi, c2 != 0
}

func (s *patSet) has(c rune) bool {
	for _, r := range s.ranges {
		if c >= r[0] && c <= r[1] {
			return true
		}
	}
	return false
}

// one reports whether element e matches the character c (never 0).
func (p *Pattern) one(e patElem, c rune) bool {
	switch e.kind {
	case elemOne:
		return true
	case elemSet:
		return p.sets[e.c].has(c) != p.sets[e.c].invert
	}
	return e.c == c || p.noCase && foldEq(e.c, c)
}

// matchCheckEvery is how many matching steps pass between polls of the
// check function.
const matchCheckEvery = 1 << 14

// Match reports whether s matches. check, when not nil, is called every
// matchCheckEvery steps; its error stops the match.
func (p *Pattern) Match(s string, check func() error) (bool, error) {
	if p.never {
		return false, nil
	}
	s = cString(s)
	el := p.elems
	pi, si := 0, 0
	star, starS := -1, 0 // the last run wildcard and where its run ends
	for steps := 1; ; steps++ {
		if check != nil && steps%matchCheckEvery == 0 {
			if err := check(); err != nil {
				return false, err
			}
		}
		if si >= len(s) {
			break
		}
		if pi < len(el) && el[pi].kind == elemAll {
			star, starS = pi, si
			pi++
			continue
		}
		next := si
		c := read(s, &next)
		if pi < len(el) && p.one(el[pi], c) {
			pi, si = pi+1, next
			continue
		}
		if star < 0 {
			return false, nil
		}
		// The run of the last wildcard takes one more character.
		starS = nextChar(s, starS)
		pi, si = star+1, starS
	}
	for pi < len(el) && el[pi].kind == elemAll {
		pi++
	}
	return pi == len(el), nil
}
