package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Stmt is one generated statement.
type Stmt struct {
	SQL     string
	Write   bool   // INSERT/UPDATE/DELETE: compare success, RowsAffected and Table's rows
	Ordered bool   // ORDER BY fixes the result order fully: compare in order
	Returns bool   // the write has RETURNING: run it as a query
	Table   string // the table a write changes
	Args    []any  // the values of its placeholders, by number (Gen.Params)
}

// Gen produces random statements from a seed.
type Gen struct {
	// Params turns a random third of the literals into placeholders of
	// every spelling, bound through Stmt.Args (see params.go).
	Params  bool
	pvals   []any // the values of the literals marked so far
	r       *rand.Rand
	alias   int
	inWrite bool // generating a write: subqueries read only t1..t3
	// values is set while generating an expression whose value is output or
	// aggregated. SQLite gives an expression the collation of any COLLATE
	// inside it (even in a CASE condition or a function argument), and a
	// NOCASE output would make 'abc' and 'ABC' interchangeable in DISTINCT,
	// GROUP BY, set operations and ORDER BY; so COLLATE appears only where
	// the value is a filter.
	values bool
	// ctes are the common table expressions the query being generated
	// uses, hoisted into its WITH clause; recursive says one recurses.
	ctes      []string
	recursive bool
}

// valueExpr is expr in a value context (see Gen.values).
func (g *Gen) valueExpr(s *scope, depth int) string {
	old := g.values
	g.values = true
	defer func() { g.values = old }()
	return g.expr(s, depth)
}

// where is a subquery's WHERE: a filter again, whatever encloses it.
func (g *Gen) where(s *scope, depth int) string {
	old := g.values
	g.values = false
	defer func() { g.values = old }()
	return g.pred(s, depth)
}

