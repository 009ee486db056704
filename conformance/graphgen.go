package conformance

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The property graph generator: random graphs over four ordinary tables,
// two vertex tables (person, city) and two edge tables (knows: person to
// person, lives: person to city), each table under two labels (a label of
// its own and a shared one: entity, link), with self-loops, parallel edges,
// cycles and NULL edge keys; and random GRAPH_TABLE … MATCH queries over
// it, each with its plain-SQL rewrite (joins for fixed-length patterns, a
// recursive CTE for a quantified edge) so the rewrite runs on SQLite as the
// oracle. Every query has one right answer, compared as a multiset.

// GraphDB is one random graph: the rows of each table as SQL tuples.
type GraphDB struct {
	Persons, Cities, Knows, Lives []string
}

// graphSchema creates the tables, and graphDDL the property graph.
var graphSchema = []string{
	"CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT, age INTEGER)",
	"CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT, pop INTEGER)",
	"CREATE TABLE knows (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, w INTEGER)",
	"CREATE TABLE lives (id INTEGER PRIMARY KEY, p INTEGER, c INTEGER, since INTEGER)",
}

const graphDDL = "CREATE PROPERTY GRAPH g VERTEX TABLES (" +
	"person KEY (id) LABEL person PROPERTIES (id, name, age) LABEL entity PROPERTIES (id, name), " +
	"city KEY (id) LABEL city PROPERTIES (id, name, pop) LABEL entity PROPERTIES (id, name)) " +
	"EDGE TABLES (" +
	"knows KEY (id) SOURCE KEY (a) REFERENCES person (id) DESTINATION KEY (b) REFERENCES person (id) " +
	"LABEL knows PROPERTIES (id, w) LABEL link PROPERTIES (id), " +
	"lives KEY (id) SOURCE KEY (p) REFERENCES person (id) DESTINATION KEY (c) REFERENCES city (id) " +
	"LABEL lives PROPERTIES (id, since) LABEL link PROPERTIES (id))"

// NewGraphDB draws a graph of up to 9 persons, 3 cities, 18 knows and 6
// lives edges; an edge key is NULL one time in twelve, and knows has
// self-loops and parallel edges by chance and on purpose.
func NewGraphDB(r *rand.Rand) *GraphDB {
	db := &GraphDB{}
	np, nc := 1+r.IntN(9), 1+r.IntN(3)
	names := []string{"'ann'", "'bob'", "'cy'", "NULL"}
	for i := 1; i <= np; i++ {
		db.Persons = append(db.Persons, fmt.Sprintf("(%d, %s, %d)", i, names[r.IntN(len(names))], 20+r.IntN(5)))
	}
	for i := 1; i <= nc; i++ {
		db.Cities = append(db.Cities, fmt.Sprintf("(%d, %s, %d)", i, names[r.IntN(len(names))], r.IntN(3)))
	}
	key := func(n int) string {
		if r.IntN(12) == 0 {
			return "NULL"
		}
		return fmt.Sprint(1 + r.IntN(n))
	}
	for i := 1; i <= r.IntN(19); i++ {
		a, b := key(np), key(np)
		if r.IntN(6) == 0 {
			b = a // a self-loop
		}
		db.Knows = append(db.Knows, fmt.Sprintf("(%d, %s, %s, %d)", i, a, b, r.IntN(4)))
		if r.IntN(6) == 0 { // a parallel edge
			i++
			db.Knows = append(db.Knows, fmt.Sprintf("(%d, %s, %s, %d)", i, a, b, r.IntN(4)))
		}
	}
	for i := 1; i <= r.IntN(7); i++ {
		db.Lives = append(db.Lives, fmt.Sprintf("(%d, %s, %s, %d)", i, key(np), key(nc), 2000+r.IntN(3)))
	}
	return db
}

// Setup is the statements that create and fill the tables, and indexes on
// the edge keys one time in two (both engines plan their lookups then).
func (db *GraphDB) Setup(indexed bool) []string {
	out := append([]string{}, graphSchema...)
	for _, t := range []struct {
		name string
		rows []string
	}{{"person", db.Persons}, {"city", db.Cities}, {"knows", db.Knows}, {"lives", db.Lives}} {
		if len(t.rows) > 0 {
			out = append(out, "INSERT INTO "+t.name+" VALUES "+strings.Join(t.rows, ", "))
		}
	}
	if indexed {
		out = append(out, "CREATE INDEX knows_a ON knows(a)", "CREATE INDEX knows_b ON knows(b)",
			"CREATE INDEX lives_p ON lives(p)", "CREATE INDEX lives_c ON lives(c)")
	}
	return out
}

