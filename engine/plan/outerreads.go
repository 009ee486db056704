package plan

import "github.com/ladybugsql/ladybug/engine/funcs"

// OuterRead is a column of an enclosing query's row that a subquery reads:
// Up 1 is the row the subquery runs for, 2 the row of the query enclosing
// that one, and so on.
type OuterRead struct{ Up, Idx int }

// OuterReads lists the enclosing rows' columns subquery s reads, each
// once, including those its own subqueries read past it; pure reports
// that s's result is a function of those values and the database alone:
// no function that is not deterministic, no RAISE, no CTE reference (a
// recursive CTE's queue changes while it runs).
func OuterReads(s *Subquery) (reads []OuterRead, pure bool) {
	pure = true
	var visit func(n Node, level int)
	visitExpr := func(e Expr, level int) {
		WalkExpr(e, func(x Expr) {
			switch x := x.(type) {
			case *OuterRef:
				if up := x.Depth - level; up >= 1 {
					r := OuterRead{Up: up, Idx: x.Idx}
					for _, have := range reads {
						if have == r {
							return
						}
					}
					reads = append(reads, r)
				}
			case *Func:
				if f, ok := funcs.Lookup(x.Name, len(x.Args)); !ok || !f.Deterministic {
					pure = false
				}
			case *Raise:
				pure = false
			case *ScalarSub:
				visit(x.Sub.Plan, level+1)
			case *Exists:
				visit(x.Sub.Plan, level+1)
			case *InSub:
				visit(x.Sub.Plan, level+1)
			}
		})
	}
	visit = func(n Node, level int) {
		Walk(n, func(x Node) bool {
			if _, ok := x.(*CTERef); ok {
				pure = false
			}
			eachNodeExpr(x, func(e Expr) { visitExpr(e, level) })
			switch x := x.(type) {
			case *Scan: // what eachNodeExpr leaves to the nodes above
				if l := x.RowLimit; l != nil {
					visitExpr(l.Limit, level)
					visitExpr(l.Offset, level)
				}
				if r := x.Index; r != nil && r.Like != nil {
					visitExpr(r.Like.Pat, level)
				}
			case *Join:
				// An index join's right side runs with the left row's
				// keys pushed as its outer row.
				if x.Method == JoinIndex {
					visit(x.Left, level)
					visit(x.Right, level+1)
					return false
				}
			case *GraphExpand:
				// So do the lookups, with the vertex key.
				visit(x.Input, level)
				visit(x.Edges, level)
				for _, l := range []Node{x.OutLookup, x.InLookup} {
					if l != nil {
						visit(l, level+1)
					}
				}
				return false
			}
			return true
		})
	}
	visit(s.Plan, 0)
	return reads, pure
}
