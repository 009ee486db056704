package shell

import "strings"

// piece is one complete SQL statement cut from the input, with the byte
// offset of its first character in the text it was cut from.
type piece struct {
	sql string
	off int
}

// splitSQL cuts the complete statements off the front of text: each ends
// at a ';' outside quotes, comments and the BEGIN … END body of a CREATE
// TRIGGER (where a CASE … END nests). rest is what follows the last
// complete statement: blank, or the start of an unfinished one.
func splitSQL(text string) (stmts []piece, rest string, restOff int) {
	var sc stmtScanner
	start := 0
	for i := 0; i < len(text); {
		n, end := sc.step(text, i)
		i += n
		if end {
			if s := text[start:i]; !blankSQL(s) {
				stmts = append(stmts, piece{sql: s, off: start})
			}
			start = i
			sc = stmtScanner{}
		}
	}
	return stmts, text[start:], start
}

// stmtScanner is the state of one statement being scanned.
type stmtScanner struct {
	words    int  // words seen so far (only the first three matter)
	create   bool // the statement starts with CREATE
	trigger  bool // ... [TEMP] TRIGGER
	begun    bool // the trigger's BEGIN has been seen
	depth    int  // open BEGIN/CASE blocks of a trigger
	lastWord string
}

// step scans the token at text[i:] and reports its length and whether it
// is the ';' ending the statement. An unterminated quote or comment runs
// to the end of text.
func (sc *stmtScanner) step(text string, i int) (n int, end bool) {
	c := text[i]
	switch {
	case c == '\'' || c == '"' || c == '`':
		return quotedLen(text[i:], c), false
	case c == '[':
		if j := strings.IndexByte(text[i:], ']'); j >= 0 {
			return j + 1, false
		}
		return len(text) - i, false
	case c == '-' && strings.HasPrefix(text[i:], "--"):
		if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
			return j + 1, false
		}
		return len(text) - i, false
	case c == '/' && strings.HasPrefix(text[i:], "/*"):
		if j := strings.Index(text[i+2:], "*/"); j >= 0 {
			return j + 4, false
		}
		return len(text) - i, false
	case c == ';':
		return 1, sc.semicolonEnds()
	case isWordStart(c):
		j := i + 1
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		sc.word(strings.ToUpper(text[i:j]))
		return j - i, false
	}
	return 1, false
}

func (sc *stmtScanner) semicolonEnds() bool {
	if !sc.trigger || !sc.begun {
		return true
	}
	return sc.depth <= 0 && sc.lastWord == "END"
}

func (sc *stmtScanner) word(w string) {
	sc.words++
	sc.lastWord = w
	switch sc.words {
	case 1:
		sc.create = w == "CREATE"
		return
	case 2, 3:
		if sc.create && !sc.trigger {
			if w == "TRIGGER" {
				sc.trigger = true
				return
			}
			if w != "TEMP" && w != "TEMPORARY" {
				sc.create = false
			}
		}
	}
	if !sc.trigger {
		return
	}
	switch w {
	case "BEGIN":
		sc.begun = true
		sc.depth++
	case "CASE":
		sc.depth++
	case "END":
		sc.depth--
	}
}

// quotedLen is the length of the quoted token at the start of s, a doubled
// quote standing for one.
func quotedLen(s string, q byte) int {
	for j := 1; j < len(s); j++ {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(s)
}

func isWordStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isWordByte(c byte) bool { return isWordStart(c) || c >= '0' && c <= '9' || c == '$' }

// blankSQL reports whether s holds nothing but blanks, comments and ';'.
func blankSQL(s string) bool {
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == ';':
			i++
		case strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return true
			}
			i += j + 1
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return false // an unfinished comment continues on the next line
			}
			i += j + 4
		default:
			return false
		}
	}
	return true
}
