package grammar

import (
	"github.com/alecthomas/participle/v2/lexer"
)

// lexScript tokenises sql once and checks the limits that keep the
// recursive-descent parser bounded: text length and nesting depth. The
// tokens then feed the parser directly.
func lexScript(sql string) (*lexer.PeekingLexer, error) {
	if len(sql) > MaxSQLLength {
		return nil, tooLong()
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
	g := depthGuard{src: sql}
	for t := probe.Next(); !t.EOF(); t = probe.Next() {
		at := Position{Offset: t.Pos.Offset, Line: t.Pos.Line, Column: t.Pos.Column}
		ft := ftok{pos: at, end: at.Offset + len(t.Value), typ: t.Type, code: tokenCode(t)}
		if r := g.step(&ft); r != guardOK {
			return nil, guardError(sql, t.Pos, r, &g)
		}
	}
	return peek, nil
}

// tooLong is the error for SQL text over MaxSQLLength.
func tooLong() error {
	return &SyntaxError{Line: 1, Column: 1, Msg: ErrTooLong.Error(), err: ErrTooLong}
}

// guardError is the error for a statement the depth guard stopped.
func guardError(sql string, at lexer.Position, r guardResult, g *depthGuard) error {
	switch r {
	case guardExpr:
		return errorAt(sql, at, errExprTooDeep, ErrExprTooDeep)
	case guardColumns:
		return errorAt(sql, at, "too many columns on "+g.table.name, nil)
	}
	return errorAt(sql, at, ErrTooDeep.Error(), ErrTooDeep)
}
