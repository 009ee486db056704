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
		for _, c := range collationOperands(e) {
			if hasExplicitCollate(c) {
				next = c
				break
			}
		}
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
	for _, c := range collationOperands(e) {
		if hasExplicitCollate(c) {
			return true
		}
	}
	return false
}

// collationOperands lists e's operands in the order SQLite's expression
// tree holds them (left operand, then the argument list, then the right):
// CASE is operand, WHEN, THEN, …, ELSE; LIKE is a function of (pattern, x,
// escape); BETWEEN is x then (lo, hi).
func collationOperands(e Expr) []Expr {
	switch x := e.(type) {
	case *Case:
		out := []Expr{x.Operand}
		for _, w := range x.Whens {
			out = append(out, w.Cond, w.Then)
		}
		return append(out, x.Else)
	case *Like:
		return []Expr{x.Pat, x.X, x.Escape}
	case *InSub:
		return x.X
	}
	return children(e)
}
