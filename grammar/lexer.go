package grammar

import (
	"io"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// The token types of the one lexer of the package. The names are the ones
// the grammar's tags use (Ident, QIdent, ...); the numbers only need to be
// distinct and negative, like participle's own.
const (
	tokWhitespace lexer.TokenType = -2 - iota
	tokComment
	tokBlob
	tokString
	tokQIdent
	tokNumber
	tokParam
	tokIdent
	tokBinOp
	tokPunct
	tokKeyword
)

// sqlLexer is the one lexer of the package. It is written by hand, one
// switch on the first byte, because a regular-expression lexer spent most
// of the parse time. Its token rules, in the order they are tried:
//
//	Whitespace  [ \t\r\n\f]+
//	Comment     --[^\n]*  |  /\*(?s:.*?)(?:\*/|$)
//	Blob        [xX]'[^']*'
//	String      '(?:[^']|'')*'
//	QIdent      "(?:[^"]|"")*"  |  `(?:[^`]|``)*`  |  \[[^\]]*\]
//	Number      0[xX][0-9a-fA-F]+ | (?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?
//	Param       \?[0-9]*  |  [:@$][A-Za-z_0-9]+
//	Ident       [A-Za-z_\x{80}-\x{10FFFF}][A-Za-z0-9_$\x{80}-\x{10FFFF}]*
//	BinOp       || ->> -> << >> <= >= == != <> and - + * / % & | < > =
//	Punct       :: and ~ ( ) , . ;
//
// Numbers are unsigned (a sign is a unary operator, so "a-1" is a
// subtraction). Reserved words are re-typed from Ident to Keyword after
// matching, which keeps "SELECTX" an identifier. A byte of 0x80 or more is
// a name character: every byte of a multi-byte rune is, and the regular
// expressions this lexer replaces read an invalid byte as U+FFFD, which is
// in the name range too.
var sqlLexer = &sqlDefinition{keyword: tokKeyword, symbols: map[string]lexer.TokenType{
	"EOF": lexer.EOF, "Whitespace": tokWhitespace, "Comment": tokComment, "Blob": tokBlob,
	"String": tokString, "QIdent": tokQIdent, "Number": tokNumber, "Param": tokParam,
	"Ident": tokIdent, "BinOp": tokBinOp, "Punct": tokPunct, "Keyword": tokKeyword,
}}

// sqlDefinition is the participle lexer definition of sqlLexer.
type sqlDefinition struct {
	symbols map[string]lexer.TokenType
	keyword lexer.TokenType
}

// elided are the token types the parser skips.
func (d *sqlDefinition) elided() []lexer.TokenType {
	return []lexer.TokenType{tokWhitespace, tokComment}
}

// Symbols returns the token types, Keyword included.
func (d *sqlDefinition) Symbols() map[string]lexer.TokenType { return d.symbols }

// Lex tokenises r.
func (d *sqlDefinition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexString(filename, string(b))
}

// LexString tokenises s.
func (d *sqlDefinition) LexString(filename string, s string) (lexer.Lexer, error) {
	return &sqlScanner{src: s, pos: lexer.Position{Filename: filename, Line: 1, Column: 1}}, nil
}

// sqlScanner reads tokens from src one at a time. Token values are
// slices of src, so scanning allocates nothing.
type sqlScanner struct {
	src   string
	pos   lexer.Position
	graph graphLexState
}

// Next returns the next token, EOF at the end, or a *lexer.Error at a
// character no rule matches.
func (s *sqlScanner) Next() (lexer.Token, error) {
	rest := s.src[s.pos.Offset:]
	if rest == "" {
		return lexer.EOFToken(s.pos), nil
	}
	n, tt := scanToken(rest)
	if s.graph.depth > 0 {
		n, tt = graphToken(rest, n, tt)
	}
	if n == 0 {
		return lexer.Token{}, &lexer.Error{Msg: "lexer: invalid input text", Pos: s.pos}
	}
	if tt == tokIdent && isReservedBytes(rest[:n]) {
		tt = tokKeyword
	}
	t := lexer.Token{Type: tt, Value: rest[:n], Pos: s.pos}
	s.graph.see(tt, t.Value)
	s.pos.Advance(rest[:n])
	return t, nil
}

// scanToken returns the length and type of the token at the start of s
// (non-empty), or length 0 when no rule matches.
func scanToken(s string) (int, lexer.TokenType) {
	c := s[0]
	switch {
	case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f':
		return spanOf(s, isSpace), tokWhitespace
	case c == '-' && len(s) > 1 && s[1] == '-':
		return lineComment(s), tokComment
	case c == '/' && len(s) > 1 && s[1] == '*':
		return blockComment(s), tokComment
	case (c == 'x' || c == 'X') && len(s) > 1 && s[1] == '\'':
		if n := blob(s); n > 0 {
			return n, tokBlob
		}
		return spanOf(s, isNameChar), tokIdent
	case c == '\'':
		return quoted(s, '\''), tokString
	case c == '"' || c == '`':
		return quoted(s, c), tokQIdent
	case c == '[':
		return bracketed(s), tokQIdent
	case isDigit(c) || c == '.' && len(s) > 1 && isDigit(s[1]):
		return number(s), tokNumber
	case c == '?':
		return 1 + spanOf(s[1:], isDigit), tokParam
	case c == ':' || c == '@' || c == '$':
		if n := spanOf(s[1:], isParamChar); n > 0 {
			return 1 + n, tokParam
		}
		if c == ':' && len(s) > 1 && s[1] == ':' {
			return 2, tokPunct
		}
		return 0, 0
	case isNameStart(c):
		return spanOf(s, isNameChar), tokIdent
	}
	if n := operator(s); n > 0 {
		return n, tokBinOp
	}
	switch c {
	case '~', '(', ')', ',', '.', ';':
		return 1, tokPunct
	}
	return 0, 0
}

// operator returns the length of the binary operator at the start of s.
func operator(s string) int {
	if len(s) >= 3 && s[:3] == "->>" {
		return 3
	}
	if len(s) >= 2 {
		switch s[:2] {
		case "||", "->", "<<", ">>", "<=", ">=", "==", "!=", "<>":
			return 2
		}
	}
	switch s[0] {
	case '-', '+', '*', '/', '%', '&', '|', '<', '>', '=':
		return 1
	}
	return 0
}

// spanOf returns the length of the longest prefix of s whose bytes all
// satisfy ok.
func spanOf(s string, ok func(byte) bool) int {
	i := 0
	for i < len(s) && ok(s[i]) {
		i++
	}
	return i
}

// lineComment returns the length of "--" up to, not including, a newline.
func lineComment(s string) int {
	for i := 2; i < len(s); i++ {
		if s[i] == '\n' {
			return i
		}
	}
	return len(s)
}

// blockComment returns the length of "/*" through "*/", or to the end of
// the text when the comment is not closed.
func blockComment(s string) int {
	for i := 2; i+1 < len(s); i++ {
		if s[i] == '*' && s[i+1] == '/' {
			return i + 2
		}
	}
	return len(s)
}

// blob returns the length of X'...' or 0 when the quote is not closed.
func blob(s string) int {
	for i := 2; i < len(s); i++ {
		if s[i] == '\'' {
			return i + 1
		}
	}
	return 0
}

// quoted returns the length of a string quoted by q, a doubled q standing
// for itself. When the closing quote is missing, the regular expression
// q(?:[^q]|qq)*q still matches up to the first quote of the last doubled
// pair (backtracking out of it); with no pair it does not match (0).
func quoted(s string, q byte) int {
	lastPair := -1
	for i := 1; i < len(s); i++ {
		if s[i] != q {
			continue
		}
		if i+1 < len(s) && s[i+1] == q {
			lastPair = i
			i++
			continue
		}
		return i + 1
	}
	if lastPair >= 0 {
		return lastPair + 1
	}
	return 0
}

// bracketed returns the length of [name], or 0 when "]" is missing.
func bracketed(s string) int {
	for i := 1; i < len(s); i++ {
		if s[i] == ']' {
			return i + 1
		}
	}
	return 0
}

// number returns the length of the number at the start of s, which
// starts with a digit or with "." and a digit.
func number(s string) int {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isHex(s[2]) {
		return 2 + spanOf(s[2:], isHex)
	}
	i := spanOf(s, isDigit)
	if i < len(s) && s[i] == '.' {
		i++
		i += spanOf(s[i:], isDigit)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if d := spanOf(s[j:], isDigit); d > 0 {
			i = j + d
		}
	}
	return i
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'
}
func isDigit(c byte) bool     { return '0' <= c && c <= '9' }
func isHex(c byte) bool       { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
func isLetter(c byte) bool    { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isParamChar(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' }
func isNameStart(c byte) bool { return isLetter(c) || c == '_' || c >= 0x80 }
func isNameChar(c byte) bool  { return isNameStart(c) || isDigit(c) || c == '$' }

// maxKeywordLen is the length of the longest reserved word
// (CURRENT_TIMESTAMP); longer identifiers skip the map lookup.
const maxKeywordLen = 17

// isReservedBytes reports whether word, in any case, is a reserved word,
// without allocating: it upper-cases into a stack buffer.
func isReservedBytes(word string) bool {
	if len(word) > maxKeywordLen {
		return false
	}
	var buf [maxKeywordLen]byte
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c >= 0x80 {
			// Unicode upper-casing maps a few non-ASCII letters to
			// ASCII ones (U+017F to S); keep its answer for them.
			return reservedWords[strings.ToUpper(word)]
		}
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	return reservedWords[string(buf[:len(word)])]
}
