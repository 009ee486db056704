package plan

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// bindExpr binds e against sc.
func (b *Binder) bindExpr(e grammar.Expr, sc *scope) (Expr, error) {
	if sc != nil && sc.agg != nil && !sc.agg.inArgs {
		if r, ok, err := b.bindAggregated(e, sc); ok || err != nil {
			return r, err
		}
	}
	switch e := e.(type) {
	case *grammar.Literal:
		return bindLiteral(e)
	case *grammar.Param:
		return &Param{Idx: e.Index - 1}, nil
	case *grammar.ColumnRef:
		return b.bindColumn(e, sc)
	case *grammar.UnaryExpr:
		return b.bindUnary(e, sc)
	case *grammar.BinaryExpr:
		return b.bindBinary(e, sc)
	case *grammar.CollateExpr:
		x, err := b.bindExpr(e.X, sc)
		if err != nil {
			return nil, err
		}
		if _, ok := types.CollationByName(e.Collation); !ok {
			return nil, bindErr("no such collation sequence: %s", e.Collation)
		}
		return &Collate{X: x, Name: strings.ToUpper(e.Collation)}, nil
	case *grammar.CastExpr:
		if r, ok, err := b.bindPGCast(e, sc); ok {
			return r, err
		}
		x, err := b.bindExpr(e.X, sc)
		if err != nil {
			return nil, err
		}
		name := typeName(e.Type)
		return &Cast{X: x, Type: name, Affinity: types.CastAffinity(name)}, nil
	case *grammar.CaseExpr:
		return b.bindCase(e, sc)
	case *grammar.IsNullExpr:
		x, err := b.bindExpr(e.X, sc)
		if err != nil {
			return nil, err
		}
		return &IsNull{X: x, Not: e.Not}, nil
	case *grammar.BetweenExpr:
		return b.bindBetween(e, sc)
	case *grammar.InExpr:
		return b.bindIn(e, sc)
	case *grammar.LikeExpr:
		return b.bindLike(e, sc)
	case *grammar.FuncCall:
		return b.bindFunc(e, sc)
	case *grammar.SubqueryExpr:
		sub, err := b.bindSubquery(e.Select, sc, 1)
		if err != nil {
			return nil, err
		}
		return &ScalarSub{Sub: sub}, nil
	case *grammar.ExistsExpr:
		sub, err := b.bindSubquery(e.Select, sc, -1)
		if err != nil {
			return nil, err
		}
		return &Exists{Sub: sub, Not: e.Not}, nil
	case *grammar.TupleExpr:
		return nil, notSupported("row value")
	case *grammar.RaiseExpr:
		if !b.inTrigger {
			return nil, bindErr("RAISE() may only be used within a trigger-program")
		}
		r := &Raise{Action: [...]string{"IGNORE", "ROLLBACK", "ABORT", "FAIL"}[e.Action]}
		if e.Message != nil {
			m, err := b.bindExpr(e.Message, sc)
			if err != nil {
				return nil, err
			}
			r.Msg = m
		}
		return r, nil
	}
	return nil, notSupported("expression %T", e)
}

