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

type matchInfo struct {
	all, one, other rune // other: ESCAPE for LIKE, '[' for GLOB, 0 none
	noCase, sets    bool
}

// Like reports whether s matches LIKE pattern; esc is the ESCAPE character
// or 0 for none. A pattern over MaxPatternLength is an error.
func Like(pattern, s string, esc rune) (bool, error) { return like(pattern, s, esc, nil) }

func like(pattern, s string, esc rune, check func() error) (bool, error) {
	p, err := CompileLike(pattern, esc)
	if err != nil {
		return false, err
	}
	return p.Match(s, check)
}

// Glob reports whether s matches GLOB pattern.
func Glob(pattern, s string) (bool, error) { return glob(pattern, s, nil) }

func glob(pattern, s string, check func() error) (bool, error) {
	p, err := CompileGlob(pattern)
	if err != nil {
		return false, err
	}
	return p.Match(s, check)
}

func cString(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return s[:i]
		}
	}
	return s
}

func fnLike(c *Context, a []types.Value) (types.Value, error) {
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
	if err := c.checkPattern(textOf(a[0])); err != nil {
		return types.Null, err
	}
	m, err := like(textOf(a[0]), textOf(a[1]), esc, c.check())
	if err != nil {
		return types.Null, err
	}
	return types.NewBool(m), nil
}

func fnGlob(c *Context, a []types.Value) (types.Value, error) {
	if anyNull(a) {
		return types.Null, nil
	}
	if err := c.checkPattern(textOf(a[0])); err != nil {
		return types.Null, err
	}
	m, err := glob(textOf(a[0]), textOf(a[1]), c.check())
	if err != nil {
		return types.Null, err
	}
	return types.NewBool(m), nil
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
