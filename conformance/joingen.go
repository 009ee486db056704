package conformance

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// The multi-way join generator: random databases of joinTables tables
// tN(aN, bN, cN, dN, eN INTEGER, xN VARCHAR(30)) of random sizes (empty
// ones included), and random SELECTs joining 4 to 10 of them (a table may
// appear twice under another alias) with random mixes of single-table
// filters, equi-joins, theta joins, OR conditions, constant conditions and
// inner, comma, CROSS, LEFT and RIGHT joins. Every query has one right
// answer (no LIMIT, no order-dependent aggregate), compared as a multiset.
// RunJoinQuery times it on both engines as well (see JoinRunner).

// joinTables is how many tables a join database holds.
const joinTables = 10

// joinCols are a table's columns (suffixed by its number) and the range
// of each column's integer values: a is nearly unique per table, c has ten
// values, d is NULL one time in ten.
var joinCols = []struct {
	name string
	max  int
}{{"a", 1000}, {"b", 100}, {"c", 10}, {"d", 300}, {"e", 50}}

// JoinDB is one random database: per table its rows as SQL tuples, and
// the indexes created on it.
type JoinDB struct {
	Rows    [joinTables][]string
	Indexes []string
}

// NewJoinDB draws a database: table sizes from 0 to 400 rows, skewed
// small, and an index on a random column of about a third of the tables.
func NewJoinDB(r *rand.Rand) *JoinDB {
	sizes := []int{0, 1, 3, 10, 30, 60, 100, 200, 300, 400}
	db := &JoinDB{}
	for t := range joinTables {
		n := sizes[r.IntN(len(sizes))]
		for range n {
			db.Rows[t] = append(db.Rows[t], joinRow(r))
		}
		if r.IntN(3) == 0 {
			c := joinCols[r.IntN(len(joinCols))].name
			db.Indexes = append(db.Indexes, fmt.Sprintf("CREATE INDEX i%d%s ON t%d(%s%d)", t+1, c, t+1, c, t+1))
		}
	}
	return db
}

func joinRow(r *rand.Rand) string {
	vals := make([]string, 0, len(joinCols)+1)
	for _, c := range joinCols {
		if c.name == "d" && r.IntN(10) == 0 {
			vals = append(vals, "NULL")
			continue
		}
		vals = append(vals, fmt.Sprint(r.IntN(c.max)))
	}
	if r.IntN(8) == 0 {
		vals = append(vals, "NULL")
	} else {
		vals = append(vals, fmt.Sprintf("'x%d'", r.IntN(100)))
	}
	return "(" + strings.Join(vals, ",") + ")"
}

// Setup is the statements that create the database on a fresh engine.
func (db *JoinDB) Setup() []string { return db.setupOf(nil) }

// setupOf is Setup for the tables q reads (all when q is nil).
func (db *JoinDB) setupOf(q *JoinQuery) []string {
	var out []string
	for t := range joinTables {
		n := t + 1
		if q != nil && !q.usesTable(n) {
			continue
		}
		out = append(out, fmt.Sprintf("CREATE TABLE t%d(a%d INTEGER, b%d INTEGER, c%d INTEGER, d%d INTEGER, e%d INTEGER, x%d VARCHAR(30))",
			n, n, n, n, n, n, n))
		for rows := db.Rows[t]; len(rows) > 0; {
			k := min(len(rows), 200)
			out = append(out, fmt.Sprintf("INSERT INTO t%d VALUES %s", n, strings.Join(rows[:k], ",")))
			rows = rows[k:]
		}
	}
	for _, ix := range db.Indexes {
		if q == nil || q.usesTable(indexTable(ix)) {
			out = append(out, ix)
		}
	}
	return out
}

// indexTable is the table number of a CREATE INDEX statement of NewJoinDB.
func indexTable(ix string) int {
	var n int
	_, _ = fmt.Sscanf(ix[strings.Index(ix, " ON t")+5:], "%d", &n)
	return n
}

func (q *JoinQuery) usesTable(n int) bool {
	for _, it := range q.Items {
		if it.t == n {
			return true
		}
	}
	return false
}

// clone copies db so the shrinker can drop rows of a copy.
func (db *JoinDB) clone() *JoinDB {
	c := &JoinDB{Indexes: slices.Clone(db.Indexes)}
	for t := range db.Rows {
		c.Rows[t] = slices.Clone(db.Rows[t])
	}
	return c
}