func (b *Binder) bindExprs(es []grammar.Expr, sc *scope) ([]Expr, error) {
	out := make([]Expr, len(es))
	for i, e := range es {
		x, err := b.bindExpr(e, sc)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

func typeName(t *grammar.TypeName) string {
	if t == nil {
		return ""
	}
	s := strings.ToUpper(t.Name)
	if len(t.Args) > 0 {
		s += "(" + strings.Join(t.Args, ",") + ")"
	}
	return s
}

// nullConst and smallInts are literals every plan shares instead of
// allocating each: a Const is a value, never changed once bound.
var (
	nullConst = &Const{V: types.Null}
	smallInts = func() (out [101]Const) {
		for i := range out {
			out[i].V = types.NewInt(int64(i))
		}
		return out
	}()
)

// constOf is the literal of value v: a shared one for NULL and the small
// integers (a comparison or IS NULL folds to 0, 1 or NULL).
func constOf(v types.Value) *Const {
	if v == types.Null {
		return nullConst
	}
	if i := v.Int(); v.Kind() == types.KindInt && i >= 0 && i < int64(len(smallInts)) && v == smallInts[i].V {
		return &smallInts[i]
	}
	return &Const{V: v}
}

func bindLiteral(e *grammar.Literal) (Expr, error) {
	switch e.Kind {
	case grammar.LitInt:
		return constOf(parseIntLiteral(e.Value)), nil
	case grammar.LitReal:
		f, err := strconv.ParseFloat(e.Value, 64)
		if err != nil && !isRangeErr(err) {
			return nil, bindErr("malformed number: %s", e.Value)
		}
		return &Const{V: types.NewReal(f)}, nil
	case grammar.LitString:
		return &Const{V: types.NewText(e.Value)}, nil
	case grammar.LitBlob:
		return &Const{V: types.NewBlob([]byte(e.Value))}, nil
	case grammar.LitNull:
		return nullConst, nil
	case grammar.LitTrue:
		return &smallInts[1], nil
	case grammar.LitFalse:
		return &smallInts[0], nil
	case grammar.LitCurrentTime:
		return &Func{Name: "time"}, nil
	case grammar.LitCurrentDate:
		return &Func{Name: "date"}, nil
	case grammar.LitCurrentTimestamp:
		return &Func{Name: "datetime"}, nil
	}
	return nil, notSupported("literal kind %d", e.Kind)
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// parseIntLiteral parses a decimal or hex integer literal; a decimal one
// too large for int64 becomes REAL, as in SQLite.
func parseIntLiteral(s string) types.Value {
	if len(s) > 2 && (s[1] == 'x' || s[1] == 'X') {
		u, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil {
			return types.NewReal(math.Inf(1))
		}
		return types.NewInt(int64(u))
	}
	i, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, _ := strconv.ParseFloat(s, 64)
		return types.NewReal(f)
	}
	return types.NewInt(i)
}

func (b *Binder) bindColumn(e *grammar.ColumnRef, sc *scope) (Expr, error) {
	if e.Schema != "" && !eqFold(e.Schema, "main") && !IsTempSchema(e.Schema) {
		return nil, bindErr("no such column: %s.%s.%s", e.Schema, e.Table, e.Column)
	}
	if sc != nil {
		if r, err := resolveIn(sc, e); r != nil || err != nil {
			return r, err
		}
	}
	for d := 1; d <= len(b.scopes); d++ {
		outer := b.scopes[len(b.scopes)-d]
		r, err := resolveIn(outer, e)
		if err != nil {
			return nil, err
		}
		if r == nil && outer.agg != nil && !outer.agg.inArgs {
			// A subquery above an aggregation reads an input column that is
			// no group key: like a bare column, it takes the group's value.
			if r, err = bareOuter(outer.agg, e); err != nil {
				return nil, err
			}
		}
		if r != nil {
			for _, s := range b.scopes[len(b.scopes)-d:] {
				s.correlated = true
			}
			return &OuterRef{Depth: d, Idx: r.(*ColRef).Idx, Ref: *r.(*ColRef)}, nil
		}
	}
	if e.Table == "" && e.Schema == "" {
		if e.Quoted {
			// SQLite reads a double-quoted name that names no column as a
			// string literal (tools such as gorm rely on it).
			return &Const{V: types.NewText(e.Column)}, nil
		}
		return nil, bindErr("no such column: %s", e.Column)
	}
	return nil, bindErr("no such column: %s", qualified(e.Table, e.Column))
}

// bareOuter resolves e in the input of an aggregation as a bare-column
// aggregate and returns the reference to its result.
func bareOuter(st *aggState, e *grammar.ColumnRef) (Expr, error) {
	r, err := resolveIn(st.input, e)
	if err != nil || r == nil {
		return nil, err
	}
	c := r.(*ColRef)
	st.aggs = append(st.aggs, AggCall{Kind: AggBare, Args: []Expr{c}})
	return &ColRef{Idx: len(st.groups) + len(st.aggs) - 1, Affinity: c.Affinity, Collate: c.Collate}, nil
}

// resolveIn finds e in sc, including the rowid aliases.
func resolveIn(sc *scope, e *grammar.ColumnRef) (Expr, error) {
	idx, err := sc.resolve(e.Table, e.Column)
	if err != nil {
		return nil, err
	}
	if idx < 0 && catalog.IsRowidName(e.Column) {
		idx, err = sc.resolveRowid(e.Table)
		if err != nil {
			return nil, err
		}
	}
	if idx < 0 {
		return nil, nil
	}
	c := sc.cols[idx]
	return &ColRef{Idx: idx, Affinity: c.Affinity, Collate: c.Collate}, nil
}

// rowidColName labels the hidden rowid column of a scan (RowidKey); no
// user column name can take it, so name lookups never reach it.
const rowidColName = "\x00rowid"

// noRowidColName labels the hidden row key of a WITHOUT ROWID table
// (NoRowidKey), which SQL cannot reach.
const noRowidColName = "\x00norowid"

func (b *Binder) bindUnary(e *grammar.UnaryExpr, sc *scope) (Expr, error) {
	if e.Op == grammar.OpNeg {
		if lit, ok := e.X.(*grammar.Literal); ok && lit.Kind == grammar.LitInt && lit.Value == "9223372036854775808" {
			return &Const{V: types.NewInt(math.MinInt64)}, nil
		}
	}
	x, err := b.bindExpr(e.X, sc)
	if err != nil {
		return nil, err
	}
	var op string
	switch e.Op {
	case grammar.OpNeg:
		op = "-"
	case grammar.OpPlus:
		op = "+"
	case grammar.OpBitNot:
		op = "~"
	case grammar.OpNot:
		op = "NOT"
	}
	return &Unary{Op: op, X: x}, nil
}

var binaryOps = map[grammar.BinaryOp]string{
	grammar.OpOr: "OR", grammar.OpAnd: "AND", grammar.OpEq: "=", grammar.OpNe: "<>",
	grammar.OpIs: "IS", grammar.OpIsNot: "IS NOT", grammar.OpIsDistinctFrom: "IS NOT",
	grammar.OpIsNotDistinctFrom: "IS", grammar.OpLt: "<", grammar.OpLe: "<=", grammar.OpGt: ">",
	grammar.OpGe: ">=", grammar.OpBitAnd: "&", grammar.OpBitOr: "|", grammar.OpShl: "<<",
	grammar.OpShr: ">>", grammar.OpAdd: "+", grammar.OpSub: "-", grammar.OpMul: "*",
	grammar.OpDiv: "/", grammar.OpMod: "%", grammar.OpConcat: "||",
}

func (b *Binder) bindBinary(e *grammar.BinaryExpr, sc *scope) (Expr, error) {
	if e.Op == grammar.OpAnd && andIsZero(e) {
		// (andIsZero first: it reads only the chain of ANDs, so binding a
		// long chain does not walk each level's whole subtree.)
		if v, ok := parsedInt(e); ok && v == 0 {
			// SQLite's parser (sqlite3ExprAnd) turns an AND with a side that
			// is a literal 0, or a NULL test of a literal, and no function
			// call on either side into the integer 0 before names are
			// resolved: the other side is never checked nor run.
			return bindLiteral(&grammar.Literal{Kind: grammar.LitInt, Value: "0"})
		}
	}
	if isRowOperand(e.L) || isRowOperand(e.R) {
		return b.bindRowOperands(e, sc)
	}
	l, err := b.bindExpr(e.L, sc)
	if err != nil {
		return nil, err
	}
	r, err := b.bindExpr(e.R, sc)
	if err != nil {
		return nil, err
	}
	return binaryOf(e.Op, l, r)
}

// isRowOperand reports whether e may be a row value: a tuple or a
// subquery (which is one when it returns several columns).
func isRowOperand(e grammar.Expr) bool {
	switch e.(type) {
	case *grammar.TupleExpr, *grammar.SubqueryExpr:
		return true
	}
	return false
}

// bindRowOperands binds a binary operator whose sides may be row values;
// when both turn out scalar it is an ordinary operator.
func (b *Binder) bindRowOperands(e *grammar.BinaryExpr, sc *scope) (Expr, error) {
	ls, lrow, err := b.bindRowOperand(e.L, sc)
	if err != nil {
		return nil, err
	}
	rs, rrow, err := b.bindRowOperand(e.R, sc)
	if err != nil {
		return nil, err
	}
	if !lrow && !rrow {
		return binaryOf(e.Op, ls[0], rs[0])
	}
	return b.bindRowCompare(e.Op, ls, rs)
}

// bindRowOperand binds a tuple to its elements and a subquery to one
// ScalarSub per result column; row reports a row value.
func (b *Binder) bindRowOperand(e grammar.Expr, sc *scope) (xs []Expr, row bool, err error) {
	switch e := e.(type) {
	case *grammar.TupleExpr:
		xs, err = b.bindExprs(e.Exprs, sc)
		return xs, true, err
	case *grammar.SubqueryExpr:
		sub, err := b.bindSubquery(e.Select, sc, -1)
		if err != nil {
			return nil, false, err
		}
		n := len(sub.Plan.Columns())
		for i := 0; i < n; i++ {
			xs = append(xs, &ScalarSub{Sub: sub, Col: i})
		}
		return xs, n != 1, nil
	}
	x, err := b.bindExpr(e, sc)
	return []Expr{x}, false, err
}

// binaryOf builds the bound form of a scalar binary operator.
func binaryOf(gop grammar.BinaryOp, l, r Expr) (Expr, error) {
	switch gop {
	case grammar.OpJSONExtract:
		return &Func{Name: "->", Args: []Expr{l, r}}, nil
	case grammar.OpJSONExtractText:
		return &Func{Name: "->>", Args: []Expr{l, r}}, nil
	}
	op, ok := binaryOps[gop]
	if !ok {
		return nil, notSupported("operator %d", gop)
	}
	return comparison(op, l, r), nil
}

// comparison builds a binary operator, adding SQLite's comparison affinity
// and collation for the comparison operators.
func comparison(op string, l, r Expr) Expr {
	switch op {
	case "=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT":
	default:
		return &Binary{Op: op, L: l, R: r}
	}
	aff := types.CompareAffinity(ExprAffinity(l), ExprAffinity(r))
	if aff == types.AffinityText && (mixedValues(l) || mixedValues(r)) {
		// SQLite turns a number into text under TEXT affinity only when
		// the other operand is text; a compound scalar subquery can yield
		// a number on either side, so that is decided per row.
		return &Binary{Op: op, L: l, R: r, Coll: collation(l, r), TextAff: true}
	}
	return &Binary{Op: op, L: withAffinity(l, aff), R: withAffinity(r, aff), Coll: collation(l, r)}
}

// withAffinity applies aff to e for a comparison, folding constants and
// skipping columns whose stored values already have it.
func withAffinity(e Expr, aff types.Affinity) Expr {
	if aff == types.AffinityNone {
		return e
	}
	own := ExprAffinity(e)
	if (own == aff || aff.IsNumeric() && own.IsNumeric()) && !mixedValues(e) {
		return e
	}
	if c, ok := e.(*Const); ok {
		return &Const{V: aff.ApplyCompare(c.V)}
	}
	return &Affinity{X: e, Aff: aff}
}

// ExprAffinity is the affinity of an expression for comparisons: a
// column's declared one, a CAST's target's, none otherwise.
func ExprAffinity(e Expr) types.Affinity {
	switch e := e.(type) {
	case *ColRef:
		return e.Affinity
	case *OuterRef:
		return e.Ref.Affinity
	case *Cast:
		return e.Affinity
	case *ScalarSub:
		// sqlite3ExprAffinity of TK_SELECT: the subquery's column's.
		if cols := e.Sub.Plan.Columns(); e.Col < len(cols) {
			return cols[e.Col].Affinity
		}
	case *Collate:
		return ExprAffinity(e.X)
	case *Affinity:
		return e.Aff
	}
	return types.AffinityNone
}

// collation picks a comparison's collation as SQLite's
// sqlite3BinaryCompareCollSeq: an explicit COLLATE anywhere in the left
// operand, then in the right, then a column's on the left, then the right.
func collation(l, r Expr) string {
	if hasExplicitCollate(l) {
		return columnCollation(l)
	}
	if hasExplicitCollate(r) {
		return columnCollation(r)
	}
	if c := columnCollation(l); c != "" {
		return c
	}
	return columnCollation(r)
}

// bindRowCompare expands a comparison of two row values into scalar
// comparisons: element-wise for = and <>, lexicographic for the orderings,
// which gives SQLite's NULL results.
func (b *Binder) bindRowCompare(op grammar.BinaryOp, ls, rs []Expr) (Expr, error) {
	if len(ls) != len(rs) {
		return nil, bindErr("row value misused")
	}
	name, ok := binaryOps[op]
	if !ok {
		return nil, bindErr("row value misused")
	}
	switch name {
	case "=", "IS":
		var out Expr
		for i := range ls {
			out = andExpr(out, comparison(name, ls[i], rs[i]))
		}
		return out, nil
	case "<>", "IS NOT":
		var out Expr
		for i := range ls {
			c := comparison(name, ls[i], rs[i])
			if out == nil {
				out = c
			} else {
				out = &Binary{Op: "OR", L: out, R: c}
			}
		}
		return out, nil
	case "<", "<=", ">", ">=":
		return lexCompare(name, ls, rs), nil
	}
	return nil, bindErr("row value misused")
}

// lexCompare is (l0 op' r0) OR (l0 = r0 AND rest), op' the strict form.
func lexCompare(op string, ls, rs []Expr) Expr {
	if len(ls) == 1 {
		return comparison(op, ls[0], rs[0])
	}
	strict := op[:1]
	return &Binary{Op: "OR", L: comparison(strict, ls[0], rs[0]),
		R: &Binary{Op: "AND", L: comparison("=", ls[0], rs[0]), R: lexCompare(op, ls[1:], rs[1:])}}
}

func (b *Binder) bindCase(e *grammar.CaseExpr, sc *scope) (Expr, error) {
	c := &Case{}
	var err error
	if e.Operand != nil {
		if c.Operand, err = b.bindExpr(e.Operand, sc); err != nil {
			return nil, err
		}
	}
	for _, w := range e.Whens {
		cond, err := b.bindExpr(w.Cond, sc)
		if err != nil {
			return nil, err
		}
		then, err := b.bindExpr(w.Result, sc)
		if err != nil {
			return nil, err
		}
		if c.Operand != nil {
			// CASE x WHEN v compares with x = v's affinity and collation.
			cmp := comparison("=", c.Operand, cond).(*Binary)
			cond = cmp
		}
		c.Whens = append(c.Whens, When{Cond: cond, Then: then})
	}
	if e.Else != nil {
		if c.Else, err = b.bindExpr(e.Else, sc); err != nil {
			return nil, err
		}
	}
	if c.Operand != nil {
		// The WHENs are now full comparisons; evaluate as a searched CASE.
		c.Operand = nil
	}
	return c, nil
}

func (b *Binder) bindBetween(e *grammar.BetweenExpr, sc *scope) (Expr, error) {
	x, err := b.bindExpr(e.X, sc)
	if err != nil {
		return nil, err
	}
	lo, err := b.bindExpr(e.Lo, sc)
	if err != nil {
		return nil, err
	}
	hi, err := b.bindExpr(e.Hi, sc)
	if err != nil {
		return nil, err
	}
	var r Expr = &Binary{Op: "AND", L: comparison(">=", x, lo), R: comparison("<=", x, hi)}
	if e.Not {
		r = &Unary{Op: "NOT", X: r}
	}
	return r, nil
}

func (b *Binder) bindLike(e *grammar.LikeExpr, sc *scope) (Expr, error) {
	x, err := b.bindExpr(e.X, sc)
	if err != nil {
		return nil, err
	}
	p, err := b.bindExpr(e.Pattern, sc)
	if err != nil {
		return nil, err
	}
	l := &Like{X: x, Pat: p, Not: e.Not}
	if e.Escape != nil {
		if l.Escape, err = b.bindExpr(e.Escape, sc); err != nil {
			return nil, err
		}
	}
	switch e.Op {
	case grammar.OpLike, grammar.OpILike:
		l.Op = "LIKE"
	case grammar.OpGlob:
		l.Op = "GLOB"
	case grammar.OpRegexp:
		l.Op = "REGEXP"
	default:
		return nil, notSupported("MATCH")
	}
	return l, nil
}

func (b *Binder) bindIn(e *grammar.InExpr, sc *scope) (Expr, error) {
	if sq, ok := soleSubquery(e.List); ok {
		// SQLite reads x IN ((SELECT …)) as x IN (SELECT …): all the
		// subquery's rows, not its first.
		in := *e
		in.Select, in.List = sq.Select, nil
		e = &in
	}
	if t, ok := e.X.(*grammar.TupleExpr); ok && e.Select != nil {
		xs, err := b.bindExprs(t.Exprs, sc)
		if err != nil {
			return nil, err
		}
		sub, err := b.bindSubquery(e.Select, sc, len(xs))
		if err != nil {
			return nil, err
		}
		return &InSub{X: xs, Sub: sub, Not: e.Not}, nil
	}
	if t, ok := e.X.(*grammar.TupleExpr); ok && e.List != nil {
		return b.bindRowInList(t, e, sc)
	}
	x, err := b.bindExpr(e.X, sc)
	if err != nil {
		return nil, err
	}
	switch {
	case e.Select != nil:
		sub, err := b.bindSubquery(e.Select, sc, 1)
		if err != nil {
			return nil, err
		}
		return &InSub{X: []Expr{x}, Sub: sub, Not: e.Not}, nil
	case e.Table != nil:
		sel := &grammar.SelectStmt{Body: &grammar.SelectCore{
			Columns: []*grammar.ResultColumn{{Star: true}}, From: e.Table}}
		sub, err := b.bindSubquery(sel, sc, 1)
		if err != nil {
			return nil, err
		}
		return &InSub{X: []Expr{x}, Sub: sub, Not: e.Not}, nil
	case e.Func != nil:
		return nil, notSupported("IN table-valued function")
	}
	list, err := b.bindExprs(e.List, sc)
	if err != nil {
		return nil, err
	}
	aff := ExprAffinity(x)
	for i := range list {
		list[i] = withAffinity(list[i], aff)
	}
	return &InList{X: x, List: list, Not: e.Not}, nil
}

// soleSubquery returns the subquery that is the only element of an IN
// list.
func soleSubquery(list []grammar.Expr) (*grammar.SubqueryExpr, bool) {
	if len(list) != 1 {
		return nil, false
	}
	sq, ok := list[0].(*grammar.SubqueryExpr)
	return sq, ok
}

// bindRowInList binds (a, b) [NOT] IN ((x, y), ...) as an OR of row
// equalities, which has IN's NULL rules: true on a match, NULL when some
// element compares NULL, else false.
func (b *Binder) bindRowInList(t *grammar.TupleExpr, e *grammar.InExpr, sc *scope) (Expr, error) {
	xs, err := b.bindExprs(t.Exprs, sc)
	if err != nil {
		return nil, err
	}
	var out Expr = &Const{V: types.NewBool(false)}
	for i, el := range e.List {
		var ys []Expr
		if rt, ok := el.(*grammar.TupleExpr); ok {
			ys, err = b.bindExprs(rt.Exprs, sc)
		} else {
			var y Expr
			y, err = b.bindExpr(el, sc)
			ys = []Expr{y}
		}
		if err != nil {
			return nil, err
		}
		if len(ys) != len(xs) {
			terms := "terms"
			if len(ys) == 1 {
				terms = "term"
			}
			return nil, bindErr("IN(...) element has %d %s - expected %d", len(ys), terms, len(xs))
		}
		eq, err := b.bindRowCompare(grammar.OpEq, xs, ys)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			out = eq
		} else {
			out = &Binary{Op: "OR", L: out, R: eq}
		}
	}
	if e.Not {
		out = &Unary{Op: "NOT", X: out}
	}
	return out, nil
}

// bindSubquery binds a nested query with sc as its enclosing scope. ncols
// is the column count the context requires (-1 = any).
func (b *Binder) bindSubquery(sel *grammar.SelectStmt, sc *scope, ncols int) (*Subquery, error) {
	if sc == nil {
		sc = &scope{}
	}
	prev := sc.correlated
	sc.correlated = false
	b.scopes = append(b.scopes, sc)
	q, err := b.bindSelect(sel)
	b.scopes = b.scopes[:len(b.scopes)-1]
	corr := sc.correlated
	sc.correlated = prev || corr
	if err != nil {
		return nil, err
	}
	if ncols >= 0 && len(q.Cols) != ncols {
		return nil, bindErr("sub-select returns %d columns - expected %d", len(q.Cols), ncols)
	}
	b.subID++
	return &Subquery{Plan: rightmostAffinity(q.Root), Correlated: corr, ID: b.subID}, nil
}

// mixedValues reports whether e is a scalar subquery over a compound,
// whose values come from arms of other affinities than the one it
// compares with (its rightmost arm's).
func mixedValues(e Expr) bool {
	s, ok := e.(*ScalarSub)
	if !ok {
		return false
	}
	p, ok := s.Sub.Plan.(*Project)
	return ok && isCompound(p.Input)
}

// rightmostAffinity gives the columns of compound query n the affinity of
// its rightmost arm's, which SQLite compares a scalar or IN subquery's
// values with; other queries are returned as they are.
func rightmostAffinity(n Node) Node {
	if !isCompound(n) {
		return n
	}
	cols := slices.Clone(n.Columns())
	arm := rightmostArm(n).Columns()
	for i := range cols {
		cols[i].Affinity = arm[i].Affinity
	}
	return &Project{Input: n, Exprs: refsTo(cols, nil), Cols: cols}
}
