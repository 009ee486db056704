package plan

// pruneColumns marks, in every Scan, the columns the plan above it reads,
// so the scan decodes only those. need is the set of n's output columns
// its consumer reads (nil = all).
func pruneColumns(n Node, need []bool) {
	var p pruner
	p.prune(n, need)
}

// pruner carves the column sets of one pruning walk, the Needed of scans
// and joins included, out of shared chunks instead of allocating each: a
// walk builds one per projection, aggregate, join, join side and scan.
type pruner struct{ free []bool }

// set returns n cleared entries of a chunk, capacity n, so an append to
// them cannot reach another set's.
func (p *pruner) set(n int) []bool {
	if len(p.free) < n {
		p.free = make([]bool, max(n, 64))
	}
	out := p.free[:n:n]
	p.free = p.free[n:]
	return out
}

func (p *pruner) prune(n Node, need []bool) {
	switch x := n.(type) {
	case *Scan:
		x.Needed = nil
		if need != nil && !x.Table.Virtual {
			// One entry per output column: the table's, then the rowid.
			x.Needed = p.set(len(x.Cols))
			copy(x.Needed, need)
		}
	case *Filter:
		in := union(need, len(x.Input.Columns()), x.Pred)
		p.prune(x.Input, in)
	case *Project:
		in := newColSet(p.set(len(x.Input.Columns())), 0)
		for i, e := range x.Exprs {
			// A column passed through that nothing above reads is not
			// needed below (any other expression still runs).
			if _, ok := e.(*ColRef); !ok || need == nil || (i < len(need) && need[i]) {
				in.add(e)
			}
		}
		p.prune(x.Input, in.result())
	case *Limit:
		p.prune(x.Input, need)
	case *Sort:
		in := newColSet(need, len(x.Input.Columns()))
		in.addKeys(x.Keys)
		p.prune(x.Input, in.result())
	case *Aggregate:
		in := newColSet(p.set(len(x.Input.Columns())), 0)
		in.add(x.Group...)
		for _, a := range x.Aggs {
			in.add(a.Args...)
			in.add(a.Filter)
			in.addKeys(a.OrderBy)
		}
		p.prune(x.Input, in.result())
	case *Join:
		p.pruneJoin(x, need)
	case *Window:
		nin := len(x.Input.Columns())
		var need0 []bool
		if need != nil {
			need0 = p.set(nin)
			copy(need0, need[:nin])
		}
		in := newColSet(need0, nin)
		for _, f := range x.Funcs {
			in.add(f.Args...)
			in.add(f.Filter)
			in.add(f.Partition...)
			in.addKeys(f.Order)
		}
		p.prune(x.Input, in.result())
	case *Distinct:
		p.prune(x.Input, nil)
	case *Lateral:
		p.prune(x.Left, nil)
	case *GraphExpand:
		pruneGraph(x, need)
	case *SetOp:
		p.prune(x.Left, nil)
		p.prune(x.Right, nil)
	}
}

func (p *pruner) pruneJoin(j *Join, need []bool) {
	nl := len(j.Left.Columns())
	all := union(need, len(j.Cols), j.On)
	all = union(all, len(j.Cols), j.LeftKeys...)
	j.Needed = nil
	var l, r []bool
	if all != nil {
		if !j.Kind.SemiLike() {
			j.Needed = p.set(len(j.Cols))
			copy(j.Needed, all)
		}
		right := union(nil, 0, j.RightKeys...)
		// A semi or anti join's own output is its left columns only, so
		// all may stop short of the right side's.
		nr := len(j.Right.Columns())
		l = p.set(nl)
		copy(l, all[:nl])
		r = p.set(nr)
		if len(all) > nl {
			copy(r, all[nl:])
		}
		for i, b := range right {
			if i < len(r) && b {
				r[i] = true
			}
		}
	}
	p.prune(j.Left, l)
	p.prune(j.Right, r)
}

// union returns need plus the columns exprs read; nil (all) stays nil, and
// a correlated subquery makes every column needed.
func union(need []bool, n int, exprs ...Expr) []bool {
	s := newColSet(need, n)
	s.add(exprs...)
	return s.result()
}

// colSet gathers the columns of an input that expressions read, as union
// does, one expression list at a time without building one list of them
// all.
type colSet struct {
	out []bool
	all bool // every column: the consumer's need was all, or a correlated subquery
}

// newColSet starts from need, the columns already needed of an n-column
// input (nil with n > 0 is all of them).
func newColSet(need []bool, n int) colSet {
	return colSet{out: need, all: need == nil && n > 0}
}

// add marks the columns exprs read.
func (s *colSet) add(exprs ...Expr) {
	for _, e := range exprs {
		if s.all {
			return
		}
		WalkExpr(e, func(x Expr) {
			switch x := x.(type) {
			case *ColRef:
				for len(s.out) <= x.Idx {
					s.out = append(s.out, false)
				}
				s.out[x.Idx] = true
			case *ScalarSub:
				s.all = s.all || x.Sub.Correlated
			case *Exists:
				s.all = s.all || x.Sub.Correlated
			case *InSub:
				s.all = s.all || x.Sub.Correlated
			}
		})
	}
}

// addKeys marks the columns sort keys read.
func (s *colSet) addKeys(keys []SortKey) {
	for _, k := range keys {
		s.add(k.Expr)
	}
}

// result is the columns needed, nil for all.
func (s *colSet) result() []bool {
	if s.all {
		return nil
	}
	return s.out
}
