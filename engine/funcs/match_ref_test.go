package funcs

// The reference for TestPattern_MatchesSQLitesAlgorithm: SQLite's own
// recursive patternCompare, ported line by line. It is exact but can take
// time polynomial in the number of wildcards, which is why the engine
// matches with Pattern instead.

const (
	matchYes = iota
	matchNo
	matchNoWildcard // no match and no later '%' can help
)

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
