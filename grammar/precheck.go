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
	peek, err := lexer.Upgrade(l, sqlLexer.elided()...)
	if err != nil {
		return nil, newSyntaxError(sql, err)
	}
	probe := *peek // a copy: reading it leaves peek at the start
	if t, ok := tooDeep(&probe); ok {
		return nil, errorAt(sql, t.Pos, ErrTooDeep.Error(), ErrTooDeep)
	}
	return peek, nil
}

// tooDeep reports the first token at which nesting exceeds maxDepth.
// Nesting is open parentheses plus open CASEs plus the current run of
// prefix operators (-, +, ~, NOT, EXPLAIN), each of which recurses once.
func tooDeep(tokens *lexer.PeekingLexer) (lexer.Token, bool) {
	depth, prefix := 0, 0
	for t := tokens.Next(); !t.EOF(); t = tokens.Next() {
		switch v := t.Value; {
		case v == "(" || strings.EqualFold(v, "CASE"):
			depth++
			prefix = 0
		case v == ")" || strings.EqualFold(v, "END"):
			depth--
			prefix = 0
		case v == "-" || v == "+" || v == "~" || strings.EqualFold(v, "NOT") || strings.EqualFold(v, "EXPLAIN"):
			prefix++
		default:
			prefix = 0
		}
		if depth+prefix > maxDepth {
			return *t, true
		}
	}
	return lexer.Token{}, false
}
