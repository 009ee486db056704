package plan

import (
	"unicode/utf8"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/types"
)

// pushdownFilters moves the conjuncts of a Filter as close to the scans as
// their meaning allows, so the rules after it (rowid and index lookups)
// see them and joins combine fewer rows:
//
//   - into a Filter below it, merging the two;
//   - through a Project whose referenced outputs are plain columns (a
//     subquery in FROM, a view), rewriting the references;
//   - into either side of an inner or cross join, and into the left side of
//     a LEFT join (a right-side condition there would drop the
//     NULL-extended rows it must keep), after an outer join whose
//     NULL-extended rows the filter rejects became inner (simplifyOuter);
//   - an equality between the two sides of an inner join becomes a
//     hash-join key;
//   - below an Aggregate when it compares a group column with a constant
//     (see pushThroughAggregate).
//
// Only pushable conjuncts move (see pushable): they never error, read no
// subquery and call no function, so evaluating them earlier, on more or
// fewer rows, cannot change an answer.
func pushdownFilters(_ *catalog.Catalog, n Node) Node {
	f, ok := n.(*Filter)
	if !ok {
		return n
	}
	switch in := f.Input.(type) {
	case *Filter:
		// The lower filter's conjuncts stay first, so they still run before
		// the pushed ones.
		return pushdownFilters(nil, &Filter{Input: in.Input, Pred: andExpr(in.Pred, f.Pred)})
	case *Join:
		return pushIntoJoin(f, in)
	case *Project:
		return pushThroughProject(f, in)
	case *Aggregate:
		return pushThroughAggregate(f, in)
	}
	return n
}

// pushIntoJoin splits f's conjuncts between the join's sides.
func pushIntoJoin(f *Filter, j *Join) Node {
	if j.Kind.SemiLike() {
		return pushIntoSemi(f, j)
	}
	nj := *j
	var conds []Expr // for the outer-join simplifications, which need a join to work on
	_, leftJoin := j.Left.(*Join)
	_, rightJoin := j.Right.(*Join)
	if k := j.Kind; k == JoinLeft || k == JoinRight || k == JoinFull || leftJoin || rightJoin {
		conds = Conjuncts(f.Pred)
	}
	if k := j.Kind; k == JoinLeft || k == JoinRight || k == JoinFull {
		nj.Kind = simplifyOuter(conds, j)
	}
	if nj.Kind == JoinInner || nj.Kind == JoinCross {
		nj.Left = simplifyBelow(conds, j.Left, 0)
		nj.Right = simplifyBelow(conds, j.Right, len(j.Left.Columns()))
	}
	if nj.Kind != JoinInner && nj.Kind != JoinCross && nj.Kind != JoinLeft {
		if nj.Kind == j.Kind {
			return f
		}
		return &Filter{Input: heapJoin(nj), Pred: f.Pred}
	}
	nl := len(j.Left.Columns())
	var left, right Expr
	var keep [8]Expr
	rest := keep[:0] // the conjuncts that stay, ANDed only if something moves
	for c := range conjunctsOf(f.Pred) {
		side := pushSide(c, nl)
		switch {
		case side == sideLeft:
			left = andExpr(left, c)
		case side == sideRight && nj.Kind != JoinLeft:
			right = andExpr(right, shiftCols(c, -nl))
		case side == sideBoth && nj.Kind != JoinLeft && addJoinKey(&nj, c, nl):
		case side == sideBoth && nj.Kind != JoinLeft && len(j.LeftKeys) == 0 && isOrJoinCond(c, nl):
			// An OR of equalities drives the join as OR keys (OrJoinKeys)
			// from the ON condition.
			nj.On = andExpr(nj.On, c)
		default:
			rest = append(rest, c)
		}
	}
	if left == nil && right == nil && len(nj.LeftKeys) == len(j.LeftKeys) && nj.Kind == j.Kind &&
		nj.Left == j.Left && nj.Right == j.Right && nj.On == j.On {
		return f
	}
	if left != nil {
		nj.Left = pushdownFilters(nil, &Filter{Input: nj.Left, Pred: left})
	}
	if right != nil {
		nj.Right = pushdownFilters(nil, &Filter{Input: nj.Right, Pred: right})
	}
	if (len(nj.LeftKeys) > 0 || nj.On != nil) && nj.Kind == JoinCross {
		nj.Kind = JoinInner
	}
	if len(rest) == 0 {
		return heapJoin(nj)
	}
	return &Filter{Input: heapJoin(nj), Pred: andAll(rest)}
}

// heapJoin is j moved to the heap: pushIntoJoin builds its join on the
// stack, as most filters it sees move nothing.
func heapJoin(j Join) *Join { return &j }

