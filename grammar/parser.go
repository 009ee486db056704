package grammar

import (
	"fmt"

	"github.com/alecthomas/participle/v2"
)

// parserOptions are all the participle options, in one place. Keywords
// match case-insensitively; whitespace and comments are dropped; lookahead
// is unbounded because SQL needs it (WITH ... before INSERT, "NOT" before
// NULL, BETWEEN, IN or LIKE); the grammar is written so that alternatives
// fail within a few tokens, and Parse bounds nesting depth up front.
func parserOptions() []participle.Option {
	return []participle.Option{
		participle.Lexer(sqlLexer),
		participle.Elide("Whitespace", "Comment"),
		participle.CaseInsensitive("Ident", "Keyword"),
		participle.UseLookahead(participle.MaxLookahead),
	}
}

var (
	scriptParser = participle.MustBuild[sScript](parserOptions()...)
	exprParser   = participle.MustBuild[sExprRoot](parserOptions()...)
)

// EBNF returns the grammar of scripts in participle's EBNF notation.
func EBNF() string { return scriptParser.String() }

// maxDepth bounds the nesting of parentheses (and so of subqueries and
// expressions), keeping the recursive-descent parser's stack and time in
// check on hostile input. SQLite's default expression depth limit is 1000;
// real queries stay far below this.
const maxDepth = 200

// Parse parses a script of zero or more statements separated by semicolons.
// It returns a *SyntaxError when the text is not valid SQL.
func Parse(sql string) (stmts []Statement, err error) { return ParseLimited(sql, nil) }

// ParseLimited is Parse under lowered limits (nil: the defaults).
func ParseLimited(sql string, lim *Limits) (stmts []Statement, err error) {
	defer recoverParse(&err)
	l := lim.resolved()
	if len(sql) > l.SQLLength {
		return nil, tooLong()
	}
	p, err := preLex(sql)
	if err != nil {
		return nil, err
	}
	if p != nil {
		stmts, ok := p.script(&l)
		p.release()
		if ok {
			return stmts, nil
		}
	}
	return slowParse(sql, &l)
}

// slowParse is ParseLimited by participle and the builder only, under
// the resolved limits l.
func slowParse(sql string, l *Limits) (stmts []Statement, err error) {
	tree, err := slowScript(sql)
	if err != nil {
		return nil, err
	}
	b := &builder{src: sql, lim: *l}
	for _, s := range tree.Stmts {
		b.sawParam = false
		st := b.statement(s)
		if b.err != nil {
			return nil, b.err
		}
		if b.sawParam {
			// Each statement is numbered alone, as SQLite compiles it.
			new(ParamNumbering).Number(st)
		}
		stmts = append(stmts, st)
	}
	return stmts, nil
}

// ParseExpr parses a single expression.
func ParseExpr(sql string) (e Expr, err error) {
	defer recoverParse(&err)
	l := (*Limits)(nil).resolved()
	p, err := preLex(sql)
	if err != nil {
		return nil, err
	}
	if p != nil {
		e, ok := p.exprRoot(&l)
		p.release()
		if ok {
			return e, nil
		}
	}
	return slowParseExpr(sql)
}

// slowParseExpr is ParseExpr by participle and the builder only.
func slowParseExpr(sql string) (e Expr, err error) {
	tree, err := slowExprRoot(sql)
	if err != nil {
		return nil, err
	}
	b := &builder{src: sql, lim: (*Limits)(nil).resolved()}
	e = b.expr(tree.Expr)
	if b.err != nil {
		return nil, b.err
	}
	if b.sawParam {
		new(ParamNumbering).Number(e)
	}
	return e, nil
}

// The fast path (fast*.go) reads the texts it covers straight into the
// tree; participle reads the rest, and reports every syntax error, into
// its structs, which the builder (build*.go) converts.

// preLex checks the text's length and reads its tokens for the fast
// path into a pooled parser: nil when the fast lexer declines (participle
// then reports the error), an error when a limit stops the statement.
func preLex(sql string) (*fastParser, error) {
	if len(sql) > MaxSQLLength {
		return nil, tooLong()
	}
	return lexFast(sql)
}

// slowScript reads sql with participle only.
func slowScript(sql string) (*sScript, error) {
	peek, err := lexScript(sql)
	if err != nil {
		return nil, err
	}
	tree, err := scriptParser.ParseFromLexer(peek)
	if err != nil {
		return nil, newSyntaxError(sql, err)
	}
	return tree, nil
}

// slowExprRoot reads an expression with participle only.
func slowExprRoot(sql string) (*sExprRoot, error) {
	peek, err := lexScript(sql)
	if err != nil {
		return nil, err
	}
	tree, err := exprParser.ParseFromLexer(peek)
	if err != nil {
		return nil, newSyntaxError(sql, err)
	}
	return tree, nil
}

// recoverParse is the last line of defence: an internal failure becomes a
// syntax error instead of a panic in the caller.
func recoverParse(err *error) {
	if r := recover(); r != nil {
		*err = &SyntaxError{Line: 1, Column: 1, Msg: fmt.Sprintf("internal parser error: %v", r)}
	}
}
