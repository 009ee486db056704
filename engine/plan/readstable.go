package plan

import "github.com/ladybugsql/ladybug/engine/catalog"

// ReadsTable reports whether plan n may read table t: a scan of t in n,
// in a subquery of its expressions or in a CTE it references. It answers
// true, conservatively, for a node it cannot see into (a CTE read inside
// its own recursion, a graph expansion, a node kind it does not know).
// An INSERT … SELECT whose source does not read its target streams its
// rows instead of holding them all first, as SQLite's readsTable decides.
func ReadsTable(n Node, t *catalog.Table) bool {
	found := false
	var visit func(n Node)
	seen := map[*CTE]bool{}
	visit = func(n Node) {
		walkPlan(n, func(x Node) {
			if found {
				return
			}
			switch x := x.(type) {
			case *Scan:
				if x.Table == t || (x.Table != nil && x.Table.Root == t.Root && x.Table.Temp == t.Temp) {
					found = true
				}
			case *CTERef:
				if x.Current || x.CTE == nil {
					return
				}
				if x.CTE.Limit != nil || x.CTE.Offset != nil {
					found = true // expressions not looked into
					return
				}
				if !seen[x.CTE] {
					seen[x.CTE] = true
					visit(x.CTE.Plan)
					for _, c := range x.CTE.Steps {
						visit(c)
					}
				}
			case *Filter, *Project, *Limit, *Sort, *Aggregate, *Distinct, *Join, *SetOp, *Values,
				*Single, *Window, *TableFunc, *Lateral:
			default:
				found = true
			}
			subs, _ := NodeSubqueries(x)
			for _, s := range subs {
				visit(s.Plan)
			}
		})
	}
	visit(n)
	return found
}
