package plan

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// bindPGCast binds the PostgreSQL spelling x::type for the types whose
// SQLite CAST would give an answer a PostgreSQL user calls wrong: a date
// or time type has NUMERIC affinity in SQLite ('2026-01-02'::date would be
// 2026) and so has BOOLEAN ('t'::boolean would be 0). It reports false for
// any other cast, which keeps SQLite's CAST meaning:
//
//   - x::date, x::time, x::timestamp (timestamptz, datetime) are date(x),
//     time(x), datetime(x): the value as SQLite's date text;
//   - x::boolean (bool) is x <> 0 for a number and, for text, 1 for t,
//     true, yes, y, on, 1 and 0 for f, false, no, n, off, 0 (any case,
//     blanks trimmed); NULL otherwise, where PostgreSQL raises an error.
func (b *Binder) bindPGCast(e *grammar.CastExpr, sc *scope) (Expr, bool, error) {
	if !e.Postfix || e.Type == nil {
		return nil, false, nil
	}
	fn := ""
	switch strings.ToUpper(e.Type.Name) {
	case "DATE":
		fn = "date"
	case "TIME", "TIME WITHOUT TIME ZONE":
		fn = "time"
	case "TIMESTAMP", "TIMESTAMPTZ", "DATETIME", "TIMESTAMP WITH TIME ZONE", "TIMESTAMP WITHOUT TIME ZONE":
		fn = "datetime"
	case "BOOLEAN", "BOOL":
		r, err := b.pgBool(e.X, sc)
		return r, true, err
	default:
		return nil, false, nil
	}
	x, err := b.bindExpr(e.X, sc)
	if err != nil {
		return nil, true, err
	}
	return &Func{Name: fn, Args: []Expr{x}}, true, nil
}

var pgTrue, pgFalse = []string{"t", "true", "yes", "y", "on", "1"}, []string{"f", "false", "no", "n", "off", "0"}

// pgBool is CASE WHEN typeof(x) IN ('integer','real') THEN x <> 0 ELSE
// CASE lower(trim(x)) WHEN 't' THEN 1 … WHEN 'f' THEN 0 … END END.
func (b *Binder) pgBool(ge grammar.Expr, sc *scope) (Expr, error) {
	x1, err := b.bindExpr(ge, sc)
	if err != nil {
		return nil, err
	}
	x2, _ := b.bindExpr(ge, sc)
	x3, _ := b.bindExpr(ge, sc)
	text := &Case{Operand: &Func{Name: "lower", Args: []Expr{&Func{Name: "trim", Args: []Expr{x3}}}}}
	for _, w := range pgTrue {
		text.Whens = append(text.Whens, When{Cond: &Const{V: types.NewText(w)}, Then: &Const{V: types.NewInt(1)}})
	}
	for _, w := range pgFalse {
		text.Whens = append(text.Whens, When{Cond: &Const{V: types.NewText(w)}, Then: &Const{V: types.NewInt(0)}})
	}
	isNumber := &InList{X: &Func{Name: "typeof", Args: []Expr{x1}}, List: []Expr{&Const{V: types.NewText("integer")}, &Const{V: types.NewText("real")}}}
	return &Case{
		Whens: []When{{Cond: isNumber, Then: &Binary{Op: "<>", L: x2, R: &Const{V: types.NewInt(0)}}}},
		Else:  text,
	}, nil
}