// New returns a generator; the same seed gives the same statements.
func New(seed uint64) *Gen {
	return &Gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Next returns the next statement: a query three times in four, else a write.
func (g *Gen) Next() Stmt {
	if g.r.IntN(4) == 0 {
		return g.Write()
	}
	return g.Query()
}

// Query returns a random SELECT, with a WITH clause when a source of it
// is a common table expression.
func (g *Gen) Query() Stmt {
	g.ctes, g.recursive = nil, false
	st := g.query()
	if len(g.ctes) > 0 {
		with := "WITH "
		if g.recursive {
			with = "WITH RECURSIVE "
		}
		st.SQL = with + strings.Join(g.ctes, ", ") + " " + st.SQL
	}
	g.bindParams(&st)
	return st
}

func (g *Gen) query() Stmt {
	switch g.r.IntN(11) {
	case 0, 1:
		return Stmt{SQL: g.compound()}
	case 2:
		return g.ordered()
	case 10:
		return Stmt{SQL: g.windowSelect()}
	case 3, 4, 5:
		sql, _ := g.aggregateSelect()
		return Stmt{SQL: sql}
	default:
		sql, _ := g.simpleSelect()
		return Stmt{SQL: sql}
	}
}

func (g *Gen) nextAlias(prefix string) string {
	g.alias++
	return fmt.Sprintf("%s%d", prefix, g.alias)
}

// tableRef names a table with a fresh alias and returns its refs.
func (g *Gen) tableRef(t table) (string, []ref) {
	a := g.nextAlias("a")
	refs := make([]ref, len(t.cols))
	for i, c := range t.cols {
		refs[i] = ref{sql: a + "." + c.name, noLike: c.noLike}
	}
	return t.name + " AS " + a, refs
}

// anyTable picks a table to read; inside a write only the read-only ones,
// so no subquery sees the table being changed half-way through.
func (g *Gen) anyTable() table {
	if g.inWrite {
		return tables[g.r.IntN(3)]
	}
	return tables[g.r.IntN(len(tables))]
}

var joinKinds = []string{"JOIN", "INNER JOIN", "LEFT JOIN", "LEFT OUTER JOIN", "RIGHT JOIN", "FULL JOIN", "FULL OUTER JOIN", "CROSS JOIN", ","}

// from returns a FROM clause of one to three sources and their refs.
func (g *Gen) from(depth int) (string, []ref) {
	if g.r.IntN(12) == 0 {
		return g.selfJoinUsing()
	}
	sql, refs := g.source(depth)
	for i := g.r.IntN(3); i > 0; i-- {
		rs, rr := g.source(depth)
		kind := pick(g, joinKinds)
		all := append(append([]ref{}, refs...), rr...)
		switch kind {
		case ",", "CROSS JOIN":
			sql = fmt.Sprintf("%s %s %s", sql, kind, rs)
		default:
			on := g.joinCond(refs, rr, &scope{refs: all}, depth)
			sql = fmt.Sprintf("%s %s %s ON %s", sql, kind, rs, on)
		}
		refs = all
	}
	return sql, refs
}

// joinCond is usually an equality between the sides, sometimes any predicate.
func (g *Gen) joinCond(l, r []ref, s *scope, depth int) string {
	if g.r.IntN(3) > 0 {
		eq := fmt.Sprintf("%s = %s", pick(g, l).sql, pick(g, r).sql)
		if g.r.IntN(3) == 0 {
			eq += " AND " + g.pred(s, 1)
		}
		return eq
	}
	return g.pred(s, depth)
}

func (g *Gen) selfJoinUsing() (string, []ref) {
	t := tables[g.r.IntN(2)] // t1 or t2
	l, lr := g.tableRef(t)
	r, rr := g.tableRef(t)
	refs := append(lr, rr...)
	if g.r.IntN(3) == 0 {
		return fmt.Sprintf("%s NATURAL %s %s", l, pick(g, []string{"JOIN", "LEFT JOIN"}), r), refs
	}
	c := t.cols[1+g.r.IntN(len(t.cols)-1)].name
	return fmt.Sprintf("%s %s %s USING (%s)", l, pick(g, []string{"JOIN", "LEFT JOIN", "FULL JOIN"}), r, c), refs
}

// source is a table or, sometimes, a derived table, a CTE or VALUES.
func (g *Gen) source(depth int) (string, []ref) {
	switch {
	case depth > 0 && g.r.IntN(6) == 0:
		return g.derived(depth - 1)
	case !g.inWrite && g.r.IntN(14) == 0:
		return g.cte(depth)
	case g.r.IntN(25) == 0:
		return g.valuesSource()
	}
	return g.tableRef(g.anyTable())
}

func (g *Gen) derived(depth int) (string, []ref) {
	a := g.nextAlias("s")
	body, n := g.derivedBody(depth)
	if g.r.IntN(4) == 0 {
		// A compound: its columns take SQLite's compound affinity.
		body += " " + pick(g, []string{"UNION ALL", "UNION", "INTERSECT", "EXCEPT"}) + " " + g.armOf(n, depth)
	}
	return "(" + body + ") AS " + a, columnRefs(a, n)
}

// armOf is a compound's further arm of n columns: literals, or
// expressions over another table.
func (g *Gen) armOf(n, depth int) string {
	if g.r.IntN(2) == 0 {
		items := make([]string, n)
		for i := range items {
			items[i] = g.literal()
		}
		return "SELECT " + strings.Join(items, ", ")
	}
	ts, tr := g.tableRef(g.anyTable())
	s := &scope{refs: tr}
	items := make([]string, n)
	for i := range items {
		items[i] = g.valueExpr(s, depth)
	}
	return fmt.Sprintf("SELECT %s FROM %s", strings.Join(items, ", "), ts)
}

// derivedBody is a one-table SELECT of n expressions named c0, c1, ….
func (g *Gen) derivedBody(depth int) (string, int) {
	t := g.anyTable()
	ts, tr := g.tableRef(t)
	s := &scope{refs: tr}
	n := 1 + g.r.IntN(3)
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf("%s AS c%d", g.valueExpr(s, depth+1), i)
	}
	sql := fmt.Sprintf("SELECT %s FROM %s", strings.Join(items, ", "), ts)
	if g.r.IntN(2) == 0 {
		sql += " WHERE " + g.pred(s, 1)
	}
	return sql, n
}

