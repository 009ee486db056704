package plan

// simplifyOuter returns the kind j has under a filter with conjuncts conds:
// an outer join whose NULL-extended rows the filter rejects anyway is an
// inner join (LEFT and RIGHT), or a one-sided outer join (FULL). SQLite
// does the same, and it matters: the filter's conditions can then move
// into the join's sides and its keys, and the join into a reordered chain.
func simplifyOuter(conds []Expr, j *Join) JoinKind {
	nl := len(j.Left.Columns())
	leftNull := j.Kind == JoinRight || j.Kind == JoinFull
	rightNull := j.Kind == JoinLeft || j.Kind == JoinFull
	for _, c := range conds {
		if rightNull && rejectsNull(c, func(i int) bool { return i >= nl }) {
			rightNull = false
		}
		if leftNull && rejectsNull(c, func(i int) bool { return i < nl }) {
			leftNull = false
		}
	}
	switch {
	case leftNull && rightNull:
		return JoinFull
	case leftNull:
		return JoinRight
	case rightNull:
		return JoinLeft
	}
	return JoinInner
}

// rejectsNull reports whether c is never true on a row whose columns in
// side are all NULL.
func rejectsNull(c Expr, side func(int) bool) bool {
	switch x := c.(type) {
	case *Binary:
		switch x.Op {
		case "AND":
			return rejectsNull(x.L, side) || rejectsNull(x.R, side)
		case "OR":
			return rejectsNull(x.L, side) && rejectsNull(x.R, side)
		}
	case *InList:
		return nullOn(x.X, side)
	case *Between:
		return nullOn(x.X, side) || nullOn(x.Lo, side) || nullOn(x.Hi, side)
	case *Like:
		return nullOn(x.X, side) || nullOn(x.Pat, side)
	}
	return nullOn(c, side)
}

// nullOn reports whether e is NULL whenever the columns in side are: it
// reads one of them through operators that return NULL for a NULL operand.
func nullOn(e Expr, side func(int) bool) bool {
	switch x := e.(type) {
	case *ColRef:
		return side(x.Idx)
	case *Binary:
		switch x.Op {
		case "AND", "OR", "IS", "IS NOT":
			return false
		}
		return nullOn(x.L, side) || nullOn(x.R, side)
	case *Unary:
		return nullOn(x.X, side)
	case *Affinity:
		return nullOn(x.X, side)
	case *Collate:
		return nullOn(x.X, side)
	case *Cast:
		return nullOn(x.X, side)
	case *InList:
		return nullOn(x.X, side)
	case *Between:
		return nullOn(x.X, side)
	}
	return false
}
