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

// checkTexts returns, for each CHECK constraint of s in the order
// TableFromAST lists them (column constraints, then table constraints),
// its expression as written in s's text, or "" where it cannot be found.
// SQLite names an unnamed CHECK by that text in its error message.
func checkTexts(s *grammar.CreateTableStmt) []string {
	text := s.Text()
	toks := grammar.Tokens(text)
	var out []string
	add := func(off int) { out = append(out, checkText(text, toks, off-s.Offset)) }
	for _, cd := range s.Columns {
		for _, cc := range cd.Constraints {
			if cc.Kind == grammar.ConstraintCheck {
				add(cc.Offset)
			}
		}
	}
	for _, tc := range s.Constraints {
		if tc.Kind == grammar.ConstraintCheck {
			add(tc.Offset)
		}
	}
	return out
}

// checkText returns the text between the parentheses of the first CHECK
// at or after byte off of text, trimmed, or "".
func checkText(text string, toks []grammar.Token, off int) string {
	i := 0
	for i < len(toks) && toks[i].Start < off {
		i++
	}
	for ; i < len(toks); i++ {
		if toks[i].Kind == grammar.TokenWord && strings.EqualFold(text[toks[i].Start:toks[i].End], "CHECK") {
			break
		}
	}
	if i+1 >= len(toks) || text[toks[i+1].Start:toks[i+1].End] != "(" {
		return ""
	}
	open, depth := toks[i+1], 0
	for _, t := range toks[i+1:] {
		switch text[t.Start:t.End] {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				return strings.TrimSpace(text[open.End:t.Start])
			}
		}
	}
	return ""
}
