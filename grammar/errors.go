package grammar

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// ErrTooDeep is wrapped by the SyntaxError returned for a statement whose
// nesting (parentheses, CASE, prefix operators) exceeds the parser's limit.
var ErrTooDeep = errors.New("too deeply nested")

// ErrExprTooDeep is wrapped by the SyntaxError returned for an expression
// taller than MaxExprDepth ("Expression tree is too large (maximum depth
// 1000)", as SQLite says).
var ErrExprTooDeep = errors.New("expression tree is too large")

// ErrTooLong is wrapped by the SyntaxError returned for SQL text longer
// than the parser accepts.
var ErrTooLong = errors.New("sql text too long")

// SyntaxError reports where SQL text stops being valid. It prints as
//
//	near "FORM" at line 1, column 15: syntax error
//
// followed, when useful, by a hint (a reserved keyword used as a name).
type SyntaxError struct {
	Line     int    // 1-based line of the offending token
	Column   int    // 1-based column (in characters) of the offending token
	Offset   int    // byte offset of the offending token
	Near     string // the offending token as written; "" at end of input
	Expected string // what the grammar would have accepted, when the offending token is a keyword
	Msg      string // "syntax error", or a more specific description
	Hint     string // advice, e.g. how to quote a reserved keyword
	err      error  // a sentinel such as ErrTooDeep, for errors.Is
}

// Error formats the error like SQLite does, with the position added.
func (e *SyntaxError) Error() string {
	var b strings.Builder
	if e.Near == "" {
		b.WriteString("incomplete input")
	} else {
		fmt.Fprintf(&b, "near %q", e.Near)
	}
	fmt.Fprintf(&b, " at line %d, column %d: %s", e.Line, e.Column, e.Msg)
	if e.Hint != "" {
		b.WriteString(" (")
		b.WriteString(e.Hint)
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns the sentinel behind the error, if any.
func (e *SyntaxError) Unwrap() error { return e.err }

// maxExpected bounds the Expected text taken from participle.
const maxExpected = 80

// newSyntaxError converts a participle or lexer error.
func newSyntaxError(sql string, err error) *SyntaxError {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return &SyntaxError{Line: 1, Column: 1, Msg: err.Error()}
	}
	pos := perr.Position()
	se := &SyntaxError{Line: pos.Line, Column: pos.Column, Offset: pos.Offset, Msg: "syntax error"}
	var lerr *lexer.Error
	if errors.As(err, &lerr) {
		se.Near = nearText(sql, pos.Offset)
		se.Msg = "unrecognized token"
		return se
	}
	var uerr *participle.UnexpectedTokenError
	if errors.As(err, &uerr) {
		if !uerr.Unexpected.EOF() {
			se.Near = uerr.Unexpected.Value
		}
		if uerr.Unexpected.Type == sqlLexer.keyword {
			// Message renders the expected grammar (participle builds
			// its EBNF text each time, most of a failed parse's cost):
			// only a keyword's hint needs it.
			se.Expected = expectedText(uerr.Message())
			if nameExpected[se.Expected] {
				se.Hint = keywordHint(uerr.Unexpected)
			}
		}
		if f := graphUnsupported(sql, pos.Offset, uerr.Unexpected.Value); f != "" {
			se.Msg, se.Expected, se.Hint = "not supported: "+f, "", ""
		}
		return se
	}
	se.Near = nearText(sql, pos.Offset)
	se.Msg = "syntax error: " + perr.Message()
	return se
}

// keywordHint explains how to use a reserved keyword as a name.
func keywordHint(t lexer.Token) string {
	if t.Type != sqlLexer.keyword {
		return ""
	}
	return fmt.Sprintf("%s is a reserved keyword; to use it as a name, quote it: %s", strings.ToUpper(t.Value), QuoteIdent(t.Value))
}

// expectedText describes what participle expected, from "(expected
// ...)" in its message: the first element of the rule it was matching,
// in words.
func expectedText(msg string) string {
	i := strings.Index(msg, "(expected ")
	if i < 0 {
		return ""
	}
	rest := strings.TrimSuffix(msg[i+len("(expected "):], ")")
	if strings.Contains(rest, `"FILTER"`) {
		// The last alternative tried for an operand is a function call.
		return "an expression"
	}
	first := firstTerm(rest)
	if strings.Contains(first, "<ident>") {
		return "a name"
	}
	if w, ok := ruleWords[first]; ok {
		return w
	}
	if strings.HasPrefix(first, `"`) {
		return strings.Trim(first, `"`)
	}
	if len(first) > maxExpected {
		first = first[:maxExpected] + "..."
	}
	return first
}

// firstTerm returns the first element of an EBNF sequence: a quoted
// literal, a parenthesised group or a rule name.
func firstTerm(s string) string {
	if s == "" {
		return ""
	}
	switch s[0] {
	case '"':
		if j := strings.IndexByte(s[1:], '"'); j >= 0 {
			return s[:j+2]
		}
	case '(':
		depth := 0
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return s[:i+1]
				}
			}
		}
	}
	if j := strings.IndexByte(s, ' '); j >= 0 {
		return s[:j]
	}
	return s
}

