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
