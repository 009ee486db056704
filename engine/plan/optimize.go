package plan

import "github.com/ladybugsql/ladybug/engine/catalog"

// A rule rewrites a plan node; rules run in order, bottom-up, each over the
// whole tree, except join-order (joinOrderRule), which gets the root and
// walks the tree top-down itself.
type rule struct {
	name  string
	apply func(*catalog.Catalog, Node) Node
}

// joinOrderRule is the name of the one rule that walks the tree itself:
// a join chain is ordered once, at its top.
const joinOrderRule = "join-order"

// rules is the ordered list of rewrites Optimize applies.
var rules = []rule{
	{"fold-constants", nil}, // foldConstants, with the optimizer's Evaluator
	{"decorrelate", decorrelate},
	{"pushdown-filters", pushdownFilters},
	{"rowid-lookup", func(_ *catalog.Catalog, n Node) Node { return rowidLookup(n) }},
	{"rowid-in", rowidIn},
	{"index-lookup", indexLookup},
	{"decorrelate-scalar", scalarSubJoin},
	{"without-rowid-order", withoutRowidOrder},
	{"order-by-index", orderByIndex},
	{"limit-into-scan", limitIntoScan},
	{"count-from-tree", countFromTree},
	{"min-max-from-index", minMaxFromIndex},
	{"group-by-index", groupByIndex},
	{"order-by-group", orderByGroup},
	{"group-limit", groupLimit},
	{"distinct-by-index", distinctByIndex},
	{"inner-below-left", innerBelowLeft},
	{joinOrderRule, joinOrder},
	{"index-join", indexJoin},
	{"graph-lookups", graphLookups},
	{"hash-join-build-side", hashJoinBuildSide},
	{"group-by-rowid", groupByRowid},
	{"eager-aggregate", eagerAggregate},
}

// withoutRowidOrder scans a WITHOUT ROWID table through its primary key,
// so rows come in key order as SQLite stores them.
func withoutRowidOrder(cat *catalog.Catalog, n Node) Node {
	s, ok := n.(*Scan)
	if !ok || !s.Table.WithoutRowid || s.Lookup != nil || s.Index != nil || cat == nil {
		return n
	}
	for _, u := range s.Table.Uniques {
		if u.Primary {
			if ix := cat.Index(u.Index); ix != nil {
				ns := *s
				ns.Index = &IndexRange{Index: ix}
				return &ns
			}
		}
	}
	return n
}

// optimizer applies the rules with a catalog and an evaluator.
type optimizer struct {
	cat  *catalog.Catalog
	eval Evaluator
	p    pruner // the column sets of every pruning pass, carved from shared chunks
}

// Optimize applies the rules to a query, folding constants with eval.
// Columns are pruned before the rules too, so access-path rules see which
// columns a scan must produce (a covering index needs them all).
func Optimize(cat *catalog.Catalog, eval Evaluator, q *Query) *Query {
	o := &optimizer{cat: cat, eval: eval}
	o.p.prune(q.Root, nil)
	q.Root = o.optimizeNode(q.Root)
	o.p.prune(q.Root, nil)
	return q
}

// OptimizeStmt applies the rules to the input of a write.
func OptimizeStmt(cat *catalog.Catalog, eval Evaluator, s Statement) Statement {
	o := &optimizer{cat: cat, eval: eval}
	switch s := s.(type) {
	case *Update:
		s.Input = o.optimizeNode(s.Input)
	case *Delete:
		s.Input = o.optimizeNode(s.Input)
	case *Insert:
		if s.Source != nil {
			s.Source = o.optimizeNode(s.Source)
			o.p.prune(s.Source, nil)
		}
	}
	return s
}

func (o *optimizer) optimizeNode(n Node) Node {
	for _, r := range rules {
		if r.name == joinOrderRule {
			n = r.apply(o.cat, n)
			continue
		}
		apply := func(x Node) Node { return r.apply(o.cat, x) }
		if r.apply == nil {
			apply = func(x Node) Node { return foldConstants(o.eval, x) }
		}
		n = Transform(n, apply)
	}
	o.optimizeSubqueries(n)
	return n
}