// JoinQuery is a generated SELECT kept in parts, so a failing one can be
// shrunk by dropping parts.
type JoinQuery struct {
	Items []joinItem
	Where []joinCond
	Sel   []joinCond // select-list expressions
	Agg   bool       // Sel holds aggregates
}

// joinItem is one FROM item: table t (1-based) as alias, joined to the
// items before it by op ("," or a JOIN keyword) with conditions on.
type joinItem struct {
	t     int
	alias string
	op    string
	on    []joinCond
}

// joinCond is an SQL fragment and the aliases it reads.
type joinCond struct {
	sql   string
	reads []string
}

// SQL renders the query.
func (q *JoinQuery) SQL() string {
	var b strings.Builder
	b.WriteString("SELECT ")
	for i, s := range q.Sel {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.sql)
	}
	b.WriteString(" FROM ")
	for i, it := range q.Items {
		if i > 0 {
			if it.op == "," {
				b.WriteString(", ")
			} else {
				b.WriteString(" " + it.op + " ")
			}
		}
		fmt.Fprintf(&b, "t%d AS %s", it.t, it.alias)
		if len(it.on) > 0 {
			b.WriteString(" ON " + joinConds(it.on))
		}
	}
	if len(q.Where) > 0 {
		b.WriteString(" WHERE " + joinConds(q.Where))
	}
	return b.String()
}

func joinConds(cs []joinCond) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.sql
	}
	return strings.Join(parts, " AND ")
}

// joinGen draws the parts of one query.
type joinGen struct {
	r     *rand.Rand
	items []joinItem
}

// col is a random column reference of item i: its SQL and column letter.
func (g *joinGen) col(i int, letters string) string {
	it := g.items[i]
	c := letters[g.r.IntN(len(letters))]
	return fmt.Sprintf("%s.%c%d", it.alias, c, it.t)
}

func (g *joinGen) constOf(c string) int {
	letter := c[strings.IndexByte(c, '.')+1]
	for _, jc := range joinCols {
		if jc.name[0] == letter {
			return g.r.IntN(jc.max)
		}
	}
	return g.r.IntN(100)
}

// filter is a single-table condition on item i.
func (g *joinGen) filter(i int) joinCond {
	a := g.items[i].alias
	c := g.col(i, "abcde")
	k := g.constOf(c)
	var s string
	switch g.r.IntN(11) {
	case 0, 1:
		vals := make([]string, 2+g.r.IntN(7))
		for j := range vals {
			vals[j] = fmt.Sprint(g.constOf(c))
		}
		not := ""
		if g.r.IntN(6) == 0 {
			not = "NOT "
		}
		s = fmt.Sprintf("%s %sIN (%s)", c, not, strings.Join(vals, ","))
	case 2:
		s = fmt.Sprintf("%s = %d", c, k)
	case 3:
		s = fmt.Sprintf("%d = %s", k, c)
	case 4:
		s = fmt.Sprintf("%s BETWEEN %d AND %d", c, k, k+g.constOf(c)/3)
	case 5:
		s = fmt.Sprintf("%s > %d", c, k)
	case 6:
		s = fmt.Sprintf("(%s = %d OR %s = %d OR %s < %d)", c, k, g.col(i, "abcde"), g.constOf(c), g.col(i, "ce"), 2)
	case 7:
		s = fmt.Sprintf("%s.d%d IS NULL", a, g.items[i].t)
	case 8:
		s = fmt.Sprintf("%s.x%d LIKE 'x%d%%'", a, g.items[i].t, g.r.IntN(10))
	case 9:
		s = fmt.Sprintf("NOT (%s = %d)", c, k)
	default:
		s = fmt.Sprintf("%s + %s < %d", c, g.col(i, "ce"), k)
	}
	return joinCond{sql: s, reads: []string{a}}
}

