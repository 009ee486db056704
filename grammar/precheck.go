package grammar

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// lexScript tokenises sql once and checks the limits that keep the
// recursive-descent parser bounded: text length and nesting depth. The
// tokens then feed the parser directly.
func lexScript(sql string) (*lexer.PeekingLexer, error) {
	if len(sql) > maxLength {
		return nil, &SyntaxError{Line: 1, Column: 1, Msg: ErrTooLong.Error(), err: ErrTooLong}
	}
	l, err := sqlLexer.LexString("", sql)
	if err != nil {
		return nil, newSyntaxError(sql, err)
	}
	tokens, err := lexer.ConsumeAll(l)
	if err != nil {
		return nil, newSyntaxError(sql, err)
	}
	if t, ok := tooDeep(tokens); ok {
		return nil, errorAt(sql, t.Pos, ErrTooDeep.Error(), ErrTooDeep)
	}
	peek, err := lexer.Upgrade(&sliceLexer{tokens: tokens}, sqlLexer.elided()...)
	if err != nil {
		return nil, newSyntaxError(sql, err)
	}
	return peek, nil
}

// tooDeep reports the first token at which nesting exceeds maxDepth.
// Nesting is open parentheses plus open CASEs plus the current run of
// prefix operators (-, +, ~, NOT, EXPLAIN), each of which recurses once.
func tooDeep(tokens []lexer.Token) (lexer.Token, bool) {
	depth, prefix := 0, 0
	for _, t := range tokens {
		if t.Type == sqlLexer.whitespace || t.Type == sqlLexer.comment {
			continue
		}
		switch v := strings.ToUpper(t.Value); {
		case v == "(" || v == "CASE":
			depth++
			prefix = 0
		case v == ")" || v == "END":
			depth--
			prefix = 0
		case v == "-" || v == "+" || v == "~" || v == "NOT" || v == "EXPLAIN":
			prefix++
		default:
			prefix = 0
		}
		if depth+prefix > maxDepth {
			return t, true
		}
	}
	return lexer.Token{}, false
}

// sliceLexer replays already lexed tokens.
type sliceLexer struct {
	tokens []lexer.Token
	i      int
}

// Next returns the next token, then EOF forever.
func (s *sliceLexer) Next() (lexer.Token, error) {
	if s.i >= len(s.tokens) {
		if len(s.tokens) > 0 && s.tokens[len(s.tokens)-1].EOF() {
			return s.tokens[len(s.tokens)-1], nil
		}
		return lexer.EOFToken(lexer.Position{}), nil
	}
	s.i++
	return s.tokens[s.i-1], nil
}
