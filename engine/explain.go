package engine

import (
	"fmt"
	"strings"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// explainColumns are EXPLAIN QUERY PLAN's columns, as in SQLite.
var explainColumns = namedColumns("id", "parent", "notused", "detail")

// explainRows renders the plan of p as a tree of rows.
func explainRows(p plan.Statement) ([][]types.Value, error) {
	e := &explainer{}
	switch p := p.(type) {
	case *plan.Query:
		e.node(p.Root, 0)
	case *plan.Insert:
		id := e.add(0, "INSERT INTO "+p.Table.Name)
		if p.Source != nil {
			e.node(p.Source, id)
		}
	case *plan.Update:
		id := e.add(0, "UPDATE "+p.Table.Name)
		e.node(p.Input, id)
	case *plan.Delete:
		id := e.add(0, "DELETE FROM "+p.Table.Name)
		e.node(p.Input, id)
	default:
		e.add(0, fmt.Sprintf("%T", p))
	}
	return e.rows, nil
}

type explainer struct {
	rows [][]types.Value
	next int
	// inCTE marks the recursive CTEs whose terms are being listed: a
	// reference inside them reads the current row.
	inCTE map[int]bool
}

func (e *explainer) add(parent int, detail string) int {
	e.next++
	e.rows = append(e.rows, []types.Value{types.NewInt(int64(e.next)), types.NewInt(int64(parent)), types.NewInt(0), types.NewText(detail)})
	return e.next
}

// node adds n and its inputs under parent, then the subqueries n's
// expressions run, as SQLite lists them.
func (e *explainer) node(n plan.Node, parent int) {
	e.operator(n, parent)
	subs, list := plan.NodeSubqueries(n)
	for i, s := range subs {
		kind := "SCALAR SUBQUERY"
		if list[i] {
			kind = "LIST SUBQUERY"
		}
		if s.Correlated {
			kind = "CORRELATED " + kind
		}
		id := e.add(parent, fmt.Sprintf("%s %d", kind, s.ID))
		e.node(s.Plan, id)
	}
}

// operator adds n itself and its inputs under parent.
func (e *explainer) operator(n plan.Node, parent int) {
	switch n := n.(type) {
	case *plan.Scan:
		e.add(parent, scanDetail(n))
	case *plan.Filter:
		e.node(n.Input, parent)
	case *plan.Project:
		e.node(n.Input, parent)
	case *plan.Limit:
		e.node(n.Input, parent)
	case *plan.TableCount:
		if n.Index != nil {
			e.add(parent, "SCAN "+n.Table.Name+" USING COVERING INDEX "+n.Index.Name+" (COUNT)")
		} else {
			e.add(parent, "SCAN "+n.Table.Name+" (COUNT)")
		}
	case *plan.Single:
		e.add(parent, "SCAN CONSTANT ROW")
	case *plan.Values:
		e.add(parent, fmt.Sprintf("SCAN %d CONSTANT ROWS", len(n.Rows)))
	case *plan.Sort:
		e.node(n.Input, parent)
		if n.Limit != nil {
			e.add(parent, "USE TEMP B-TREE FOR ORDER BY (TOP-N)")
		} else {
			e.add(parent, "USE TEMP B-TREE FOR ORDER BY")
		}
	case *plan.Aggregate:
		e.node(n.Input, parent)
		switch {
		case n.Eager:
			e.add(parent, "USE HASH TABLE FOR GROUP BY BEFORE JOIN")
		case len(n.Group) > 0 && !n.Sorted:
			e.add(parent, "USE HASH TABLE FOR GROUP BY")
		}
	case *plan.Distinct:
		e.node(n.Input, parent)
		if !n.Sorted {
			e.add(parent, "USE HASH TABLE FOR DISTINCT")
		}
	case *plan.Join:
		id := e.add(parent, joinDetail(n))
		e.node(n.Left, id)
		e.node(n.Right, id)
	case *plan.SetOp:
		id := e.add(parent, "COMPOUND QUERY")
		e.node(n.Left, id)
		e.node(n.Right, id)
	case *plan.Window:
		e.node(n.Input, parent)
		e.add(parent, "WINDOW")
	case *plan.CTERef:
		e.cteRef(n, parent)
	case *plan.TableFunc:
		e.add(parent, "SCAN "+n.Name+" VIRTUAL TABLE")
	case *plan.GraphExpand:
		e.graphExpand(n, parent)
	default:
		e.add(parent, fmt.Sprintf("%T", n))
	}
}

// joinDetail names a join's method and kind, with the planner's row
// estimate: "HASH INNER JOIN (~1000 rows)", "INDEX LEFT JOIN (~10 rows)",
// "NESTED LOOP CROSS JOIN (~1 rows)". Semi and anti joins come from
// decorrelated IN and EXISTS subqueries.
func joinDetail(n *plan.Join) string {
	method := "NESTED LOOP"
	switch {
	case n.Method == plan.JoinIndex:
		method = "INDEX"
	case len(n.LeftKeys) > 0:
		method = "HASH"
	case n.Method == plan.JoinHash && plan.OrJoinKeys(n.On, len(n.Left.Columns())) != nil:
		method = "OR-KEY HASH"
	}
	return fmt.Sprintf("%s %s JOIN (~%.0f rows)", method, strings.ToUpper(n.Kind.String()), plan.EstimateRows(n))
}

func scanDetail(s *plan.Scan) string {
	name := s.Table.Name
	if s.Alias != "" && !strings.EqualFold(s.Alias, name) {
		name += " AS " + s.Alias
	}
	switch {
	case s.Lookup != nil && (s.Lookup.Eq != nil || s.Lookup.In != nil || s.Lookup.InSub != nil):
		return "SEARCH " + name + " USING INTEGER PRIMARY KEY (rowid=?)"
	case s.Lookup != nil:
		return "SEARCH " + name + " USING INTEGER PRIMARY KEY (" + rangeText("rowid", s.Lookup.Lo != nil, s.Lookup.Hi != nil) + ")"
	case s.Index != nil && len(s.Index.Eq) == 0 && s.Index.Lo == nil && s.Index.Hi == nil && !s.Index.Seeks() && s.Index.Like == nil:
		return "SCAN " + name + " USING " + indexWord(s) + s.Index.Index.Name
	case s.Index != nil:
		var cols []string
		t := s.Table
		for i, c := range s.Index.Index.Columns {
			if i >= len(s.Index.Eq) {
				break
			}
			if i < len(s.Index.EqNull) && s.Index.EqNull[i] {
				cols = append(cols, colName(t, c.Col)+" IS NULL")
				continue
			}
			cols = append(cols, colName(t, c.Col)+"=?")
		}
		if s.Index.Seeks() {
			cols = append(cols, colName(t, s.Index.Index.Columns[len(s.Index.Eq)].Col)+"=?")
		}
		if s.Index.Like != nil { // SQLite shows the prefix as a range
			cols = append(cols, rangeText(colName(t, s.Index.Index.Columns[len(s.Index.Eq)].Col), true, true))
		}
		if s.Index.Lo != nil || s.Index.Hi != nil {
			c := s.Index.Index.Columns[len(s.Index.Eq)]
			cols = append(cols, rangeText(colName(t, c.Col), s.Index.Lo != nil, s.Index.Hi != nil))
		}
		return "SEARCH " + name + " USING " + indexWord(s) + s.Index.Index.Name + " (" + strings.Join(cols, " AND ") + ")"
	}
	return "SCAN " + name
}

// indexWord is "COVERING INDEX " for a scan that reads only the index,
// as SQLite words it, else "INDEX ".
func indexWord(s *plan.Scan) string {
	if plan.CoveringIndex(s) {
		return "COVERING INDEX "
	}
	return "INDEX "
}

func colName(t interface{ ColumnName(int) string }, i int) string { return t.ColumnName(i) }

func rangeText(col string, lo, hi bool) string {
	switch {
	case lo && hi:
		return col + ">? AND " + col + "<?"
	case lo:
		return col + ">?"
	}
	return col + "<?"
}

// cteRef lists a recursive CTE as SQLite does: the setup terms, then the
// recursive terms, each reading the current row as "SCAN name".
func (e *explainer) cteRef(n *plan.CTERef, parent int) {
	if e.inCTE[n.CTE.ID] {
		e.add(parent, "SCAN "+n.CTE.Name)
		return
	}
	if e.inCTE == nil {
		e.inCTE = map[int]bool{}
	}
	e.inCTE[n.CTE.ID] = true
	defer delete(e.inCTE, n.CTE.ID)
	id := e.add(parent, "SCAN "+n.CTE.Name+" (RECURSIVE CTE)")
	e.node(n.CTE.Plan, e.add(id, "SETUP"))
	step := e.add(id, "RECURSIVE STEP")
	for _, s := range n.CTE.Steps {
		e.node(s, step)
	}
}

// graphExpand shows a quantified graph expansion and what it reads: the
// start rows, then the edge lookups or the edge relation read whole.
func (e *explainer) graphExpand(n *plan.GraphExpand, parent int) {
	detail := fmt.Sprintf("GRAPH EXPAND %s %s{%d,%d}", n.Mode, n.Dir, n.Min, n.Max)
	if n.Target != nil {
		detail += " TO TARGET"
	}
	id := e.add(parent, fmt.Sprintf("%s (~%.0f rows)", detail, plan.EstimateRows(n)))
	e.node(n.Input, id)
	if n.OutLookup == nil && n.InLookup == nil {
		e.node(n.Edges, id)
		return
	}
	for _, l := range []plan.Node{n.OutLookup, n.InLookup} {
		if l != nil {
			e.node(l, id)
		}
	}
}