// optimizeSubqueries applies the rules to the plans of the subqueries the
// expressions of n's tree hold (those decorrelate left in place), so they
// get index lookups and hash joins too; a correlated one's lookup keys may
// read the outer row (constLike accepts OuterRefs). Each plan is optimized
// once, however many expressions share it.
func (o *optimizer) optimizeSubqueries(n Node) {
	walkPlan(n, func(x Node) {
		if r, ok := x.(*CTERef); ok {
			o.optimizeCTE(r.CTE)
		}
		eachNodeExpr(x, func(e Expr) {
			exprSubqueries(e, func(s *Subquery) {
				if s.optimized {
					return
				}
				s.optimized = true
				s.Plan = o.optimizeNode(s.Plan)
				o.p.prune(s.Plan, nil)
			})
		})
	})
}

// optimizeCTE applies the rules to a recursive CTE's setup and recursive
// terms (a step run once per queued row gains most from index lookups),
// once however many references share it.
func (o *optimizer) optimizeCTE(c *CTE) {
	if c.optimized {
		return
	}
	c.optimized = true
	c.Plan = o.optimizeNode(c.Plan)
	o.p.prune(c.Plan, nil)
	for i, s := range c.Steps {
		c.Steps[i] = o.optimizeNode(s)
		o.p.prune(c.Steps[i], nil)
	}
}

// rowidLookup turns Filter(rowid = e AND rest) over a Scan into a scan of
// one rowid (or a rowid range for <, <=, >, >=) with the rest as a filter.
func rowidLookup(n Node) Node {
	f, ok := n.(*Filter)
	if !ok {
		return n
	}
	s, ok := f.Input.(*Scan)
	if !ok || s.Lookup != nil || s.Index != nil || s.Table.Virtual {
		return n
	}
	rid := s.RowidIdx()
	var keep [8]Expr
	rest := keep[:0] // the conjuncts that stay, ANDed only if something moves
	var rr RowidRange
	for c := range conjunctsOf(f.Pred) {
		if !addRowidBound(&rr, c, rid, s.Table.RowidCol) {
			rest = append(rest, c)
		}
	}
	if rr.Eq == nil && rr.Lo == nil && rr.Hi == nil {
		return n
	}
	ns := *s
	lookup := rr
	ns.Lookup = &lookup
	if len(rest) == 0 {
		return &ns
	}
	return &Filter{Input: &ns, Pred: andAll(rest)}
}

// addRowidBound records c in rr when it bounds the rowid by an expression
// that does not read the row.
func addRowidBound(rr *RowidRange, c Expr, rid, alias int) bool {
	bin, ok := c.(*Binary)
	if !ok {
		return false
	}
	op, col, val := bin.Op, bin.L, bin.R
	if !isRowidRef(col, rid, alias) {
		op, col, val = flip(op), bin.R, bin.L
	}
	if !isRowidRef(col, rid, alias) || refsInput(val) || !constLike(val) {
		return false
	}
	switch op {
	case "=":
		if rr.Eq != nil {
			return false
		}
		rr.Eq = val
	case ">", ">=":
		if rr.Lo != nil {
			return false
		}
		rr.Lo, rr.LoIncl = val, op == ">="
	case "<", "<=":
		if rr.Hi != nil {
			return false
		}
		rr.Hi, rr.HiIncl = val, op == "<="
	default:
		return false
	}
	return true
}

func isRowidRef(e Expr, rid, alias int) bool {
	c, ok := e.(*ColRef)
	return ok && (c.Idx == rid || (alias >= 0 && c.Idx == alias))
}

// constLike reports whether e is a constant, parameter or outer reference
// (possibly under affinity or arithmetic), safe to evaluate once per scan.
func constLike(e Expr) bool {
	ok := true
	WalkExpr(e, func(x Expr) {
		switch x.(type) {
		case *Const, *Param, *OuterRef, *Unary, *Binary, *Affinity, *Cast:
		default:
			ok = false
		}
	})
	return ok
}

func flip(op string) string {
	switch op {
	case "<":
		return ">"
	case "<=":
		return ">="
	case ">":
		return "<"
	case ">=":
		return "<="
	}
	return op
}