// pushIntoSemi moves the conjuncts of f, which read only the left columns
// a semi or anti join outputs, into its left side: a left row's match does
// not depend on which other left rows are there.
func pushIntoSemi(f *Filter, j *Join) Node {
	var left Expr
	var keep [8]Expr
	rest := keep[:0] // the conjuncts that stay, ANDed only if something moves
	for c := range conjunctsOf(f.Pred) {
		if s := pushSide(c, len(j.Cols)); s == sideLeft || s == sideConst {
			left = andExpr(left, c)
		} else {
			rest = append(rest, c)
		}
	}
	if left == nil {
		return f
	}
	nj := *j
	nj.Left = pushdownFilters(nil, &Filter{Input: j.Left, Pred: left})
	if len(rest) == 0 {
		return &nj
	}
	return &Filter{Input: &nj, Pred: andAll(rest)}
}

// addJoinKey makes c a hash-join key when it is "left = right" as the
// binder's ON handling would (same operator, no collation).
func addJoinKey(j *Join, c Expr, nl int) bool {
	l, r, ok := crossEquality(c, nl)
	if !ok {
		return false
	}
	j.LeftKeys = append(append([]Expr{}, j.LeftKeys...), l)
	j.RightKeys = append(append([]Expr{}, j.RightKeys...), shiftCols(r, -nl))
	return true
}

// pushThroughProject moves conjuncts below a projection when every column
// they read is a plain input column with the same affinity and collation.
func pushThroughProject(f *Filter, p *Project) Node {
	var below Expr
	var keep [8]Expr
	rest := keep[:0] // the conjuncts that stay, ANDed only if something moves
	for c := range conjunctsOf(f.Pred) {
		if m, ok := substituteCols(c, p.Exprs); ok {
			below = andExpr(below, m)
		} else {
			rest = append(rest, c)
		}
	}
	if below == nil {
		return f
	}
	np := *p
	np.Input = pushdownFilters(nil, &Filter{Input: p.Input, Pred: below})
	if len(rest) == 0 {
		return &np
	}
	return &Filter{Input: &np, Pred: andAll(rest)}
}

// substituteCols rewrites the column references of c to the projection's
// input columns; ok is false when c is not pushable or reads a computed
// output.
func substituteCols(c Expr, exprs []Expr) (Expr, bool) {
	if pushSide(c, 1<<30) == sideNone {
		return nil, false
	}
	ok := true
	WalkExpr(c, func(x Expr) {
		ref, isRef := x.(*ColRef)
		if !isRef {
			return
		}
		if ref.Idx >= len(exprs) {
			ok = false
			return
		}
		if _, plain := exprs[ref.Idx].(*ColRef); !plain {
			ok = false
		}
	})
	if !ok {
		return nil, false
	}
	// The reference keeps its own affinity and collation: the projection
	// copies values unchanged, and those are what the comparison above it
	// was compiled with.
	return MapExpr(c, func(x Expr) Expr {
		if ref, isRef := x.(*ColRef); isRef {
			return &ColRef{Idx: exprs[ref.Idx].(*ColRef).Idx, Affinity: ref.Affinity, Collate: ref.Collate}
		}
		return x
	}), true
}

// Sides a conjunct can read.
const (
	sideNone  = iota // not pushable
	sideConst        // reads no column
	sideLeft
	sideRight
	sideBoth
)

// pushSide reports which join side c reads (columns below nl are the
// left's), or sideNone when c holds a node outside the pushable set:
// columns, constants, parameters, operators that cannot fail, BETWEEN,
// IN (list) and a LIKE or GLOB that cannot fail (safeLike). MapExpr rebuilds every node of that set, so shifting the
// columns of a pushable expression is exact.
func pushSide(c Expr, nl int) int {
	side := sideConst
	WalkExpr(c, func(x Expr) {
		switch x := x.(type) {
		case *ColRef:
			s := sideLeft
			if x.Idx >= nl {
				s = sideRight
			}
			switch side {
			case sideConst:
				side = s
			case sideNone, s:
			default:
				side = sideBoth
			}
		case *Const, *Param, *Unary, *Binary, *Affinity, *Collate, *Cast, *IsNull, *Between, *InList:
		case *Like:
			if !safeLike(x) {
				side = sideNone
			}
		default:
			side = sideNone
		}
	})
	return side
}

// safeLike reports whether l can never fail: a LIKE or GLOB whose pattern
// is a literal that compiles and whose ESCAPE, if any, is a literal single
// character (a column's pattern could be too long, an ESCAPE of two
// characters is an error, REGEXP patterns can be invalid).
func safeLike(l *Like) bool {
	pat, ok := l.Pat.(*Const)
	if !ok || pat.V.Kind() != types.KindText {
		return false
	}
	switch {
	case l.Op == "GLOB" && l.Escape == nil:
		_, err := funcs.CompileGlob(pat.V.Text())
		return err == nil
	case l.Op != "LIKE":
		return false
	}
	esc := rune(0)
	if l.Escape != nil {
		e, ok := l.Escape.(*Const)
		if !ok || e.V.Kind() != types.KindText || utf8.RuneCountInString(e.V.Text()) != 1 {
			return false
		}
		esc, _ = utf8.DecodeRuneInString(e.V.Text())
	}
	_, err := funcs.CompileLike(pat.V.Text(), esc)
	return err == nil
}
