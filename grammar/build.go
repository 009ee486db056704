package grammar

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// builder converts the participle structs of one script into the public
// tree. It records the first semantic error (a malformed blob, a bad
// placeholder number).
type builder struct {
	src      string
	height   int // tallest expression converted so far (see expr)
	err      error
	sawParam bool   // a placeholder was built since the flag was cleared
	lim      Limits // resolved: every field set
}

// fail records an error at pos; only the first one is kept.
func (b *builder) fail(pos lexer.Position, msg string) { b.failWith(pos, msg, nil) }

// failWith is fail with a sentinel for errors.Is.
func (b *builder) failWith(pos lexer.Position, msg string, sentinel error) {
	if b.err == nil {
		b.err = errorAt(b.src, pos, msg, sentinel)
	}
}

// failNear records a syntax error at pos, naming the token there.
func (b *builder) failNear(pos lexer.Position, msg string) {
	if b.err == nil {
		se := errorAt(b.src, pos, msg, nil)
		se.Near = tokenAt(b.src, pos.Offset)
		b.err = se
	}
}

// pos converts a participle position.
func pos(p lexer.Position) Position {
	return Position{Offset: p.Offset, Line: p.Line, Column: p.Column}
}

// text returns the source between two positions.
func (b *builder) text(start, end lexer.Position) string {
	s, e := start.Offset, end.Offset
	if s < 0 || e > len(b.src) || s > e {
		return ""
	}
	return strings.TrimRight(b.src[s:e], " \t\r\n\f")
}

// unquote removes identifier or string quotes: "x", `x`, [x], 'x'.
func unquote(s string) string {
	if len(s) < 2 {
		return s
	}
	switch s[0] {
	case '"':
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	case '`':
		return strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	case '[':
		return s[1 : len(s)-1]
	case '\'':
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

// unquoteAll unquotes every name of a list.
func unquoteAll(names []string) []string {
	if names == nil {
		return nil
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = unquote(n)
	}
	return out
}

// qname splits [schema.]name.
func qname(q *sQName) (schema, name string) {
	if q == nil || len(q.Parts) == 0 {
		return "", ""
	}
	if len(q.Parts) == 1 {
		return "", unquote(q.Parts[0])
	}
	return unquote(q.Parts[0]), unquote(q.Parts[1])
}

// textSetter is implemented by every statement (through source).
type textSetter interface{ setText(string) }

// statement converts one statement and records its source text.
func (b *builder) statement(s *sStatement) Statement {
	st := b.statementKind(s)
	if ts, ok := st.(textSetter); ok {
		ts.setText(b.text(s.Pos, s.EndPos))
	}
	return st
}

// statementKind dispatches on the alternative that matched.
func (b *builder) statementKind(s *sStatement) Statement {
	p := pos(s.Pos)
	switch {
	case s.Explain != nil:
		return &ExplainStmt{Position: p, QueryPlan: s.Explain.QueryPlan, Analyze: s.Explain.Analyze, Stmt: b.statement(s.Explain.Stmt)}
	case s.Select != nil:
		return b.selectStmt(s.Select)
	case s.Insert != nil:
		return b.insert(s.Insert)
	case s.Update != nil:
		return b.update(s.Update)
	case s.Delete != nil:
		return b.delete(s.Delete)
	}
	return b.ddlStatement(s)
}

// ddlStatement converts schema statements.
func (b *builder) ddlStatement(s *sStatement) Statement {
	switch {
	case s.CreateTable != nil:
		return b.createTable(s.CreateTable)
	case s.CreateIndex != nil:
		return b.createIndex(s.CreateIndex)
	case s.CreateView != nil:
		return b.createView(s.CreateView)
	case s.CreateTrigger != nil:
		return b.createTrigger(s.CreateTrigger)
	case s.Drop != nil:
		return b.drop(s.Drop)
	case s.Alter != nil:
		return b.alterTable(s.Alter)
	case s.CreateGraph != nil:
		return b.createGraph(s.CreateGraph)
	case s.DropGraph != nil:
		return b.dropGraph(s.DropGraph, pos(s.Pos))
	case s.AlterGraph != nil:
		return b.alterGraph(s.AlterGraph, pos(s.Pos))
	}
	return b.miscStatement(s)
}