// link is a condition between item i and an earlier item j: mostly an
// equi-join on columns of similar ranges, sometimes a theta join or an OR
// of equalities.
func (g *joinGen) link(j, i int) joinCond {
	pairs := []string{"aa", "bb", "dd", "ad", "ee", "cc", "bd"}
	p := pairs[g.r.IntN(len(pairs))]
	if g.r.IntN(2) == 0 {
		p = p[1:] + p[:1]
	}
	l, rr := g.col(j, p[:1]), g.col(i, p[1:])
	reads := []string{g.items[j].alias, g.items[i].alias}
	switch g.r.IntN(12) {
	case 0:
		return joinCond{sql: fmt.Sprintf("%s < %s + %d", l, rr, g.r.IntN(5)), reads: reads}
	case 1:
		return joinCond{sql: fmt.Sprintf("%s <> %s", g.col(j, "c"), g.col(i, "c")), reads: reads}
	case 2:
		return joinCond{sql: fmt.Sprintf("(%s = %s OR %s = %s)", l, rr, g.col(j, "a"), g.col(i, "a")), reads: reads}
	case 3:
		return joinCond{sql: fmt.Sprintf("%s = %s + 1", l, rr), reads: reads}
	}
	return joinCond{sql: fmt.Sprintf("%s = %s", l, rr), reads: reads}
}

// NewJoinQuery draws a query over the tables of a JoinDB.
func NewJoinQuery(r *rand.Rand) *JoinQuery {
	g := &joinGen{r: r}
	n := 4 + r.IntN(7)
	q := &JoinQuery{}
	for i := range n {
		it := joinItem{t: 1 + r.IntN(joinTables), alias: fmt.Sprintf("q%d", i+1), op: ","}
		if i > 0 {
			switch x := r.IntN(20); {
			case x < 4:
				it.op = "JOIN"
			case x < 7:
				it.op = "LEFT JOIN"
			case x < 8:
				it.op = "CROSS JOIN"
			case x < 9:
				it.op = "RIGHT JOIN"
			}
		}
		g.items = append(g.items, it)
		if i == 0 {
			continue
		}
		var conds []joinCond
		if r.IntN(5) > 0 {
			conds = append(conds, g.link(r.IntN(i), i))
		}
		if r.IntN(8) == 0 {
			conds = append(conds, g.link(r.IntN(i), i))
		}
		switch it.op {
		case "JOIN", "LEFT JOIN", "RIGHT JOIN":
			if len(conds) == 0 {
				conds = append(conds, g.link(r.IntN(i), i))
			}
			if r.IntN(4) == 0 {
				conds = append(conds, g.filter(i))
			}
			g.items[i].on = conds
		default:
			q.Where = append(q.Where, conds...)
		}
	}
	for i := range n {
		for range r.IntN(3) {
			if r.IntN(5) < 3 {
				q.Where = append(q.Where, g.filter(i))
			}
		}
	}
	switch r.IntN(40) {
	case 0:
		q.Where = append(q.Where, joinCond{sql: "1 = 0"})
	case 1:
		q.Where = append(q.Where, joinCond{sql: "2 > 1"})
	}
	r.Shuffle(len(q.Where), func(a, b int) { q.Where[a], q.Where[b] = q.Where[b], q.Where[a] })
	q.Items = g.items
	q.Agg = r.IntN(3) > 0
	q.Sel = g.selectList(q.Agg)
	return q
}

// selectList draws aggregates over the join (count, sum, min, max: none
// depends on row order) or a few column expressions.
func (g *joinGen) selectList(agg bool) []joinCond {
	n := len(g.items)
	var out []joinCond
	if agg {
		out = append(out, joinCond{sql: "count(*)"})
		for range 1 + g.r.IntN(3) {
			i := g.r.IntN(n)
			fn := []string{"sum", "min", "max", "count"}[g.r.IntN(4)]
			out = append(out, joinCond{sql: fmt.Sprintf("%s(%s)", fn, g.col(i, "abcde")), reads: []string{g.items[i].alias}})
		}
		return out
	}
	for range 2 + g.r.IntN(4) {
		i, k := g.r.IntN(n), g.r.IntN(n)
		switch g.r.IntN(3) {
		case 0:
			out = append(out, joinCond{sql: fmt.Sprintf("%s*%d+%s", g.col(i, "abcde"), 1+g.r.IntN(999), g.col(k, "abcde")),
				reads: []string{g.items[i].alias, g.items[k].alias}})
		case 1:
			out = append(out, joinCond{sql: fmt.Sprintf("%s.x%d", g.items[i].alias, g.items[i].t), reads: []string{g.items[i].alias}})
		default:
			out = append(out, joinCond{sql: g.col(i, "abcde"), reads: []string{g.items[i].alias}})
		}
	}
	return out
}
