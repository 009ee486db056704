package grammar

import (
	"io"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// baseLexer holds the token rules, tried in order at each position.
// Numbers are unsigned (a sign is a unary operator, so "a-1" is a
// subtraction); multi-character operators come before single ones.
var baseLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Whitespace", Pattern: `[ \t\r\n\f]+`},
	{Name: "Comment", Pattern: `--[^\n]*|/\*(?s:.*?)(?:\*/|$)`},
	{Name: "Blob", Pattern: `[xX]'[^']*'`},
	{Name: "String", Pattern: `'(?:[^']|'')*'`},
	{Name: "QIdent", Pattern: `"(?:[^"]|"")*"|` + "`(?:[^`]|``)*`" + `|\[[^\]]*\]`},
	{Name: "Number", Pattern: `0[xX][0-9a-fA-F]+|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?`},
	{Name: "Param", Pattern: `\?[0-9]*|[:@$][A-Za-z_0-9]+`},
	{Name: "Ident", Pattern: `[A-Za-z_\x{80}-\x{10FFFF}][A-Za-z0-9_$\x{80}-\x{10FFFF}]*`},
	{Name: "BinOp", Pattern: `\|\||->>|->|<<|>>|<=|>=|==|!=|<>|[-+*/%&|<>=]`},
	{Name: "Punct", Pattern: `::|[~(),.;]`},
})

// sqlLexer is the one lexer of the package: baseLexer with reserved words
// re-typed from Ident to Keyword (see reservedWords).
var sqlLexer = newKeywordLexer(baseLexer)

// keywordDefinition wraps a lexer definition and gives reserved words
// their own token type. Doing it after matching keeps the rules short and
// makes "SELECTX" an identifier, not a keyword followed by X.
type keywordDefinition struct {
	base       *lexer.StatefulDefinition
	symbols    map[string]lexer.TokenType
	ident      lexer.TokenType
	keyword    lexer.TokenType
	whitespace lexer.TokenType
	comment    lexer.TokenType
}

func newKeywordLexer(base *lexer.StatefulDefinition) *keywordDefinition {
	symbols := map[string]lexer.TokenType{}
	lowest := lexer.EOF
	for name, tt := range base.Symbols() {
		symbols[name] = tt
		if tt < lowest {
			lowest = tt
		}
	}
	d := &keywordDefinition{base: base, symbols: symbols, ident: symbols["Ident"], keyword: lowest - 1,
		whitespace: symbols["Whitespace"], comment: symbols["Comment"]}
	symbols["Keyword"] = d.keyword
	return d
}

// elided are the token types the parser skips.
func (d *keywordDefinition) elided() []lexer.TokenType {
	return []lexer.TokenType{d.whitespace, d.comment}
}

// Symbols returns the token types, Keyword included.
func (d *keywordDefinition) Symbols() map[string]lexer.TokenType { return d.symbols }

// Lex tokenises r.
func (d *keywordDefinition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	l, err := d.base.Lex(filename, r)
	if err != nil {
		return nil, err
	}
	return &keywordLexer{l: l, d: d}, nil
}

// LexString tokenises s.
func (d *keywordDefinition) LexString(filename string, s string) (lexer.Lexer, error) {
	l, err := d.base.LexString(filename, s)
	if err != nil {
		return nil, err
	}
	return &keywordLexer{l: l, d: d}, nil
}

type keywordLexer struct {
	l lexer.Lexer
	d *keywordDefinition
}

// Next returns the next token, re-typing reserved words.
func (k *keywordLexer) Next() (lexer.Token, error) {
	t, err := k.l.Next()
	if err == nil && t.Type == k.d.ident && len(t.Value) <= maxKeywordLen && reservedWords[strings.ToUpper(t.Value)] {
		t.Type = k.d.keyword
	}
	return t, err
}

// maxKeywordLen is the length of the longest reserved word
// (CURRENT_TIMESTAMP); longer identifiers skip the map lookup.
const maxKeywordLen = 17
