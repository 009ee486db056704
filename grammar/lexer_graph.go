package grammar

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// graphLexState is the lexer's one piece of context: inside the
// parentheses of GRAPH_TABLE ( … ), the characters of graph patterns
// are tokens of their own. There "[" and "]" delimit an edge pattern
// (not a [quoted] name), "{" and "}" a quantifier, and "!" (not
// followed by "=") negates a label. Everywhere else the lexer is
// unchanged, so bracket-quoted names keep working outside GRAPH_TABLE.
type graphLexState struct {
	armed bool // the last token was the word GRAPH_TABLE
	depth int  // open parentheses inside GRAPH_TABLE ( … ), 0 outside
}

// see updates the state with the token just read.
func (g *graphLexState) see(tt lexer.TokenType, v string) {
	if tt == tokWhitespace || tt == tokComment {
		return
	}
	switch {
	case g.depth > 0 && v == "(":
		g.depth++
	case g.depth > 0 && v == ")":
		g.depth--
	case g.armed && v == "(":
		g.depth = 1
	}
	g.armed = tt == tokIdent && len(v) == len("GRAPH_TABLE") && strings.EqualFold(v, "GRAPH_TABLE")
}

// graphToken re-reads the token at the start of s (n bytes of type tt
// by the ordinary rules) inside a GRAPH_TABLE.
func graphToken(s string, n int, tt lexer.TokenType) (int, lexer.TokenType) {
	switch s[0] {
	case '[', ']', '{', '}':
		return 1, tokPunct
	case '!':
		if len(s) == 1 || s[1] != '=' {
			return 1, tokPunct
		}
	}
	return n, tt
}
