package gen

import (
	"fmt"
	"strings"
)

// windowSelect is a single-table SELECT with window functions. Functions
// whose value depends on the order of peers (row_number, ntile, lag, lead,
// first/last/nth_value, ROWS frames) order by the table's key as well, so
// the order is total; rank-like functions and RANGE/GROUPS frames treat
// peers alike and may order by a column alone.
func (g *Gen) windowSelect() string {
	t := g.anyTable()
	ts, refs := g.tableRef(t)
	s := &scope{refs: refs}
	key := strings.TrimSuffix(refs[0].sql, "."+t.cols[0].name) + ".rowid"
	items := []string{refs[0].sql}
	for i := 1 + g.r.IntN(2); i > 0; i-- {
		items = append(items, g.window(s, key))
	}
	if g.r.IntN(2) == 0 {
		items = append(items, g.valueExpr(s, 2))
	}
	sql := "SELECT " + strings.Join(items, ", ") + " FROM " + ts
	if g.r.IntN(2) == 0 {
		sql += " WHERE " + g.pred(s, 2)
	}
	return sql
}

func (g *Gen) window(s *scope, key string) string {
	col := pick(g, s.refs).sql
	part := ""
	if g.r.IntN(2) == 0 {
		part = "PARTITION BY " + pick(g, s.refs).sql + " "
	}
	dir := pick(g, []string{"", " DESC", " ASC NULLS LAST", " DESC NULLS FIRST"})
	peers := fmt.Sprintf("%sORDER BY %s%s", part, col, dir)
	total := fmt.Sprintf("%sORDER BY %s%s, %s", part, col, dir, key)
	e := g.valueExpr(s, 1)
	switch g.r.IntN(12) {
	case 0:
		return fmt.Sprintf("%s() OVER (%s)", pick(g, []string{"rank", "dense_rank", "percent_rank", "cume_dist"}), peers)
	case 1:
		return fmt.Sprintf("row_number() OVER (%s)", total)
	case 2:
		return fmt.Sprintf("ntile(%d) OVER (%s)", 1+g.r.IntN(4), total)
	case 3:
		return fmt.Sprintf("%s(%s, %d, %s) OVER (%s)", pick(g, []string{"lag", "lead"}), e, 1+g.r.IntN(2), g.literal(), total)
	case 4:
		return fmt.Sprintf("%s(%s) OVER (%s)", pick(g, []string{"lag", "lead"}), e, total)
	case 5:
		return fmt.Sprintf("%s(%s) OVER (%s%s)", pick(g, []string{"first_value", "last_value"}), e, total, g.frame("ROWS"))
	case 6:
		return fmt.Sprintf("nth_value(%s, %d) OVER (%s%s)", e, 1+g.r.IntN(3), total, g.frame("ROWS"))
	case 7, 8:
		return fmt.Sprintf("%s(%s) OVER (%s%s)", pick(g, winAggs), e, total, g.frame("ROWS"))
	case 9:
		return fmt.Sprintf("%s(%s) OVER (%s%s)", pick(g, winAggs), e, peers, g.frame(pick(g, []string{"RANGE", "GROUPS"})))
	case 10:
		return fmt.Sprintf("count(*) OVER (%s)", strings.TrimSpace(part))
	default:
		return fmt.Sprintf("%s(%s) OVER (%s)", pick(g, winAggs), e, peers)
	}
}

var winAggs = []string{"sum", "total", "count", "min", "max", "avg"}

// frame is an optional frame clause of the given unit; the lower bound never
// follows the upper one. A RANGE offset needs a numeric ORDER BY, so RANGE
// frames use unbounded and CURRENT ROW bounds only.
func (g *Gen) frame(unit string) string {
	if g.r.IntN(3) == 0 {
		return ""
	}
	lo := pick(g, []string{"UNBOUNDED PRECEDING", "CURRENT ROW", "%d PRECEDING"})
	hi := pick(g, []string{"UNBOUNDED FOLLOWING", "CURRENT ROW", "%d FOLLOWING"})
	if unit == "RANGE" {
		lo, hi = strings.Replace(lo, "%d", "UNBOUNDED", 1), strings.Replace(hi, "%d", "UNBOUNDED", 1)
	}
	if strings.Contains(lo, "%d") {
		lo = fmt.Sprintf(lo, g.r.IntN(3))
	}
	if strings.Contains(hi, "%d") {
		hi = fmt.Sprintf(hi, g.r.IntN(3))
	}
	ex := ""
	if g.r.IntN(5) == 0 {
		ex = " EXCLUDE " + pick(g, []string{"CURRENT ROW", "NO OTHERS", "TIES", "GROUP"})
	}
	return fmt.Sprintf(" %s BETWEEN %s AND %s%s", unit, lo, hi, ex)
}
