package plan

import (
	"slices"

	"github.com/ladybugsql/ladybug/engine/types"
)

// The affinity of a compound SELECT's columns, as SQLite gives it
// (sqlite3SubqueryColumnTypes) to a compound read as a FROM item, view or
// CTE: the leftmost arm's that has one; none (BLOB) when that is TEXT and
// a later arm can be numeric, or numeric and a later arm can be text; and
// NUMERIC for a numeric CAST in the leftmost arm (SQLite's FLEXNUM, which
// compares as NUMERIC does). A compound used as an expression (a scalar
// or IN subquery) takes its rightmost arm's affinity instead
// (sqlite3ExprAffinity of the select's expression list): see rightmostArm.

// The storage classes an expression's value can take, by SQLite's guess
// (sqlite3ExprDataType).
const (
	mayNumeric uint8 = 1 << iota
	mayText
	mayBlob
	mayAny = mayNumeric | mayText | mayBlob
)

// armColumn is what the compound affinity rule needs of one arm's column.
type armColumn struct {
	aff   types.Affinity
	kinds uint8
	cast  bool // the column is a CAST expression
}

// compoundColumns returns the columns of compound s: the leftmost arm's,
// with the affinity of the whole compound.
func compoundColumns(s *SetOp) []Column {
	nodes := compoundArms(s)
	arms := make([][]armColumn, len(nodes))
	for i, arm := range nodes {
		arms[i] = armColumns(arm)
	}
	cols := slices.Clone(s.Left.Columns())
	for i := range cols {
		cols[i].Affinity = compoundAffinity(arms, i)
	}
	return cols
}

// compoundAffinity is SQLite's affinity of column i of the compound whose
// arms, left to right, are arms.
func compoundAffinity(arms [][]armColumn, i int) types.Affinity {
	var m uint8
	j := 0
	aff := arms[0][i].aff
	for aff == types.AffinityNone && j+1 < len(arms) {
		m |= arms[j][i].kinds
		j++
		aff = arms[j][i].aff
	}
	if aff < types.AffinityText || j+1 == len(arms) && j == 0 {
		return aff
	}
	for _, arm := range arms[j+1:] {
		m |= arm[i].kinds
	}
	switch {
	case aff == types.AffinityText && m&mayNumeric != 0:
		return types.AffinityBlob
	case aff.IsNumeric() && m&mayText != 0:
		return types.AffinityBlob
	case aff.IsNumeric() && arms[0][i].cast:
		return types.AffinityNumeric
	}
	return aff
}

// compoundArms lists the SELECTs of a chain of compound operators, left
// to right.
func compoundArms(n Node) []Node { return appendArms(make([]Node, 0, 4), n) }

func appendArms(dst []Node, n Node) []Node {
	if s, ok := n.(*SetOp); ok {
		return appendArms(appendArms(dst, s.Left), s.Right)
	}
	return append(dst, n)
}

// rightmostArm is the last SELECT of a compound query (n itself when it is
// not one), whose expressions give a scalar or IN subquery its affinity.
func rightmostArm(n Node) Node {
	for {
		n = belowOrder(n)
		s, ok := n.(*SetOp)
		if !ok {
			return n
		}
		n = s.Right
	}
}

// isCompound reports whether query root n is a compound SELECT (under its
// ORDER BY and LIMIT).
func isCompound(n Node) bool {
	_, ok := belowOrder(n).(*SetOp)
	return ok
}

// belowOrder is query root n without its ORDER BY and LIMIT.
func belowOrder(n Node) Node {
	for {
		switch x := n.(type) {
		case *Sort:
			n = x.Input
		case *Limit:
			n = x.Input
		default:
			return n
		}
	}
}

// armColumns describes the columns of one arm.
func armColumns(arm Node) []armColumn {
	n := arm
	for {
		switch x := n.(type) {
		case *Distinct:
			n = x.Input
			continue
		case *Project:
			return exprColumns(x.Exprs)
		case *Values:
			if len(x.Rows) == 1 {
				return exprColumns(x.Rows[0])
			}
			// SQLite reads VALUES of several rows from a co-routine, as
			// a subquery's columns without affinity.
			out := make([]armColumn, len(x.Cols))
			for i := range out {
				out[i] = armColumn{kinds: mayAny}
			}
			return out
		}
		break
	}
	cols := arm.Columns()
	out := make([]armColumn, len(cols))
	for i, c := range cols {
		out[i] = armColumn{aff: c.Affinity, kinds: affinityKinds(c.Affinity)}
	}
	return out
}

func exprColumns(exprs []Expr) []armColumn {
	out := make([]armColumn, len(exprs))
	for i, x := range exprs {
		_, cast := x.(*Cast)
		out[i] = armColumn{aff: ExprAffinity(x), kinds: exprKinds(x), cast: cast}
	}
	return out
}

// exprKinds is sqlite3ExprDataType: the storage classes e can yield (none
// for NULL).
func exprKinds(e Expr) uint8 {
	switch x := e.(type) {
	case *Collate:
		return exprKinds(x.X)
	case *Unary:
		if x.Op == "+" {
			return exprKinds(x.X)
		}
	case *Const:
		switch x.V.Kind() {
		case types.KindNull:
			return 0
		case types.KindText:
			return mayText
		case types.KindBlob:
			return mayBlob
		}
	case *Binary:
		if x.Op == "||" {
			return mayText | mayBlob
		}
	case *Param, *Func, *AggRef:
		return mayAny
	case *ColRef, *OuterRef, *Cast, *ScalarSub, *Affinity:
		return affinityKinds(ExprAffinity(e))
	case *Case:
		var k uint8
		for _, w := range x.Whens {
			k |= exprKinds(w.Then)
		}
		if x.Else != nil {
			k |= exprKinds(x.Else)
		}
		return k
	}
	return mayNumeric
}

// affinityKinds is the storage classes a value of affinity a can have.
func affinityKinds(a types.Affinity) uint8 {
	switch {
	case a.IsNumeric():
		return mayNumeric | mayBlob
	case a == types.AffinityText:
		return mayText | mayBlob
	}
	return mayAny
}
