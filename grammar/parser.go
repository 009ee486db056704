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
	tree, err := parseScript(sql)
	if err != nil {
		return nil, err
	}
	b := &builder{src: sql, lim: l}
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
	tree, err := parseExprRoot(sql)
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

// parseScript reads sql into participle structs: by the fast path when
// it covers the text, by participle otherwise (which also reports every
// syntax error).
func parseScript(sql string) (*sScript, error) {
	toks, err := preLex(sql)
	if err != nil {
		return nil, err
	}
	if toks != nil {
		tree, ok := fastScriptToks(toks)
		releaseToks(toks)
		if ok {
			return tree, nil
		}
	}
	return slowScript(sql)
}

// preLex checks the text's length and reads its tokens for the fast
// path: nil tokens when the fast lexer declines (participle then reports
// the error), an error when a limit stops the statement.
func preLex(sql string) ([]ftok, error) {
	if len(sql) > MaxSQLLength {
		return nil, tooLong()
	}
	return fastLex(sql)
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

// parseExprRoot is parseScript for ParseExpr.
func parseExprRoot(sql string) (*sExprRoot, error) {
	toks, err := preLex(sql)
	if err != nil {
		return nil, err
	}
	if toks != nil {
		tree, ok := fastExprToks(toks)
		releaseToks(toks)
		if ok {
			return tree, nil
		}
	}
	return slowExprRoot(sql)
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
