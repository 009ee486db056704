package plan

// ExprCollation is the collation an expression carries (columnCollation).
func ExprCollation(e Expr) string { return columnCollation(e) }

// columnCollation is the collation an expression carries, as SQLite's
// sqlite3ExprCollSeq finds it: a column's declared one, through CAST and
// unary plus; an explicit COLLATE; or, for any other expression, that of
// its first operand holding an explicit COLLATE somewhere below (not in a
// subquery), so "upper(CASE WHEN x COLLATE NOCASE = y THEN …)" compares
// with NOCASE. "" is BINARY.
func columnCollation(e Expr) string {
	for e != nil {
		switch x := e.(type) {
		case *ColRef:
			return x.Collate
		case *OuterRef:
			return x.Ref.Collate
		case *Collate:
			return x.Name
		case *Affinity:
			e = x.X
			continue
		case *Cast:
			e = x.X
			continue
		case *Unary:
			if x.Op == "+" {
				e = x.X
				continue
			}
		}
		var next Expr
		eachCollationOperand(e, func(c Expr) bool {
			if hasExplicitCollate(c) {
				next = c
				return false
			}
			return true
		})
		e = next
	}
	return ""
}

// hasExplicitCollate reports whether e holds a COLLATE outside subqueries
// (SQLite's EP_Collate).
func hasExplicitCollate(e Expr) bool {
	if e == nil {
		return false
	}
	if _, ok := e.(*Collate); ok {
		return true
	}
	return !eachCollationOperand(e, func(c Expr) bool { return !hasExplicitCollate(c) })
}

// eachCollationOperand calls fn for e's operands in the order SQLite's
// expression tree holds them (left operand, then the argument list, then
// the right), until fn returns false, and reports whether every call
// returned true: CASE is operand, WHEN, THEN, …, ELSE; LIKE is a function
// of (pattern, x, escape); BETWEEN is x then (lo, hi).
func eachCollationOperand(e Expr, fn func(Expr) bool) bool {
	switch x := e.(type) {
	case *Case:
		if !fn(x.Operand) {
			return false
		}
		for _, w := range x.Whens {
			if !fn(w.Cond) || !fn(w.Then) {
				return false
			}
		}
		return fn(x.Else)
	case *Like:
		return fn(x.Pat) && fn(x.X) && fn(x.Escape)
	}
	return eachChild(e, fn)
}
