package plan

// nodeExprs lists the expressions node n evaluates itself (its inputs'
// are theirs). CTE bodies are not included: they are plans of their own.
func nodeExprs(n Node) []Expr {
	switch x := n.(type) {
	case *Scan:
		var out []Expr
		if r := x.Lookup; r != nil {
			out = append(append(out, r.Eq, r.Lo, r.Hi), r.In...)
			if r.InSub != nil {
				out = append(out, r.InSub)
			}
		}
		if r := x.Index; r != nil {
			out = append(append(out, r.Eq...), r.Lo, r.Hi)
			if r.InSub != nil {
				out = append(out, r.InSub)
			}
		}
		return out
	case *Filter:
		return []Expr{x.Pred}
	case *Project:
		return x.Exprs
	case *Limit:
		return []Expr{x.Limit, x.Offset}
	case *Sort:
		return append(sortExprs(x.Keys), x.Limit, x.Offset)
	case *Aggregate:
		out := append([]Expr{}, x.Group...)
		for _, a := range x.Aggs {
			out = append(append(append(out, a.Args...), a.Filter), sortExprs(a.OrderBy)...)
		}
		return out
	case *Join:
		return append(append([]Expr{x.On}, x.LeftKeys...), x.RightKeys...)
	case *Values:
		var out []Expr
		for _, r := range x.Rows {
			out = append(out, r...)
		}
		return out
	case *Window:
		var out []Expr
		for _, f := range x.Funcs {
			out = append(append(append(out, f.Args...), f.Filter, f.Frame.Start, f.Frame.End), f.Partition...)
			out = append(out, sortExprs(f.Order)...)
		}
		return out
	case *TableFunc:
		return x.Args
	case *Lateral:
		return append([]Expr{x.On}, x.Func.Args...)
	case *GraphExpand:
		return append(append([]Expr{}, x.Start...), x.Target...)
	}
	return nil
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
	var err error
	if k == 2 {
		n, err = n.WithChildren(na, nb)
	} else {
		n, err = n.WithChildren(na)
	}
	if err != nil {
		panic(err) // as in mapChildren
	}
	return fn(n)
}

// mapChildren is n with each child replaced by fn of it (n itself when
// none changes, else a copy, as Transform makes).
func mapChildren(n Node, fn func(Node) Node) Node {
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
	nn, err := n.WithChildren(out...)
	if err != nil {
		// Children and WithChildren of one node disagree: a bug that
		// TestNode_ChildrenRoundTrip catches for every node type.
		panic(err)
	}
	return nn
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
		for _, e := range nodeExprs(x) {
			if exprReadsOuter(e) {
				found = true
			}
		}
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
	for _, e := range nodeExprs(n) {
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
	}
	return subs, list
}