// ruleWords names the grammar rules that show up in errors.
var ruleWords = map[string]string{
	"SQName": "a name", "SCTE": "a name", "SColumnDef": "a column definition",
	"STableItem": "a table", "SResultColumn": "a result column", "SSetClause": "a column assignment",
	"SExpr": "an expression", "SNotTok*": "an expression", "SOperand": "an expression", "SUnaryTok*": "an expression",
	"SPrimary":   "an expression",
	"SStatement": "a statement", "SSelect": "a query", "STypeName": "a type name", "SIndexedColumn": "a column",
	"SOrderTerm": "an expression",
}

// nameExpected lists the Expected values at which a keyword may have been
// meant as a name.
var nameExpected = map[string]bool{
	"a name": true, "a column definition": true, "a table": true, "a result column": true,
	"a column assignment": true, "an expression": true, "a column": true,
}

// nearText returns the word or character at offset, for lexer errors.
func nearText(sql string, offset int) string {
	if offset < 0 || offset >= len(sql) {
		return ""
	}
	end := offset + 1
	for end < len(sql) && end-offset < 20 && sql[end] > ' ' {
		end++
	}
	return sql[offset:end]
}

// tokenAt returns the token that starts at offset, or "" at the end.
func tokenAt(sql string, offset int) string {
	l, err := sqlLexer.LexString("", sql[min(max(offset, 0), len(sql)):])
	if err != nil {
		return nearText(sql, offset)
	}
	t, err := l.Next()
	if err != nil || t.EOF() {
		return ""
	}
	return t.Value
}

// errorAt builds a syntax error at a token position with a message.
func errorAt(sql string, pos lexer.Position, msg string, sentinel error) *SyntaxError {
	return &SyntaxError{Line: pos.Line, Column: pos.Column, Offset: pos.Offset, Near: nearText(sql, pos.Offset), Msg: msg, err: sentinel}
}

// graphUnsupported names the SQL/PGQ feature a GRAPH_TABLE statement's
// syntax error stops at, when it is one ladybug does not implement, so
// the user reads "not supported" instead of "syntax error".
func graphUnsupported(sql string, offset int, near string) string {
	if offset < 0 || offset > len(sql) || !strings.Contains(strings.ToUpper(sql), "GRAPH_TABLE") {
		return ""
	}
	before := strings.Fields(strings.ToUpper(sql[:offset]))
	prev := ""
	if len(before) > 0 {
		prev = before[len(before)-1]
	}
	switch up := strings.ToUpper(near); {
	case up == "EDGES" && prev == "DIFFERENT":
		return "the DIFFERENT EDGES match mode (the default, REPEATABLE ELEMENTS, is what MATCH does)"
	case up == "ELEMENTS" && prev == "REPEATABLE":
		return "writing the REPEATABLE ELEMENTS match mode (it is the default: leave it out)"
	case up == "ONE" && strings.HasPrefix(strings.ToUpper(strings.TrimSpace(sql[offset:])), "ONE ROW PER"):
		return "ONE ROW PER … (each match is one row, as ONE ROW PER MATCH: leave it out)"
	case up == "?" && (strings.HasSuffix(prev, ">") || strings.HasSuffix(prev, "-") || strings.HasSuffix(prev, ")")):
		return "the ? quantifier (write {0,1})"
	}
	return ""
}
