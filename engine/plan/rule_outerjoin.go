package plan

// simplifyOuter returns the kind j has under a filter with conjuncts conds:
// an outer join whose NULL-extended rows the filter rejects anyway is an
// inner join (LEFT and RIGHT), or a one-sided outer join (FULL). SQLite
// does the same, and it matters: the filter's conditions can then move
// into the join's sides and its keys, and the join into a reordered chain.
func simplifyOuter(conds []Expr, j *Join) JoinKind {
	nl, width := len(j.Left.Columns()), len(j.Cols)
	leftNull := j.Kind == JoinRight || j.Kind == JoinFull
	rightNull := j.Kind == JoinLeft || j.Kind == JoinFull
	for _, c := range conds {
		if rightNull && rejectsNull(c, func(i int) bool { return i >= nl && i < width }) {
			rightNull = false
		}
		if leftNull && rejectsNull(c, func(i int) bool { return i >= 0 && i < nl }) {
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

// simplifyBelow applies simplifyOuter to the outer joins reachable from n
// through inner and cross joins, whose rows all reach a filter above with
// conds (over columns starting at off in the filter's input): SQLite
// simplifies them as well, and a LEFT JOIN deep in a comma join would
// otherwise keep the chain around it from being reordered.
func simplifyBelow(conds []Expr, n Node, off int) Node {
	j, ok := n.(*Join)
	if !ok {
		return n
	}
	switch j.Kind {
	case JoinInner, JoinCross:
		nl := len(j.Left.Columns())
		l, r := simplifyBelow(conds, j.Left, off), simplifyBelow(conds, j.Right, off+nl)
		if l == j.Left && r == j.Right {
			return n
		}
		nj := *j
		nj.Left, nj.Right = l, r
		return &nj
	case JoinLeft, JoinRight, JoinFull:
		local := make([]Expr, len(conds))
		for i, c := range conds {
			local[i] = shiftCols(c, -off)
		}
		if k := simplifyOuter(local, j); k != j.Kind {
			nj := *j
			nj.Kind = k
			return &nj
		}
	}
	return n
}