// columnRefs are the refs a.c0 … a.c<n-1> of a derived table or CTE; its
// values may be BLOBs, so they are no bare LIKE operands.
func columnRefs(a string, n int) []ref {
	refs := make([]ref, n)
	for i := range refs {
		refs[i] = ref{sql: fmt.Sprintf("%s.c%d", a, i), noLike: true}
	}
	return refs
}

// simpleSelect returns a SELECT without aggregates and its column count.
func (g *Gen) simpleSelect() (string, int) {
	from, refs := g.from(1)
	s := &scope{refs: refs}
	n := 1 + g.r.IntN(4)
	items := make([]string, n)
	for i := range items {
		items[i] = g.valueExpr(s, 3)
	}
	return g.assemble(items, from, s), n
}

func (g *Gen) assemble(items []string, from string, s *scope) string {
	sql := "SELECT "
	if g.r.IntN(5) == 0 {
		sql += "DISTINCT "
	}
	sql += strings.Join(items, ", ") + " FROM " + from
	if g.r.IntN(3) > 0 {
		sql += " WHERE " + g.pred(s, 3)
	}
	return sql
}

// aggregateSelect groups by zero to two keys and selects keys and aggregates.
func (g *Gen) aggregateSelect() (string, int) {
	from, refs := g.from(1)
	s := &scope{refs: refs}
	keys := make([]string, g.r.IntN(3))
	for i := range keys {
		if g.r.IntN(3) > 0 {
			keys[i] = pick(g, refs).sql
		} else {
			keys[i] = g.valueExpr(s, 2)
		}
	}
	items := append([]string{}, keys...)
	for i := 1 + g.r.IntN(3); i > 0; i-- {
		items = append(items, g.aggregate(s, 2))
	}
	g.r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	sql := "SELECT " + strings.Join(items, ", ") + " FROM " + from
	if g.r.IntN(2) == 0 {
		sql += " WHERE " + g.pred(s, 2)
	}
	if len(keys) > 0 {
		sql += " GROUP BY " + strings.Join(keys, ", ")
	}
	if g.r.IntN(3) == 0 {
		sql += fmt.Sprintf(" HAVING %s %s %s", g.aggregate(s, 1), pick(g, cmpOps[:6]), g.literal())
	}
	return sql, len(items)
}

// aggregate is an aggregate call, sometimes DISTINCT or with FILTER.
func (g *Gen) aggregate(s *scope, depth int) string {
	old := g.values
	g.values = true
	defer func() { g.values = old }()
	e := g.expr(s, depth)
	var call string
	switch g.r.IntN(10) {
	case 0:
		call = "count(*)"
	case 1:
		call = fmt.Sprintf("count(%s%s)", pick(g, []string{"", "DISTINCT "}), e)
	case 2:
		call = fmt.Sprintf("sum(%s%s)", pick(g, []string{"", "DISTINCT "}), e)
	case 3:
		call = fmt.Sprintf("total(%s)", e)
	case 4:
		call = fmt.Sprintf("avg(%s)", e)
	case 5, 6:
		call = fmt.Sprintf("%s(%s)", pick(g, []string{"min", "max"}), e)
	case 7:
		t := fmt.Sprintf("CAST(%s AS TEXT)", e)
		call = fmt.Sprintf("group_concat(%s, '|' ORDER BY %s)", t, t)
	case 8:
		t := fmt.Sprintf("CAST(%s AS TEXT)", e)
		call = fmt.Sprintf("string_agg(%s, ',' ORDER BY %s DESC)", t, t)
	default:
		call = fmt.Sprintf("count(%s)", e)
	}
	if g.r.IntN(6) == 0 {
		call += " FILTER (WHERE " + g.pred(s, 1) + ")"
	}
	return call
}

