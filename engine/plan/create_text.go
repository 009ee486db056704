package plan

import (
	"strings"

	"github.com/ladybugsql/ladybug/grammar"
)

// storedCreateText is the text sqlite_master keeps for a CREATE statement
// of the given kind ("TABLE", "INDEX", "VIEW", "TRIGGER"), as SQLite
// stores it: "CREATE [UNIQUE] kind " and then the statement from the
// object's name on, so TEMP, IF NOT EXISTS, a schema prefix and the
// keywords' case and spacing are not kept. A text whose name it cannot
// find is kept whole.
func storedCreateText(text, kind string, unique bool) string {
	toks := grammar.Tokens(text)
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == grammar.TokenWord && strings.EqualFold(text[toks[i].Start:toks[i].End], w)
	}
	i := 0
	if !word(i, "CREATE") {
		return text
	}
	i++
	for word(i, "TEMP") || word(i, "TEMPORARY") || word(i, "UNIQUE") {
		i++
	}
	if !word(i, kind) {
		return text
	}
	i++
	if word(i, "IF") && word(i+1, "NOT") && word(i+2, "EXISTS") {
		i += 3
	}
	if i+1 < len(toks) && text[toks[i+1].Start:toks[i+1].End] == "." {
		i += 2
	}
	if i >= len(toks) || toks[i].Kind == grammar.TokenOther {
		return text
	}
	prefix := "CREATE " + kind + " "
	if unique {
		prefix = "CREATE UNIQUE " + kind + " "
	}
	return prefix + text[toks[i].Start:]
}

// sourceTexts returns, for each CHECK constraint of s in the order
// TableFromAST lists them (column constraints, then table constraints),
// its expression as written in s's text, or "" where it cannot be found
// (SQLite names an unnamed CHECK by that text in its error message); and,
// per column, its DEFAULT as defaultText finds it.
func sourceTexts(s *grammar.CreateTableStmt) (checks, defaults []string) {
	text := s.Text()
	toks := grammar.Tokens(text)
	add := func(off int) { checks = append(checks, checkText(text, toks, off-s.Offset)) }
	defaults = make([]string, len(s.Columns))
	for i, cd := range s.Columns {
		for _, cc := range cd.Constraints {
			switch cc.Kind {
			case grammar.ConstraintCheck:
				add(cc.Offset)
			case grammar.ConstraintDefault:
				defaults[i] = defaultText(text, toks, cc.Offset-s.Offset)
			}
		}
	}
	for _, tc := range s.Constraints {
		if tc.Kind == grammar.ConstraintCheck {
			add(tc.Offset)
		}
	}
	return checks, defaults
}

// checkText returns the text between the parentheses of the first CHECK
// at or after byte off of text, trimmed, or "".
func checkText(text string, toks []grammar.Token, off int) string {
	i := wordAfter(text, toks, off, "CHECK")
	if i+1 >= len(toks) || text[toks[i+1].Start:toks[i+1].End] != "(" {
		return ""
	}
	return parenText(text, toks[i+1:])
}

// defaultText returns the DEFAULT expression of the column constraint at
// byte off of text as SQLite keeps it for PRAGMA table_info: the text
// inside the parentheses of DEFAULT (expr), or a signed number as
// written; "" for the other forms, whose printed form is the same.
func defaultText(text string, toks []grammar.Token, off int) string {
	i := wordAfter(text, toks, off, "DEFAULT")
	if i+1 >= len(toks) {
		return ""
	}
	switch text[toks[i+1].Start:toks[i+1].End] {
	case "(":
		return parenText(text, toks[i+1:])
	case "-", "+":
		if i+2 < len(toks) {
			return text[toks[i+1].Start:toks[i+2].End]
		}
	}
	return ""
}

// wordAfter returns the index of the first token at or after byte off of
// text that is the bare word w, or len(toks).
func wordAfter(text string, toks []grammar.Token, off int, w string) int {
	i := 0
	for i < len(toks) && toks[i].Start < off {
		i++
	}
	for ; i < len(toks); i++ {
		if toks[i].Kind == grammar.TokenWord && strings.EqualFold(text[toks[i].Start:toks[i].End], w) {
			break
		}
	}
	return i
}

// parenText returns the trimmed text inside the parentheses that toks[0]
// opens, or "".
func parenText(text string, toks []grammar.Token) string {
	depth := 0
	for _, t := range toks {
		switch text[t.Start:t.End] {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				return strings.TrimSpace(text[toks[0].End:t.Start])
			}
		}
	}
	return ""
}
