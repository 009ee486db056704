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

// simplifyJoins applies simplifyOuter down the tree, top-down, with every
// condition that sees an outer join's rows: a filter's, and an inner
// join's keys and ON (an outer join below either side of an inner join,
// or below the NULL-extended side of an outer join, loses the rows the
// join's conditions reject, as a WHERE's), so that
//
//	X LEFT JOIN F ON p JOIN G ON G.k = F.k
//
// joins F as an inner join (G.k = F.k is never true on F's NULLs), as
// SQLite simplifies it. pushdown-filters simplifies under filters only;
// join-order runs this first, so the chain it orders includes such joins.
func simplifyJoins(n Node) Node {
	if !hasOuterJoin(n) {
		return n
	}
	return simplifyUnder(n, nil)
}

// hasOuterJoin reports whether n's tree holds a LEFT, RIGHT or FULL join.
func hasOuterJoin(n Node) bool {
	if j, ok := n.(*Join); ok && (j.Kind == JoinLeft || j.Kind == JoinRight || j.Kind == JoinFull) {
		return true
	}
	return !eachInput(n, func(c Node) bool { return !hasOuterJoin(c) })
}

// nullCond is a condition over a column space in which the node it is
// passed to starts at column d.
type nullCond struct {
	e Expr
	d int
}

// rejects reports whether one of conds is never true when the node's
// columns lo..hi-1 are all NULL.
func rejects(conds []nullCond, lo, hi int) bool {
	for _, c := range conds {
		if rejectsNull(c.e, func(i int) bool { return i-c.d >= lo && i-c.d < hi }) {
			return true
		}
	}
	return false
}

// withConds is conds and the conjuncts of e (over the node's columns
// shifted by d).
func withConds(conds []nullCond, e Expr, d int) []nullCond {
	out := append([]nullCond{}, conds...)
	for _, c := range Conjuncts(e) {
		out = append(out, nullCond{c, d})
	}
	return out
}

// shifted is conds for a child whose columns start at column nl of its
// parent.
func shifted(conds []nullCond, nl int) []nullCond {
	out := make([]nullCond, len(conds))
	for i, c := range conds {
		out[i] = nullCond{c.e, c.d + nl}
	}
	return out
}

// simplifyUnder simplifies n's tree under conds.
func simplifyUnder(n Node, conds []nullCond) Node {
	switch x := n.(type) {
	case *Filter:
		in := simplifyUnder(x.Input, withConds(conds, x.Pred, 0))
		if in == x.Input {
			return n
		}
		nf := *x
		nf.Input = in
		return &nf
	case *Project:
		if plainProject(x) && len(conds) > 0 {
			in := simplifyUnder(x.Input, throughProject(conds, x))
			if in == x.Input {
				return n
			}
			np := *x
			np.Input = in
			return &np
		}
	case *Join:
		return simplifyJoin(x, conds)
	}
	return mapChildren(n, func(c Node) Node { return simplifyUnder(c, nil) })
}

// throughProject is conds over plain projection p's input: the pushable
// ones, their columns read through p (columns outside p become -1).
func throughProject(conds []nullCond, p *Project) []nullCond {
	var out []nullCond
	for _, c := range conds {
		if pushSide(c.e, 1<<30) == sideNone {
			continue
		}
		out = append(out, nullCond{remapCols(c.e, func(i int) int {
			if k := i - c.d; k >= 0 && k < len(p.Exprs) {
				return p.Exprs[k].(*ColRef).Idx
			}
			return -1
		}), 0})
	}
	return out
}

// simplifyJoin simplifies j under conds, then its sides under the
// conditions that see their rows.
func simplifyJoin(j *Join, conds []nullCond) Node {
	nl, width := len(j.Left.Columns()), len(j.Cols)
	kind := j.Kind
	if kind == JoinLeft || kind == JoinRight || kind == JoinFull {
		leftNull := (kind == JoinRight || kind == JoinFull) && !rejects(conds, 0, nl)
		rightNull := (kind == JoinLeft || kind == JoinFull) && !rejects(conds, nl, width)
		switch {
		case leftNull && rightNull:
			kind = JoinFull
		case leftNull:
			kind = JoinRight
		case rightNull:
			kind = JoinLeft
		case len(j.LeftKeys) == 0 && j.On == nil:
			kind = JoinCross
		default:
			kind = JoinInner
		}
	}
	var own []nullCond
	if kind != JoinFull && !kind.SemiLike() {
		own = withConds(nil, j.On, 0)
		for i := range j.LeftKeys {
			own = append(own, nullCond{j.LeftKeys[i], 0}, nullCond{j.RightKeys[i], -nl})
		}
	}
	with := append(conds[:len(conds):len(conds)], own...)
	lc, rc := conds, shifted(conds, nl)
	switch kind {
	case JoinInner, JoinCross:
		lc, rc = with, shifted(with, nl)
	case JoinLeft:
		rc = shifted(with, nl)
	case JoinRight:
		lc = with
	case JoinSemi, JoinAnti:
		rc = nil
	}
	l, r := simplifyUnder(j.Left, lc), simplifyUnder(j.Right, rc)
	if l == j.Left && r == j.Right && kind == j.Kind {
		return j
	}
	nj := *j
	nj.Kind, nj.Left, nj.Right = kind, l, r
	return &nj
}