// compound joins two selects of the same width with a set operator.
func (g *Gen) compound() string {
	var l string
	var n int
	if g.r.IntN(3) == 0 {
		l, n = g.aggregateSelect()
	} else {
		l, n = g.simpleSelect()
	}
	from, refs := g.from(0)
	s := &scope{refs: refs}
	items := make([]string, n)
	for i := range items {
		items[i] = g.valueExpr(s, 2)
	}
	r := g.assemble(items, from, s)
	op := pick(g, []string{"UNION", "UNION ALL", "INTERSECT", "EXCEPT"})
	return l + " " + op + " " + r
}

// ordered is a SELECT with ORDER BY every output column and LIMIT/OFFSET.
func (g *Gen) ordered() Stmt {
	from, refs := g.from(0)
	n := 1 + g.r.IntN(3)
	items := make([]string, n)
	order := make([]string, n)
	for i := range items {
		items[i] = pick(g, refs).sql
		order[i] = fmt.Sprintf("%d %s%s", i+1, pick(g, []string{"", "ASC", "DESC"}), pick(g, []string{"", " NULLS FIRST", " NULLS LAST"}))
	}
	s := &scope{refs: refs}
	sql := g.assemble(items, from, s) + " ORDER BY " + strings.Join(order, ", ")
	sql += fmt.Sprintf(" LIMIT %d", g.r.IntN(8))
	if g.r.IntN(2) == 0 {
		sql += fmt.Sprintf(" OFFSET %d", g.r.IntN(5))
	}
	return Stmt{SQL: sql, Ordered: true}
}

// scalarSubquery is an aggregate over a table, often correlated with s.
func (g *Gen) scalarSubquery(s *scope, depth int) string {
	ts, tr := g.tableRef(g.anyTable())
	inner := &scope{refs: append(tr, s.refs...)}
	own := &scope{refs: tr}
	sql := fmt.Sprintf("(SELECT %s FROM %s", g.aggregate(own, 1), ts)
	if g.r.IntN(4) > 0 {
		sql += " WHERE " + g.where(inner, min(depth, 1))
	}
	return sql + ")"
}

func (g *Gen) columnSubquery(s *scope, depth int) string {
	ts, tr := g.tableRef(g.anyTable())
	inner := &scope{refs: append(tr, s.refs...)}
	sql := fmt.Sprintf("SELECT %s FROM %s", g.expr(&scope{refs: tr}, 1), ts)
	if g.r.IntN(2) == 0 {
		sql += " WHERE " + g.where(inner, min(depth, 1))
	}
	if g.r.IntN(4) == 0 {
		// A compound compares with its rightmost arm's affinity.
		sql += " " + pick(g, []string{"UNION ALL", "UNION", "INTERSECT", "EXCEPT"}) + " " + g.armOf(1, 1)
	}
	return sql
}

// compoundScalar is a scalar subquery over a compound: the largest value
// of an aggregate and a further arm, or the compound itself ordered and
// cut to one row.
func (g *Gen) compoundScalar(s *scope, depth int) string {
	ts, tr := g.tableRef(g.anyTable())
	own := &scope{refs: tr}
	agg := fmt.Sprintf("SELECT %s AS c0 FROM %s", g.aggregate(own, 1), ts)
	if g.r.IntN(2) == 0 {
		return fmt.Sprintf("(SELECT max(c0) FROM (%s UNION ALL %s))", agg, g.armOf(1, 1))
	}
	if g.r.IntN(2) == 0 {
		agg += " WHERE " + g.where(&scope{refs: append(tr, s.refs...)}, min(depth, 1))
	}
	// A compound scalar subquery compares with its rightmost arm's
	// affinity.
	return fmt.Sprintf("(%s UNION %s ORDER BY 1 LIMIT 1)", agg, g.armOf(1, 1))
}

func (g *Gen) existsSubquery(s *scope, depth int) string {
	ts, tr := g.tableRef(g.anyTable())
	inner := &scope{refs: append(tr, s.refs...)}
	return fmt.Sprintf("SELECT 1 FROM %s WHERE %s", ts, g.where(inner, min(depth, 1)))
}
