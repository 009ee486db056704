package funcs

import (
	"github.com/ladybugsql/ladybug/engine/types"
)

// Pattern matching as SQLite's patternCompare: LIKE ('%', '_', optional
// ESCAPE, ASCII case folding), GLOB ('*', '?', '[...]', case-sensitive),
// and REGEXP over Go's regexp (SQLite ships none; this is the common
// extension's behaviour: a partial match). Strings end at a NUL, as in C.
//
// The function forms take the pattern first: "X LIKE Y ESCAPE E" is
// like(Y, X, E), "X GLOB Y" glob(Y, X), "X REGEXP Y" regexp(Y, X). ILIKE
// is LIKE (already case-insensitive). BLOBs are matched as text, as
// SQLite's documentation describes (modernc's build, the oracle, defines
// SQLITE_LIKE_DOESNT_MATCH_BLOBS and never matches them).

var matchFuncs = []*Func{
	scalar("like", 2, 3, fnLike),
	scalar("ilike", 2, 3, fnLike),
	scalar("glob", 2, 2, fnGlob),
	scalar("regexp", 2, 2, fnRegexp),
}

// maxPatternLength is SQLITE_MAX_LIKE_PATTERN_LENGTH.
const maxPatternLength = 50000

const (
	matchYes = iota
	matchNo
	matchNoWildcard // no match and no later '%' can help
)

type matchInfo struct {
	all, one, other rune // other: ESCAPE for LIKE, '[' for GLOB, 0 none
	noCase, sets    bool
}

// Like reports whether s matches LIKE pattern; esc is the ESCAPE character
// or 0 for none.
func Like(pattern, s string, esc rune) bool {
	return patternCompare(cString(pattern), cString(s), matchInfo{all: '%', one: '_', other: esc, noCase: true}) == matchYes
}

// Glob reports whether s matches GLOB pattern.
func Glob(pattern, s string) bool {
	return patternCompare(cString(pattern), cString(s), matchInfo{all: '*', one: '?', other: '[', sets: true}) == matchYes
}

func cString(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return s[:i]
		}
	}
	return s
}

func fnLike(_ *Context, a []types.Value) (types.Value, error) {
	var esc rune
	if len(a) == 3 {
		if a[2].IsNull() {
			return types.Null, nil
		}
		e := cString(textOf(a[2]))
		if e == "" || nextChar(e, 0) != len(e) {
			return types.Null, errf("ESCAPE expression must be a single character")
		}
		esc, _ = decodeChar(e, 0)
	}
	if a[0].IsNull() || a[1].IsNull() {
		return types.Null, nil
	}
	pat := textOf(a[0])
	if len(pat) > maxPatternLength {
		return types.Null, errf("LIKE or GLOB pattern too complex")
	}
	return types.NewBool(Like(pat, textOf(a[1]), esc)), nil
}

func fnGlob(_ *Context, a []types.Value) (types.Value, error) {
	if anyNull(a) {
		return types.Null, nil
	}
	pat := textOf(a[0])
	if len(pat) > maxPatternLength {
		return types.Null, errf("LIKE or GLOB pattern too complex")
	}
	return types.NewBool(Glob(pat, textOf(a[1]))), nil
}

func fnRegexp(c *Context, a []types.Value) (types.Value, error) {
	if anyNull(a) {
		return types.Null, nil
	}
	re, err := c.regexp(textOf(a[0]))
	if err != nil {
		return types.Null, err
	}
	return types.NewBool(re.MatchString(textOf(a[1]))), nil
}

// read returns the character at s[*i] (0 at the end) and advances.
func read(s string, i *int) rune {
	if *i >= len(s) {
		return 0
	}
	r, j := decodeChar(s, *i)
	*i = j
	return r
}

func foldEq(c, c2 rune) bool {
	return c < 0x80 && c2 < 0x80 && lowerRune(c) == lowerRune(c2)
}

func lowerRune(c rune) rune {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// patternCompare is SQLite's algorithm, returning matchYes, matchNo or
// matchNoWildcard.
func patternCompare(pat, s string, m matchInfo) int {
	pi, si := 0, 0
	escaped := -1
	for {
		c := read(pat, &pi)
		if c == 0 {
			break
		}
		if c == m.all {
			return matchStar(pat, pi, s, si, m)
		}
		if c == m.other && m.other != 0 {
			if !m.sets {
				c = read(pat, &pi)
				if c == 0 {
					return matchNo
				}
				escaped = pi
			} else {
				ok, np, ns := matchSet(pat, pi, s, si)
				if !ok {
					return matchNo
				}
				pi, si = np, ns
				continue
			}
		}
		c2 := read(s, &si)
		if c == c2 || (m.noCase && foldEq(c, c2)) {
			continue
		}
		if c == m.one && pi != escaped && c2 != 0 {
			continue
		}
		return matchNo
	}
	if si >= len(s) {
		return matchYes
	}
	return matchNo
}

// matchStar continues after a '%' / '*' at pat[pi-1].
func matchStar(pat string, pi int, s string, si int, m matchInfo) int {
	var c rune
	for {
		c = read(pat, &pi)
		if c != m.all && c != m.one {
			break
		}
		if c == m.one && read(s, &si) == 0 {
			return matchNoWildcard
		}
	}
	if c == 0 {
		return matchYes
	}
	if c == m.other && m.other != 0 {
		if m.sets {
			for start := pi - 1; si < len(s); si = nextChar(s, si) {
				if r := patternCompare(pat[start:], s[si:], m); r != matchNo {
					return r
				}
			}
			return matchNoWildcard
		}
		if c = read(pat, &pi); c == 0 {
			return matchNoWildcard
		}
	}
	for si < len(s) {
		c2 := read(s, &si)
		if c2 != c && !(m.noCase && foldEq(c, c2)) {
			continue
		}
		if r := patternCompare(pat[pi:], s[si:], m); r != matchNo {
			return r
		}
	}
	return matchNoWildcard
}

// matchSet matches one character of s against the GLOB set starting after
// '[' at pat[pi]; it returns the positions after the set and the char.
func matchSet(pat string, pi int, s string, si int) (bool, int, int) {
	c := read(s, &si)
	if c == 0 {
		return false, pi, si
	}
	seen, invert := false, false
	var prior rune
	c2 := read(pat, &pi)
	if c2 == '^' {
		invert = true
		c2 = read(pat, &pi)
	}
	if c2 == ']' {
		seen = c == ']'
		c2 = read(pat, &pi)
	}
	for c2 != 0 && c2 != ']' {
		if c2 == '-' && pi < len(pat) && pat[pi] != ']' && prior > 0 {
			c2 = read(pat, &pi)
			if c >= prior && c <= c2 {
				seen = true
			}
			prior = 0
		} else {
			if c == c2 {
				seen = true
			}
			prior = c2
		}
		c2 = read(pat, &pi)
	}
	if c2 == 0 || seen == invert {
		return false, pi, si
	}
	return true, pi, si
}
