package plan

import (
	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/types"
)

// Evaluator evaluates the constant expressions the optimizer folds. The
// engine passes the executor's (exec.ConstEvaluator), so a folded value is
// the one execution would compute; plan cannot import exec.
type Evaluator interface {
	// EvalConst evaluates an expression that reads no row, parameter or
	// session state, reporting false when it fails (the error then
	// surfaces, or not, when the statement runs, as it would unfolded).
	EvalConst(e Expr) (types.Value, bool)
}

// folder folds constant subexpressions with its evaluator.
type folder struct{ eval Evaluator }

// foldConstants replaces every maximal constant subexpression of n's
// expressions by its value, computed once at plan time: `x = 1 + 1`
// becomes `x = 2`, which the index rules can seek. An expression is
// constant when it reads no column, outer row, parameter or subquery and
// calls only deterministic scalar functions (random(), changes(), the
// date and time functions and CURRENT_* read state and never fold).
func foldConstants(eval Evaluator, n Node) Node {
	f := folder{eval}
	switch x := n.(type) {
	case *Filter:
		x.Pred = f.foldExpr(x.Pred)
	case *Project:
		f.foldAll(x.Exprs)
	case *Sort:
		for i := range x.Keys {
			x.Keys[i].Expr = f.foldExpr(x.Keys[i].Expr)
		}
	case *Aggregate:
		f.foldAll(x.Group)
		for i := range x.Aggs {
			f.foldAll(x.Aggs[i].Args)
			x.Aggs[i].Filter = f.foldExpr(x.Aggs[i].Filter)
		}
	case *Join:
		x.On = f.foldExpr(x.On)
		f.foldAll(x.LeftKeys)
		f.foldAll(x.RightKeys)
	case *Values:
		for _, r := range x.Rows {
			f.foldAll(r)
		}
	}
	return n
}

func (f folder) foldAll(es []Expr) {
	for i, e := range es {
		es[i] = f.foldExpr(e)
	}
}

// foldExpr returns e with its maximal constant subexpressions folded,
// bottom-up: a node folds when its operands folded to literals, so a deep
// tree (a 400-term OR) costs one pass rather than one per level.
func (f folder) foldExpr(e Expr) Expr {
	if e == nil {
		return nil
	}
	if _, ok := e.(*Const); ok {
		return e
	}
	x := f.foldChildren(e)
	if _, ok := x.(*Collate); ok || !constNode(x) { // a COLLATE keeps its name for the comparison above
		return x
	}
	if !eachChild(x, func(c Expr) bool { return c == nil || foldedOperand(c) }) {
		return x
	}
	if v, ok := foldValue(x); ok {
		return constOf(v)
	}
	if v, ok := f.eval.EvalConst(x); ok {
		return constOf(v)
	}
	return x
}

// foldValue folds an operator of one literal operand with the types
// function the executor maps over its rows for that node (exec's unary,
// affinity, cast and IS NULL evaluators), which cannot fail: the value is
// the one execution computes, without compiling an evaluator for it.
// These are most of a statement's folds (-5, CAST(… AS TEXT), a column
// affinity applied to a literal); it reports false for any other node.
func foldValue(x Expr) (types.Value, bool) {
	var operand Expr
	switch x := x.(type) {
	case *Unary:
		operand = x.X
	case *Affinity:
		operand = x.X
	case *Cast:
		operand = x.X
	case *IsNull:
		operand = x.X
	default:
		return types.Null, false
	}
	c, ok := operand.(*Const)
	if !ok {
		return types.Null, false
	}
	v := c.V
	switch x := x.(type) {
	case *Unary:
		switch x.Op {
		case "-":
			return types.Neg(v), true
		case "+":
			return v, true
		case "NOT":
			return types.TruthOf(v).Not().Value(), true
		case "~":
			return types.BitNot(v), true
		}
	case *Affinity:
		if x.Read {
			return x.Aff.ApplyRead(v), true
		}
		return x.Aff.ApplyCompare(v), true
	case *Cast:
		return types.Cast(v, x.Affinity), true
	case *IsNull:
		return types.NewBool(v.IsNull() != x.Not), true
	}
	return types.Null, false
}

// foldedOperand reports whether c is a literal, or a literal with a
// COLLATE (which stays for the comparison reading it).
func foldedOperand(c Expr) bool {
	switch x := c.(type) {
	case *Const:
		return true
	case *Collate:
		return foldedOperand(x.X)
	}
	return false
}

