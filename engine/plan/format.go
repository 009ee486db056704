package plan

import (
	"fmt"
	"strings"
)

// Format renders n as an indented tree, one node a line, with each node's
// estimated rows: the planner's own view of a plan (filters, projections
// and join keys included), for golden tests and debugging. EXPLAIN QUERY
// PLAN shows the SQLite-style summary instead.
func Format(n Node) string {
	var b strings.Builder
	formatNode(&b, n, 0)
	return b.String()
}

func formatNode(b *strings.Builder, n Node, depth int) {
	fmt.Fprintf(b, "%s%s (~%.0f rows)\n", strings.Repeat("  ", depth), Describe(n), EstimateRows(n))
	for _, c := range n.Children() {
		formatNode(b, c, depth+1)
	}
	subs, _ := NodeSubqueries(n)
	for _, s := range subs {
		kind := "Subquery"
		if s.Correlated {
			kind = "CorrelatedSubquery"
		}
		fmt.Fprintf(b, "%s%s %d\n", strings.Repeat("  ", depth+1), kind, s.ID)
		formatNode(b, s.Plan, depth+2)
	}
}

// Describe is a one-line description of n alone (operator, table, index,
// key counts), as Format shows it.
func Describe(n Node) string {
	switch x := n.(type) {
	case *Scan:
		return scanLabel(x)
	case *Filter:
		return fmt.Sprintf("Filter %d conjunct(s)", len(Conjuncts(x.Pred)))
	case *Project:
		return fmt.Sprintf("Project %d column(s)", len(x.Exprs))
	case *Limit:
		return "Limit"
	case *Sort:
		if x.Limit != nil {
			return fmt.Sprintf("TopN %d key(s)", len(x.Keys))
		}
		return fmt.Sprintf("Sort %d key(s)", len(x.Keys))
	case *Aggregate:
		kind := "HashAggregate"
		if x.Sorted {
			kind = "StreamAggregate"
		}
		label := fmt.Sprintf("%s %d group key(s), %d aggregate(s)", kind, len(x.Group), len(x.Aggs))
		if x.Eager {
			label += " eager"
		}
		if x.Stream {
			label += " +early-stop"
		}
		return label
	case *Distinct:
		if x.Sorted {
			return "StreamDistinct"
		}
		return "HashDistinct"
	case *Join:
		return joinLabel(x)
	case *SetOp:
		return "SetOp " + [...]string{"union", "intersect", "except"}[x.Op]
	case *Window:
		return fmt.Sprintf("Window %d function(s)", len(x.Funcs))
	case *TableCount:
		if x.Index != nil {
			return "TableCount " + x.Table.Name + " USING " + x.Index.Name
		}
		return "TableCount " + x.Table.Name
	case *Single:
		return "ConstantRow"
	case *Values:
		return fmt.Sprintf("Values %d row(s)", len(x.Rows))
	case *CTERef:
		return "CTEScan " + x.CTE.Name
	case *TableFunc:
		return "TableFunc " + x.Name
	case *GraphExpand:
		return graphExpandLabel(x)
	}
	return fmt.Sprintf("%T", n)
}

func scanLabel(s *Scan) string {
	label := scanKind(s)
	if s.Reverse {
		label += " reverse"
	}
	if s.RowLimit != nil {
		label += " limit"
	}
	return label
}

func scanKind(s *Scan) string {
	name := s.Table.Name
	if s.Alias != "" && !strings.EqualFold(s.Alias, name) {
		name += " AS " + s.Alias
	}
	switch {
	case s.Lookup != nil && s.Lookup.Eq != nil:
		return "RowidSeek " + name
	case s.Lookup != nil && s.Lookup.In != nil:
		return fmt.Sprintf("RowidSeek %s in=%d", name, len(s.Lookup.In))
	case s.Lookup != nil && s.Lookup.InSub != nil:
		return "RowidSeek " + name + " in=subquery"

	case s.Lookup != nil:
		return "RowidRange " + name
	case s.Index != nil:
		r := s.Index
		label := fmt.Sprintf("IndexScan %s USING %s eq=%d", name, r.Index.Name, len(r.Eq))
		if r.Lo != nil || r.Hi != nil {
			label += " +range"
		}
		if r.In != nil {
			label += fmt.Sprintf(" in=%d", len(r.In))
		}
		if r.InSub != nil {
			label += " in=subquery"
		}
		if r.Like != nil {
			label += " +prefix"
		}
		if r.NotNull {
			label += " not-null"
		}
		if r.Reverse {
			label += " reverse"
		}
		if CoveringIndex(s) {
			label += " covering"
		}
		return label
	}
	return "TableScan " + name
}

// joinLabel names a join's method, keys and kind.
func joinLabel(j *Join) string {
	var label string
	switch {
	case j.Method == JoinIndex:
		label = fmt.Sprintf("IndexJoin %d key(s), lookup right %s", len(j.LeftKeys), j.Kind)
	case len(j.LeftKeys) > 0:
		label = fmt.Sprintf("HashJoin %d key(s), build right %s", len(j.LeftKeys), j.Kind)
	case j.Method == JoinHash && OrJoinKeys(j.On, len(j.Left.Columns())) != nil:
		label = fmt.Sprintf("HashJoin %d OR key set(s), build right %s", len(OrJoinKeys(j.On, len(j.Left.Columns()))), j.Kind)
	default:
		label = "NestedLoopJoin " + j.Kind.String()
	}
	if j.On != nil {
		label += fmt.Sprintf(" +%d residual(s)", len(Conjuncts(j.On)))
	}
	return label
}