// graphTable is one table of the graph: its labels and properties, and for
// an edge table the columns and tables of its two ends.
type graphTable struct {
	name     string
	labels   []string
	props    []string
	src, dst string // key columns (edges)
	from, to string // vertex tables (edges)
}

var (
	graphVertexTables = []graphTable{
		{name: "person", labels: []string{"person", "entity"}, props: []string{"id", "name", "age"}},
		{name: "city", labels: []string{"city", "entity"}, props: []string{"id", "name", "pop"}},
	}
	graphEdgeTables = []graphTable{
		{name: "knows", labels: []string{"knows", "link"}, props: []string{"id", "w"}, src: "a", dst: "b", from: "person", to: "person"},
		{name: "lives", labels: []string{"lives", "link"}, props: []string{"id", "since"}, src: "p", dst: "c", from: "person", to: "city"},
	}
	// label expressions a vertex or edge pattern may carry, "" for none.
	graphVertexLabels = []string{"", "person", "city", "entity", "person|city", "%", "!city", "person&entity"}
	graphEdgeLabels   = []string{"", "knows", "lives", "link", "knows|lives", "!lives"}
)

// labelMatches reports whether a table with labels satisfies label
// expression expr (one of the forms above).
func labelMatches(expr string, labels []string) bool {
	has := func(l string) bool {
		for _, x := range labels {
			if x == l {
				return true
			}
		}
		return false
	}
	switch {
	case expr == "" || expr == "%":
		return true
	case strings.HasPrefix(expr, "!"):
		return !has(expr[1:])
	case strings.Contains(expr, "|"):
		for _, l := range strings.Split(expr, "|") {
			if has(l) {
				return true
			}
		}
		return false
	case strings.Contains(expr, "&"):
		for _, l := range strings.Split(expr, "&") {
			if !has(l) {
				return false
			}
		}
		return true
	}
	return has(expr)
}

// GraphQuery is one random MATCH query: a path of vertex and edge
// patterns, or two vertices joined by one quantified knows edge.
type GraphQuery struct {
	Verts []graphVar // len(Edges)+1
	Edges []graphVar
	// Quant, when set, makes the single edge quantified {Min,Max}, under
	// Selector ("", "ANY SHORTEST", "ALL SHORTEST").
	Quant    bool
	Min, Max int
	Selector string
	// PathVar declares the path variable pv (quantified patterns), and
	// COLUMNS may then hold path_length(pv).
	PathVar bool
	Where   string // the graph pattern's WHERE, "" for none
	Cols    []string
}

// graphVar is one element pattern: variable name, label expression,
// element WHERE ("" for none) and, for an edge, its direction ("->",
// "<-", "-").
type graphVar struct {
	name, label, where, dir string
}

// commonProps are the properties every table a label expression allows
// has.
func commonProps(label string, tables []graphTable) []string {
	var out []string
	first := true
	for _, t := range tables {
		if !labelMatches(label, t.labels) {
			continue
		}
		if first {
			out, first = append(out, t.props...), false
			continue
		}
		var keep []string
		for _, p := range out {
			for _, q := range t.props {
				if p == q {
					keep = append(keep, p)
				}
			}
		}
		out = keep
	}
	return out
}