// constNode reports whether e's own node (not its operands) may fold:
// an operator or a deterministic scalar function.
func constNode(e Expr) bool {
	switch x := e.(type) {
	case *Unary, *Binary, *Affinity, *Cast, *IsNull, *Case, *Like, *Between, *InList:
		return true
	case *Func:
		f, found := funcs.Lookup(x.Name, len(x.Args))
		return found && f.Deterministic && f.Kind == funcs.KindScalar
	}
	return false
}

// foldChildren rebuilds e with each operand folded.
func (f folder) foldChildren(e Expr) Expr {
	// The common nodes are copied only when an operand changed: the rule
	// runs over every node of every plan, and most expressions hold
	// nothing to fold.
	switch x := e.(type) {
	case *Unary:
		if y := f.foldExpr(x.X); y != x.X {
			return &Unary{Op: x.Op, X: y}
		}
		return e
	case *Binary:
		l, r := f.foldExpr(x.L), f.foldExpr(x.R)
		if l != x.L || r != x.R {
			return &Binary{Op: x.Op, L: l, R: r, Coll: x.Coll, TextAff: x.TextAff}
		}
		return e
	case *Affinity:
		if y := f.foldExpr(x.X); y != x.X {
			return &Affinity{X: y, Aff: x.Aff, Read: x.Read}
		}
		return e
	case *Collate:
		if y := f.foldExpr(x.X); y != x.X {
			return &Collate{X: y, Name: x.Name}
		}
		return e
	case *Cast:
		if y := f.foldExpr(x.X); y != x.X {
			return &Cast{X: y, Type: x.Type, Affinity: x.Affinity}
		}
		return e
	case *IsNull:
		if y := f.foldExpr(x.X); y != x.X {
			return &IsNull{X: y, Not: x.Not}
		}
		return e
	case *Func:
		if args, changed := mapList(x.Args, f.foldExpr); changed {
			return &Func{Name: x.Name, Args: args}
		}
		return e
	case *Case:
		op, els := f.foldExpr(x.Operand), f.foldExpr(x.Else)
		var whens []When
		for i, w := range x.Whens {
			nw := When{Cond: f.foldExpr(w.Cond), Then: f.foldExpr(w.Then)}
			if nw != w && whens == nil {
				whens = append(make([]When, 0, len(x.Whens)), x.Whens[:i]...)
			}
			if whens != nil {
				whens = append(whens, nw)
			}
		}
		if whens == nil && op == x.Operand && els == x.Else {
			return e
		}
		if whens == nil {
			whens = append([]When(nil), x.Whens...)
		}
		return &Case{Operand: op, Whens: whens, Else: els}
	case *Like:
		v, pat, esc := f.foldExpr(x.X), f.foldExpr(x.Pat), f.foldExpr(x.Escape)
		if v == x.X && pat == x.Pat && esc == x.Escape {
			return e
		}
		return &Like{Op: x.Op, X: v, Pat: pat, Escape: esc, Not: x.Not}
	case *Between:
		v, lo, hi := f.foldExpr(x.X), f.foldExpr(x.Lo), f.foldExpr(x.Hi)
		if v == x.X && lo == x.Lo && hi == x.Hi {
			return e
		}
		return &Between{X: v, Lo: lo, Hi: hi, Not: x.Not}
	case *InList:
		v := f.foldExpr(x.X)
		list, changed := mapList(x.List, f.foldExpr)
		if !changed && v == x.X {
			return e
		}
		if !changed {
			list = append([]Expr(nil), x.List...)
		}
		return &InList{X: v, List: list, Not: x.Not}
	}
	return e
}

// RowIndependent reports whether e has the same value for every row of an
// execution: it reads only literals, parameters and deterministic scalar
// functions of them. The executor evaluates such a filter once.
func RowIndependent(e Expr) bool { return independent(e, false) }

// RunIndependent is RowIndependent for one run of a correlated plan (a
// subquery's, an index join's probe): it may also read the outer row the
// run was started with, which stays the same until the run's operators
// are closed. SQLite likewise tests a WHERE term that reads no table of
// its own FROM once, before its loops.
func RunIndependent(e Expr) bool { return independent(e, true) }

func independent(e Expr, outer bool) bool {
	ok := true
	WalkExpr(e, func(x Expr) {
		switch x := x.(type) {
		case *Param, *Const, *Unary, *Binary, *Affinity, *Collate, *Cast, *IsNull, *Case, *Like, *Between, *InList:
		case *OuterRef:
			ok = ok && outer
		case *Func:
			f, found := funcs.Lookup(x.Name, len(x.Args))
			ok = ok && found && f.Deterministic && f.Kind == funcs.KindScalar
		default:
			ok = false
		}
	})
	return ok
}
