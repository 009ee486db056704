package plan

import (
	"reflect"
	"strconv"

	"github.com/ladybugsql/ladybug/grammar"
)

// Helpers that build the relational syntax tree a GRAPH_TABLE lowers to.
// Built nodes carry the position of the pattern element they come from,
// so that errors the binder finds in them point at the user's text.

func gCol(table, column string, at grammar.Position) *grammar.ColumnRef {
	return &grammar.ColumnRef{Position: at, Table: table, Column: column}
}

func gInt(n int, at grammar.Position) *grammar.Literal {
	s := strconv.Itoa(n)
	return &grammar.Literal{Position: at, Kind: grammar.LitInt, Raw: s, Value: s}
}

func gNull(at grammar.Position) *grammar.Literal {
	return &grammar.Literal{Position: at, Kind: grammar.LitNull, Raw: "NULL", Value: "NULL"}
}

func gBin(op grammar.BinaryOp, l, r grammar.Expr) grammar.Expr {
	return &grammar.BinaryExpr{Position: l.Pos(), Op: op, L: l, R: r}
}

// gAnd joins conds with AND; nil for none.
func gAnd(conds []grammar.Expr) grammar.Expr {
	var out grammar.Expr
	for _, c := range conds {
		if out == nil {
			out = c
		} else {
			out = gBin(grammar.OpAnd, out, c)
		}
	}
	return out
}

// gKeysEq is l.lc[i] = r.rc[i] for every i.
func gKeysEq(l string, lc []string, r string, rc []string, at grammar.Position) []grammar.Expr {
	out := make([]grammar.Expr, len(lc))
	for i := range lc {
		out[i] = gBin(grammar.OpEq, gCol(l, lc[i], at), gCol(r, rc[i], at))
	}
	return out
}

// gTable is a main table under an alias: the schema is written so that a
// CTE of the user's query never stands for a graph's table.
func gTable(name, alias string, at grammar.Position) grammar.TableExpr {
	return &grammar.TableName{Position: at, Schema: "main", Name: name, Alias: alias}
}

// gCTERef names a CTE of the lowered query.
func gCTERef(name, alias string, at grammar.Position) grammar.TableExpr {
	return &grammar.TableName{Position: at, Name: name, Alias: alias}
}

// gFrom joins items with commas.
func gFrom(items []grammar.TableExpr) grammar.TableExpr {
	var out grammar.TableExpr
	for _, it := range items {
		if out == nil {
			out = it
		} else {
			out = &grammar.Join{Position: it.Pos(), Kind: grammar.JoinCross, Comma: true, Left: out, Right: it}
		}
	}
	return out
}

// gCore is SELECT cols FROM from WHERE conds.
func gCore(cols []*grammar.ResultColumn, from []grammar.TableExpr, conds []grammar.Expr, at grammar.Position) *grammar.SelectCore {
	return &grammar.SelectCore{Position: at, Columns: cols, From: gFrom(from), Where: gAnd(conds)}
}

func gResult(e grammar.Expr, alias string) *grammar.ResultColumn {
	return &grammar.ResultColumn{Position: e.Pos(), Expr: e, Alias: alias}
}

// gUnion chains bodies with UNION ALL (all) or UNION.
func gUnion(bodies []grammar.SelectBody, all bool) grammar.SelectBody {
	op := grammar.Union
	if all {
		op = grammar.UnionAll
	}
	var out grammar.SelectBody
	for _, b := range bodies {
		if out == nil {
			out = b
		} else {
			out = &grammar.CompoundSelect{Position: b.Pos(), Op: op, Left: out, Right: b}
		}
	}
	return out
}

// cloneExpr returns a deep copy of e in which each expression node that
// fn replaces (returning true) is replaced; e is left unchanged (the
// parsed statement is cached and bound again).
func cloneExpr(e grammar.Expr, fn func(grammar.Node) (grammar.Expr, bool)) grammar.Expr {
	if e == nil {
		return nil
	}
	c := cloner{fn: fn}
	v := reflect.New(reflect.TypeOf((*grammar.Expr)(nil)).Elem()).Elem()
	v.Set(reflect.ValueOf(e))
	return c.value(v).Interface().(grammar.Expr)
}

type cloner struct {
	fn func(grammar.Node) (grammar.Expr, bool)
}

var exprType = reflect.TypeOf((*grammar.Expr)(nil)).Elem()

func (c *cloner) value(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		if n, ok := v.Elem().Interface().(grammar.Node); ok && v.Type() == exprType {
			if r, done := c.fn(n); done {
				out.Set(reflect.ValueOf(r))
				return out
			}
		}
		out.Set(c.value(v.Elem()))
		return out
	case reflect.Ptr:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Elem().Type())
		n.Elem().Set(c.value(v.Elem()))
		return n
	case reflect.Struct:
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				n.Field(i).Set(c.value(v.Field(i)))
			}
		}
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(c.value(v.Index(i)))
		}
		return n
	}
	return v
}