// NewGraphQuery draws a query: one time in three a quantified knows edge
// (bounds up to 3 hops, a selector one time in two), else a path of 1 to 3
// edges with random labels and directions.
func NewGraphQuery(r *rand.Rand) *GraphQuery {
	q := &GraphQuery{}
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	vertex := func(i int, labels []string) graphVar {
		v := graphVar{name: fmt.Sprintf("v%d", i), label: pick(labels)}
		if r.IntN(3) == 0 {
			switch props := commonProps(v.label, graphVertexTables); {
			case contains(props, "name") && r.IntN(2) == 0:
				v.where = fmt.Sprintf("%s.name = %s", v.name, pick([]string{"'ann'", "'bob'"}))
			case contains(props, "id"):
				v.where = fmt.Sprintf("%s.id %s %d", v.name, pick([]string{"<", ">", "<>", "="}), 1+r.IntN(5))
			}
		}
		return v
	}
	if r.IntN(3) == 0 {
		q.Quant = true
		q.Min = r.IntN(3)
		q.Max = max(1, q.Min+r.IntN(3))
		q.Selector = pick([]string{"", "ANY SHORTEST", "ALL SHORTEST"})
		// Both ends stay person: a zero-length walk of a city would match
		// a quantified knows edge too, and the rewrite starts from person.
		vl := []string{"person", "entity&person"}
		q.Verts = []graphVar{vertex(0, vl), vertex(1, vl)}
		e := graphVar{name: "e0", label: pick([]string{"knows", ""}), dir: pick([]string{"->", "<-", "-"})}
		if e.label == "" {
			e.label = "knows" // a quantified edge stays within person
		}
		if r.IntN(3) == 0 {
			e.where = fmt.Sprintf("e0.w %s %d", pick([]string{"<", ">"}), 1+r.IntN(2))
		}
		q.Edges = []graphVar{e}
		q.PathVar = r.IntN(2) == 0
	} else {
		n := 1 + r.IntN(3)
		for i := 0; i <= n; i++ {
			q.Verts = append(q.Verts, vertex(i, graphVertexLabels))
		}
		for i := range n {
			e := graphVar{name: fmt.Sprintf("e%d", i), label: pick(graphEdgeLabels), dir: pick([]string{"->", "<-", "-"})}
			if r.IntN(4) == 0 && contains(commonProps(e.label, graphEdgeTables), "id") {
				e.where = fmt.Sprintf("%s.id %% 2 = %d", e.name, r.IntN(2))
			}
			q.Edges = append(q.Edges, e)
		}
		if r.IntN(3) == 0 && n >= 1 {
			q.Where = fmt.Sprintf("%s.id <> %s.id", q.Verts[0].name, q.Verts[n].name)
		}
	}
	// COLUMNS: some vertex properties, and edge ids of a fixed path.
	for _, v := range q.Verts {
		for _, p := range commonProps(v.label, graphVertexTables) {
			if p != "age" && p != "pop" && r.IntN(2) == 0 {
				q.Cols = append(q.Cols, v.name+"."+p)
			}
		}
	}
	if !q.Quant {
		for _, e := range q.Edges {
			if contains(commonProps(e.label, graphEdgeTables), "id") && r.IntN(2) == 0 {
				q.Cols = append(q.Cols, e.name+".id")
			}
		}
	}
	if q.PathVar {
		q.Cols = append(q.Cols, "path_length(pv)")
	}
	if len(q.Cols) == 0 {
		q.Cols = []string{q.Verts[0].name + ".id"}
	}
	return q
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// GraphTableSQL is the query in SQL/PGQ: SELECT * FROM GRAPH_TABLE (g
// MATCH … COLUMNS (…)).
func (q *GraphQuery) GraphTableSQL() string {
	var b strings.Builder
	b.WriteString("SELECT * FROM GRAPH_TABLE (g MATCH ")
	if q.PathVar {
		b.WriteString("pv = ")
	}
	if q.Selector != "" {
		b.WriteString(q.Selector + " ")
	}
	elem := func(v graphVar) string {
		s := v.name
		if v.label != "" {
			s += " IS " + v.label
		}
		if v.where != "" {
			s += " WHERE " + v.where
		}
		return s
	}
	for i, v := range q.Verts {
		if i > 0 {
			e := q.Edges[i-1]
			left, right := "-[", "]-"
			switch e.dir {
			case "->":
				right = "]->"
			case "<-":
				left = "<-["
			}
			b.WriteString(left + elem(e) + right)
			if q.Quant {
				fmt.Fprintf(&b, "{%d,%d}", q.Min, q.Max)
			}
		}
		b.WriteString("(" + elem(v) + ")")
	}
	if q.Where != "" {
		b.WriteString(" WHERE " + q.Where)
	}
	b.WriteString(" COLUMNS (")
	for i, c := range q.Cols {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s AS c%d", c, i)
	}
	b.WriteString("))")
	return b.String()
}

// RewriteSQL is the query in plain SQL: a UNION ALL of one join per
// consistent choice of tables for the variables (fixed-length paths), or
// a recursive CTE of walks (a quantified edge). It returns "" when no
// choice of tables fits the pattern (the answer is empty).
func (q *GraphQuery) RewriteSQL() string {
	if q.Quant {
		return q.quantRewrite()
	}
	var arms []string
	var vt []graphTable
	var et []graphTable
	var rec func()
	rec = func() {
		switch {
		case len(vt) < len(q.Verts):
			for _, t := range graphVertexTables {
				if labelMatches(q.Verts[len(vt)].label, t.labels) {
					vt = append(vt, t)
					rec()
					vt = vt[:len(vt)-1]
				}
			}
		case len(et) < len(q.Edges):
			for _, t := range graphEdgeTables {
				if labelMatches(q.Edges[len(et)].label, t.labels) {
					et = append(et, t)
					rec()
					et = et[:len(et)-1]
				}
			}
		default:
			if arm := q.joinArm(vt, et); arm != "" {
				arms = append(arms, arm)
			}
		}
	}
	rec()
	return strings.Join(arms, " UNION ALL ")
}

// joinArm is the join of one choice of tables, "" when an edge's tables do
// not connect its vertices' tables in its direction.
func (q *GraphQuery) joinArm(vt, et []graphTable) string {
	from := []string{}
	var conds []string
	for i, v := range q.Verts {
		from = append(from, vt[i].name+" AS "+v.name)
		if v.where != "" {
			conds = append(conds, v.where)
		}
	}
	for i, e := range q.Edges {
		t := et[i]
		x, y := q.Verts[i], q.Verts[i+1]
		fwd := t.from == vt[i].name && t.to == vt[i+1].name
		bwd := t.from == vt[i+1].name && t.to == vt[i].name
		f := fmt.Sprintf("%s.%s = %s.id AND %s.%s = %s.id", e.name, t.src, x.name, e.name, t.dst, y.name)
		bk := fmt.Sprintf("%s.%s = %s.id AND %s.%s = %s.id", e.name, t.src, y.name, e.name, t.dst, x.name)
		var c string
		switch {
		case e.dir == "->" && fwd:
			c = f
		case e.dir == "<-" && bwd:
			c = bk
		case e.dir == "-" && fwd && bwd:
			c = "((" + f + ") OR (" + bk + "))"
		case e.dir == "-" && fwd:
			c = f
		case e.dir == "-" && bwd:
			c = bk
		default:
			return ""
		}
		from = append(from, t.name+" AS "+e.name)
		conds = append(conds, c)
		if e.where != "" {
			conds = append(conds, e.where)
		}
	}
	if q.Where != "" {
		conds = append(conds, q.Where)
	}
	return "SELECT " + q.selectList() + " FROM " + strings.Join(from, ", ") + " WHERE " + strings.Join(conds, " AND ")
}

func (q *GraphQuery) selectList() string {
	var cols []string
	for i, c := range q.Cols {
		if c == "path_length(pv)" {
			c = "p.n" // the walk's length in quantRewrite
		}
		cols = append(cols, fmt.Sprintf("%s AS c%d", c, i))
	}
	return strings.Join(cols, ", ")
}

// quantRewrite is a quantified knows edge as a recursive CTE of walks
// w(s, v, n): start vertex, end vertex, edges. An edge is followed once
// per step in any direction (a self-loop once), as GraphExpand does; the
// shortest selectors keep the walks of the least length per (s, v).
func (q *GraphQuery) quantRewrite() string {
	e := q.Edges[0]
	step := map[string]string{
		"->": "JOIN knows AS e0 ON e0.a = w.v",
		"<-": "JOIN knows AS e0 ON e0.b = w.v",
		"-":  "JOIN knows AS e0 ON (e0.a = w.v OR e0.b = w.v)",
	}[e.dir]
	next := map[string]string{"->": "e0.b", "<-": "e0.a", "-": "CASE WHEN e0.a = w.v THEN e0.b ELSE e0.a END"}[e.dir]
	where := fmt.Sprintf("w.n < %d", q.Max)
	if e.where != "" {
		where += " AND " + e.where
	}
	cte := fmt.Sprintf("WITH RECURSIVE w(s, v, n) AS (SELECT id, id, 0 FROM person UNION ALL SELECT w.s, %s, w.n + 1 FROM w %s WHERE %s)", next, step, where)
	walks := fmt.Sprintf("(SELECT s, v, n FROM w WHERE n >= %d)", q.Min)
	src := walks
	switch q.Selector {
	case "ANY SHORTEST":
		src = fmt.Sprintf("(SELECT s, v, min(n) AS n FROM w WHERE n >= %d GROUP BY s, v)", q.Min)
	case "ALL SHORTEST":
		src = fmt.Sprintf("(SELECT x.s, x.v, x.n FROM %s AS x JOIN (SELECT s, v, min(n) AS n FROM w WHERE n >= %d GROUP BY s, v) AS m ON m.s = x.s AND m.v = x.v AND m.n = x.n)", walks, q.Min)
	}
	a, b := q.Verts[0], q.Verts[1]
	conds := []string{"p.s = " + a.name + ".id", b.name + ".id = p.v"}
	for _, v := range q.Verts {
		if v.where != "" {
			conds = append(conds, v.where)
		}
	}
	if q.Where != "" {
		conds = append(conds, q.Where)
	}
	return fmt.Sprintf("%s SELECT %s FROM person AS %s, %s AS p, person AS %s WHERE %s",
		cte, q.selectList(), a.name, src, b.name, strings.Join(conds, " AND "))
}
