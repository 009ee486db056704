package plan

// eachNodeExpr calls fn for each expression node n evaluates itself (its
// inputs' are theirs), nil ones included, without building a list of
// them. CTE bodies are not included: they are plans of their own.
func eachNodeExpr(n Node, fn func(Expr)) {
	all := func(es []Expr) {
		for _, e := range es {
			fn(e)
		}
	}
	keys := func(ks []SortKey) {
		for _, k := range ks {
			fn(k.Expr)
		}
	}
	switch x := n.(type) {
	case *Scan:
		if r := x.Lookup; r != nil {
			fn(r.Eq)
			fn(r.Lo)
			fn(r.Hi)
			all(r.In)
			if r.InSub != nil {
				fn(r.InSub)
			}
		}
		if r := x.Index; r != nil {
			all(r.Eq)
			fn(r.Lo)
			fn(r.Hi)
			if r.InSub != nil {
				fn(r.InSub)
			}
		}
	case *Filter:
		fn(x.Pred)
	case *Project:
		all(x.Exprs)
	case *Limit:
		fn(x.Limit)
		fn(x.Offset)
	case *Sort:
		keys(x.Keys)
		fn(x.Limit)
		fn(x.Offset)
	case *Aggregate:
		all(x.Group)
		for _, a := range x.Aggs {
			all(a.Args)
			fn(a.Filter)
			keys(a.OrderBy)
		}
	case *Join:
		fn(x.On)
		all(x.LeftKeys)
		all(x.RightKeys)
	case *Values:
		for _, r := range x.Rows {
			all(r)
		}
	case *Window:
		for _, f := range x.Funcs {
			all(f.Args)
			fn(f.Filter)
			fn(f.Frame.Start)
			fn(f.Frame.End)
			all(f.Partition)
			keys(f.Order)
		}
	case *TableFunc:
		all(x.Args)
	case *Lateral:
		fn(x.On)
		all(x.Func.Args)
	case *GraphExpand:
		all(x.Start)
		all(x.Target)
	}
}

// Walk calls fn for n and, while fn returns true, for every node below it
// (depth first, children in order), not entering subqueries or CTE terms.
func Walk(n Node, fn func(Node) bool) {
	if !fn(n) {
		return
	}
	if in, ok := n.(fixedInputs); ok {
		a, b, k := in.inputs()
		Walk(a, fn)
		if k == 2 {
			Walk(b, fn)
		}
		return
	}
	for _, c := range n.Children() {
		Walk(c, fn)
	}
}

// walkPlan calls fn for n and every node below it, not entering
// subqueries.
func walkPlan(n Node, fn func(Node)) {
	Walk(n, func(x Node) bool { fn(x); return true })
}

// Transform applies fn bottom-up to every node of the tree rooted at n and
// returns the new root. A node whose children fn changed is copied
// (WithChildren) before fn sees it; an unchanged subtree is kept as is.
func Transform(n Node, fn func(Node) Node) Node {
	in, ok := n.(fixedInputs)
	if !ok {
		return fn(mapChildren(n, func(c Node) Node { return Transform(c, fn) }))
	}
	a, b, k := in.inputs()
	na := Transform(a, fn)
	var nb Node
	if k == 2 {
		nb = Transform(b, fn)
	}
	if na == a && nb == b {
		return fn(n)
	}
	if k == 2 {
		return fn(mustWith(n.WithChildren(na, nb)))
	}
	return fn(mustWith(n.WithChildren(na)))
}

// mapChildren is n with each child replaced by fn of it (n itself when
// none changes, else a copy, as Transform makes).
func mapChildren(n Node, fn func(Node) Node) Node {
	if in, ok := n.(fixedInputs); ok {
		a, b, k := in.inputs()
		na := fn(a)
		if k == 1 {
			if na == a {
				return n
			}
			return mustWith(n.WithChildren(na))
		}
		if nb := fn(b); na != a || nb != b {
			return mustWith(n.WithChildren(na, nb))
		}
		return n
	}
	cs := n.Children()
	var out []Node
	for i, c := range cs {
		nc := fn(c)
		if nc != c && out == nil {
			out = append(make([]Node, 0, len(cs)), cs[:i]...)
		}
		if out != nil {
			out = append(out, nc)
		}
	}
	if out == nil {
		return n
	}
	return mustWith(n.WithChildren(out...))
}

// mustWith is WithChildren's node; an error means Children and
// WithChildren of one node disagree: a bug that TestNode_ChildrenRoundTrip
// catches for every node type.
func mustWith(n Node, err error) Node {
	if err != nil {
		panic(err)
	}
	return n
}

// exprSubqueries calls fn for every subquery e holds, not entering their
// plans.
func exprSubqueries(e Expr, fn func(*Subquery)) {
	WalkExpr(e, func(x Expr) {
		switch x := x.(type) {
		case *ScalarSub:
			fn(x.Sub)
		case *Exists:
			fn(x.Sub)
		case *InSub:
			fn(x.Sub)
		}
	})
}

// readsOuter reports whether any expression of plan n reads an enclosing
// query's row: an OuterRef, or a correlated subquery (whose OuterRefs may
// reach past n). CTE references count as reading it, conservatively.
func readsOuter(n Node) bool {
	found := false
	walkPlan(n, func(x Node) {
		if _, ok := x.(*CTERef); ok {
			found = true
		}
		eachNodeExpr(x, func(e Expr) {
			if exprReadsOuter(e) {
				found = true
			}
		})
	})
	return found
}

// exprReadsOuter reports whether e holds an OuterRef or a correlated
// subquery.
func exprReadsOuter(e Expr) bool {
	found := false
	WalkExpr(e, func(x Expr) {
		if _, ok := x.(*OuterRef); ok {
			found = true
		}
	})
	exprSubqueries(e, func(s *Subquery) { found = found || s.Correlated })
	return found
}

// NodeSubqueries lists the subqueries n's own expressions hold, each once,
// in order, with whether each is an IN list.
func NodeSubqueries(n Node) (subs []*Subquery, list []bool) {
	seen := map[*Subquery]bool{}
	eachNodeExpr(n, func(e Expr) {
		WalkExpr(e, func(x Expr) {
			var s *Subquery
			in := false
			switch x := x.(type) {
			case *ScalarSub:
				s = x.Sub
			case *Exists:
				s = x.Sub
			case *InSub:
				s, in = x.Sub, true
			}
			if s != nil && !seen[s] {
				seen[s] = true
				subs, list = append(subs, s), append(list, in)
			}
		})
	})
	return subs, list
}
