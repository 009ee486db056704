package plan

import (
	"strconv"

	"github.com/ladybugsql/ladybug/grammar"
)

// ordinalOf reports whether e is an integer constant as SQLite's
// sqlite3ExprIsInteger sees it, which makes an ORDER BY or GROUP BY term
// a column number: an integer literal that fits in 32 bits (decimal or
// hex), under any unary signs. SQLite's parser also turns "x IS NULL" and
// "x IS NOT NULL" (and ISNULL, NOTNULL, IS [NOT] DISTINCT FROM NULL) into
// the integer 0 or 1 when x, under any signs, is a literal number, string
// or blob, or such a folded term, so "GROUP BY (2.5 IS NOT NULL)" names
// column 1, and "y AND 0" into 0 when neither side calls a function.
func ordinalOf(e grammar.Expr) (int64, bool) {
	if u, ok := e.(*grammar.UnaryExpr); ok {
		switch u.Op {
		case grammar.OpPlus:
			return ordinalOf(u.X)
		case grammar.OpNeg:
			v, ok := ordinalOf(u.X)
			return -v, ok
		}
	}
	return parsedInt(e)
}

// parsedInt returns the small integer constant SQLite's parser makes of e:
// a literal that fits in 32 bits, a NULL test on a literal (0 or 1), or an
// AND with a side that is such a 0 and no function call on either side
// (sqlite3ExprAnd makes it 0).
func parsedInt(e grammar.Expr) (int64, bool) {
	switch x := e.(type) {
	case *grammar.Literal:
		if x.Kind != grammar.LitInt {
			return 0, false
		}
		return int32Literal(x.Value)
	case *grammar.BinaryExpr:
		if x.Op == grammar.OpAnd {
			if hasFuncCall(x.L) || hasFuncCall(x.R) {
				return 0, false // sqlite3ExprAnd leaves an AND with a call in it (EP_HasFunc)
			}
			return 0, andIsZero(x)
		}
	}
	return foldedIsNull(e)
}

// andIsZero reports whether a side of the AND e is a literal 0, a false
// NULL test of a literal, or such an AND: what sqlite3ExprAnd makes 0 when
// neither side calls a function, which the caller checks once for the
// whole of e (the sides of a nested AND are parts of e's sides). It walks
// only the chain of ANDs, so a long chain costs its length, not more.
func andIsZero(e *grammar.BinaryExpr) bool {
	for _, side := range [2]grammar.Expr{e.L, e.R} {
		if b, ok := side.(*grammar.BinaryExpr); ok && b.Op == grammar.OpAnd {
			if andIsZero(b) {
				return true
			}
			continue
		}
		if v, ok := parsedInt(side); ok && v == 0 {
			return true
		}
	}
	return false
}

// hasFuncCall reports whether e calls a function outside its subqueries,
// as SQLite's EP_HasFunc: function calls, LIKE/GLOB and the JSON arrows,
// which SQLite parses into calls.
func hasFuncCall(e grammar.Expr) bool {
	found := false
	grammar.Walk(e, func(n grammar.Node) bool {
		switch x := n.(type) {
		case *grammar.FuncCall, *grammar.LikeExpr:
			found = true
		case *grammar.BinaryExpr:
			found = found || x.Op == grammar.OpJSONExtract || x.Op == grammar.OpJSONExtractText
		case *grammar.SelectStmt:
			return false
		}
		return !found
	})
	return found
}

// int32Literal parses an integer literal as sqlite3GetInt32 does: values
// beyond 2147483647 are not small integers.
func int32Literal(s string) (int64, bool) {
	base := 10
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s, base = s[2:], 16
	}
	v, err := strconv.ParseInt(s, base, 64)
	if err != nil || v > 1<<31-1 {
		return 0, false
	}
	return v, true
}

// foldedIsNull returns the integer SQLite's parser makes of a NULL test on
// a literal (see ordinalOf).
func foldedIsNull(e grammar.Expr) (int64, bool) {
	var operand grammar.Expr
	var notNull bool
	switch x := e.(type) {
	case *grammar.IsNullExpr:
		operand, notNull = x.X, x.Not
	case *grammar.BinaryExpr:
		r, ok := x.R.(*grammar.Literal)
		if !ok || r.Kind != grammar.LitNull {
			return 0, false
		}
		switch x.Op {
		case grammar.OpIs, grammar.OpIsNotDistinctFrom:
		case grammar.OpIsNot, grammar.OpIsDistinctFrom:
			notNull = true
		default:
			return 0, false
		}
		operand = x.L
	default:
		return 0, false
	}
	for {
		u, ok := operand.(*grammar.UnaryExpr)
		if !ok || u.Op != grammar.OpPlus && u.Op != grammar.OpNeg {
			break
		}
		operand = u.X
	}
	constant := false
	if l, ok := operand.(*grammar.Literal); ok {
		switch l.Kind {
		case grammar.LitInt, grammar.LitReal, grammar.LitString, grammar.LitBlob:
			constant = true
		}
	} else if _, ok := parsedInt(operand); ok {
		constant = true
	}
	if !constant {
		return 0, false
	}
	if notNull {
		return 1, true
	}
	return 0, true
}
