package grammar

import (
	"io"
	"regexp"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// graphRegexLexer is regexLexer plus the graph rules of lexer_graph.go,
// stated again independently: inside GRAPH_TABLE ( … ), the characters
// [ ] { } and a "!" not followed by "=" are punctuation tokens.
var graphRegexLexer lexer.Definition = graphRegexDef{}

type graphRegexDef struct{}

func (graphRegexDef) Symbols() map[string]lexer.TokenType { return regexLexer.Symbols() }

func (graphRegexDef) Lex(_ string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return &graphRegexScanner{src: string(b), pos: lexer.Position{Line: 1, Column: 1}}, nil
}

type graphRegexScanner struct {
	src        string
	pos        lexer.Position
	lastGraph  bool // the last significant token was GRAPH_TABLE
	parenDepth int  // inside GRAPH_TABLE's parentheses when > 0
}

var graphPunct = regexp.MustCompile(`^(?:[\[\]{}]|!(?:[^=]|$))`)

func (s *graphRegexScanner) Next() (lexer.Token, error) {
	rest := s.src[s.pos.Offset:]
	var tok lexer.Token
	if s.parenDepth > 0 && graphPunct.MatchString(rest) {
		tok = lexer.Token{Type: regexLexer.Symbols()["Punct"], Value: rest[:1]}
	} else {
		l, err := regexLexer.Lex("", strings.NewReader(rest))
		if err != nil {
			return lexer.Token{}, err
		}
		if tok, err = l.Next(); err != nil {
			e := err.(*lexer.Error)
			return lexer.Token{}, &lexer.Error{Msg: e.Msg, Pos: s.pos}
		}
	}
	tok.Pos = s.pos
	if tok.EOF() {
		return tok, nil
	}
	s.pos.Advance(tok.Value)
	names := tokenNames(regexLexer)
	if n := names[tok.Type]; n != "Whitespace" && n != "Comment" {
		switch {
		case s.parenDepth > 0 && tok.Value == "(":
			s.parenDepth++
		case s.parenDepth > 0 && tok.Value == ")":
			s.parenDepth--
		case s.lastGraph && tok.Value == "(":
			s.parenDepth = 1
		}
		s.lastGraph = n == "Ident" && strings.EqualFold(tok.Value, "graph_table")
	}
	return tok, nil
}
