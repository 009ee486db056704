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
	for _, c := range children(x) {
		if c != nil && !foldedOperand(c) {
			return x
		}
	}
	if v, ok := f.eval.EvalConst(x); ok {
		return &Const{V: v}
	}
	return x
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
		var args []Expr
		for i, a := range x.Args {
			y := f.foldExpr(a)
			if y != a && args == nil {
				args = append(make([]Expr, 0, len(x.Args)), x.Args[:i]...)
			}
			if args != nil {
				args = append(args, y)
			}
		}
		if args == nil {
			return e
		}
		return &Func{Name: x.Name, Args: args}
	case *Case:
		c := &Case{Operand: f.foldExpr(x.Operand), Else: f.foldExpr(x.Else)}
		for _, w := range x.Whens {
			c.Whens = append(c.Whens, When{Cond: f.foldExpr(w.Cond), Then: f.foldExpr(w.Then)})
		}
		return c
	case *Like:
		return &Like{Op: x.Op, X: f.foldExpr(x.X), Pat: f.foldExpr(x.Pat), Escape: f.foldExpr(x.Escape), Not: x.Not}
	case *Between:
		return &Between{X: f.foldExpr(x.X), Lo: f.foldExpr(x.Lo), Hi: f.foldExpr(x.Hi), Not: x.Not}
	case *InList:
		l := &InList{X: f.foldExpr(x.X), Not: x.Not, List: make([]Expr, len(x.List))}
		for i, v := range x.List {
			l.List[i] = f.foldExpr(v)
		}
		return l
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
