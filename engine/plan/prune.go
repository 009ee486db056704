package plan

// pruneColumns marks, in every Scan, the columns the plan above it reads,
// so the scan decodes only those. need is the set of n's output columns
// its consumer reads (nil = all).
func pruneColumns(n Node, need []bool) {
	switch x := n.(type) {
	case *Scan:
		x.Needed = nil
		if need != nil && !x.Table.Virtual {
			// One entry per output column: the table's, then the rowid.
			x.Needed = make([]bool, len(x.Cols))
			copy(x.Needed, need)
		}
	case *Filter:
		in := union(need, len(x.Input.Columns()), x.Pred)
		pruneColumns(x.Input, in)
	case *Project:
		pruneColumns(x.Input, union(make([]bool, len(x.Input.Columns())), 0, x.Exprs...))
	case *Limit:
		pruneColumns(x.Input, need)
	case *Sort:
		in := union(need, len(x.Input.Columns()), sortExprs(x.Keys)...)
		pruneColumns(x.Input, in)
	case *Aggregate:
		exprs := append([]Expr{}, x.Group...)
		for _, a := range x.Aggs {
			exprs = append(exprs, a.Args...)
			exprs = append(exprs, a.Filter)
			exprs = append(exprs, sortExprs(a.OrderBy)...)
		}
		pruneColumns(x.Input, union(make([]bool, len(x.Input.Columns())), 0, exprs...))
	case *Join:
		pruneJoin(x, need)
	case *Window:
		nin := len(x.Input.Columns())
		var in []bool
		if need != nil {
			in = append([]bool{}, need[:nin]...)
		}
		var exprs []Expr
		for _, f := range x.Funcs {
			exprs = append(exprs, f.Args...)
			exprs = append(exprs, f.Filter)
			exprs = append(exprs, f.Partition...)
			exprs = append(exprs, sortExprs(f.Order)...)
		}
		pruneColumns(x.Input, union(in, nin, exprs...))
	case *Distinct:
		pruneColumns(x.Input, nil)
	case *Lateral:
		pruneColumns(x.Left, nil)
	case *GraphExpand:
		pruneGraph(x, need)
	case *SetOp:
		pruneColumns(x.Left, nil)
		pruneColumns(x.Right, nil)
	}
}

func pruneJoin(j *Join, need []bool) {
	nl := len(j.Left.Columns())
	all := union(need, len(j.Cols), j.On)
	all = union(all, len(j.Cols), j.LeftKeys...)
	right := union(nil, 0, j.RightKeys...)
	var l, r []bool
	if all != nil {
		// A semi or anti join's own output is its left columns only, so
		// all may stop short of the right side's.
		nr := len(j.Right.Columns())
		l = append([]bool{}, all[:nl]...)
		r = make([]bool, nr)
		if len(all) > nl {
			copy(r, all[nl:])
		}
		for i, b := range right {
			if i < len(r) && b {
				r[i] = true
			}
		}
	}
	pruneColumns(j.Left, l)
	pruneColumns(j.Right, r)
}

func sortExprs(keys []SortKey) []Expr {
	out := make([]Expr, len(keys))
	for i, k := range keys {
		out[i] = k.Expr
	}
	return out
}

// union returns need plus the columns exprs read; nil (all) stays nil, and
// a correlated subquery makes every column needed.
func union(need []bool, n int, exprs ...Expr) []bool {
	if need == nil && n > 0 {
		return nil
	}
	out := need
	for _, e := range exprs {
		all := false
		WalkExpr(e, func(x Expr) {
			switch x := x.(type) {
			case *ColRef:
				for len(out) <= x.Idx {
					out = append(out, false)
				}
				out[x.Idx] = true
			case *ScalarSub:
				all = all || x.Sub.Correlated
			case *Exists:
				all = all || x.Sub.Correlated
			case *InSub:
				all = all || x.Sub.Correlated
			}
		})
		if all {
			return nil
		}
	}
	return out
}
