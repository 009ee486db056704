package gen

import (
	"fmt"
	"strings"
)

// Value pools for the writable tables: keys collide with existing rows,
// and a few values break NOT NULL or CHECK.
var (
	w1IDs = []string{"NULL", "1", "2", "3", "4", "5", "6", "7", "8"}
	w1Us  = []string{"NULL", "10", "20", "30", "40", "50", "60"}
	w1Ns  = []string{"'a'", "'b'", "'c'", "'d'", "5", "'a'", "'e'", "'b'", "'f'", "NULL"}
	w1Cs  = []string{"NULL", "0", "3", "9", "1", "-1"}
	w1Ss  = []string{"'d'", "'x'", "NULL", "'zz'"}
	w2Ps  = []string{"1", "2", "3", "NULL"}
	w2Qs  = []string{"'a'", "'b'", "'c'", "NULL"}
	w2Rs  = []string{"NULL", "1.5", "-0.5", "2.25", "0.75"}
	w2Ms  = []string{"NULL", "1", "2", "3"}
	w3IDs = []string{"NULL", "1", "2", "5", "6"}
	w3Ps  = []string{"NULL", "1", "2", "3", "4", "9"}
	w3Ns  = []string{"'x'", "'q'", "NULL"}
)

var conflictVerbs = []string{"INSERT", "INSERT", "INSERT OR IGNORE", "INSERT OR REPLACE", "REPLACE", "INSERT OR ABORT", "INSERT OR FAIL", "INSERT OR ROLLBACK"}

// Write returns a random INSERT, upsert, UPDATE or DELETE on w1 or w2.
func (g *Gen) Write() Stmt {
	g.inWrite = true
	defer func() { g.inWrite = false }()
	t := tables[3+g.r.IntN(3)]
	var sql string
	switch g.r.IntN(10) {
	case 0, 1, 2:
		sql = g.insertValues(t)
	case 3, 4:
		sql = g.upsert(t)
	case 5:
		sql = g.insertSelect(t)
	case 6, 7:
		sql = g.update(t)
	default:
		sql = g.delete(t)
	}
	st := Stmt{SQL: sql, Write: true, Table: t.name}
	if g.r.IntN(5) == 0 {
		st.SQL += " RETURNING " + pick(g, []string{"*", t.cols[0].name, t.cols[0].name + ", " + t.cols[2].name})
		st.Returns = true
	}
	g.bindParams(&st)
	return st
}

// row returns a VALUES tuple for cols of t.
func (g *Gen) row(t table, cols []string) string {
	vals := make([]string, len(cols))
	for i, c := range cols {
		vals[i] = g.lit(pick(g, pool(t, c)))
	}
	return "(" + strings.Join(vals, ", ") + ")"
}

func pool(t table, col string) []string {
	switch t.name {
	case "w1":
		return map[string][]string{"id": w1IDs, "u": w1Us, "n": w1Ns, "c": w1Cs, "s": w1Ss}[col]
	case "w2":
		return map[string][]string{"p": w2Ps, "q": w2Qs, "r": w2Rs, "m": w2Ms}[col]
	}
	return map[string][]string{"id": w3IDs, "pid": w3Ps, "note": w3Ns}[col]
}

// columnSubset picks insert columns, keeping the column order of t; the
// first two columns are usually present so keys collide.
func (g *Gen) columnSubset(t table) []string {
	var out []string
	for i, c := range t.cols {
		if i < 3 && g.r.IntN(6) > 0 || g.r.IntN(2) == 0 {
			out = append(out, c.name)
		}
	}
	if len(out) == 0 {
		out = append(out, t.cols[1].name)
	}
	return out
}

func (g *Gen) insertValues(t table) string {
	if g.r.IntN(15) == 0 {
		return fmt.Sprintf("%s INTO %s DEFAULT VALUES", pick(g, conflictVerbs), t.name)
	}
	cols := g.columnSubset(t)
	rows := make([]string, 1+g.r.IntN(3))
	for i := range rows {
		rows[i] = g.row(t, cols)
	}
	return fmt.Sprintf("%s INTO %s(%s) VALUES %s", pick(g, conflictVerbs), t.name, strings.Join(cols, ", "), strings.Join(rows, ", "))
}

// upsert is an INSERT with one or two ON CONFLICT clauses.
func (g *Gen) upsert(t table) string {
	cols := g.columnSubset(t)
	rows := make([]string, 1+g.r.IntN(2))
	for i := range rows {
		rows[i] = g.row(t, cols)
	}
	sql := fmt.Sprintf("INSERT INTO %s(%s) VALUES %s", t.name, strings.Join(cols, ", "), strings.Join(rows, ", "))
	targets := map[string][]string{"w1": {"(id)", "(u)"}, "w2": {"(p, q)", "(r)"}, "w3": {"(id)", "(id)"}}[t.name]
	first := g.r.IntN(2)
	sql += " ON CONFLICT " + targets[first] + " " + g.conflictAction(t)
	if g.r.IntN(3) == 0 {
		sql += " ON CONFLICT " + targets[1-first] + " " + g.conflictAction(t)
	}
	if g.r.IntN(4) == 0 {
		sql += " ON CONFLICT DO NOTHING"
	}
	return sql
}

func (g *Gen) conflictAction(t table) string {
	if g.r.IntN(4) == 0 {
		return "DO NOTHING"
	}
	set := map[string][]string{
		"w1": {"n = excluded.n", "c = coalesce(w1.c, 0) + 1", "u = excluded.u", "s = excluded.s || w1.n", "c = excluded.c",
			"id = w1.id + " + g.lit("10"), "u = coalesce(excluded.u, 0) + 1", "id = excluded.u"},
		"w2": {"m = coalesce(w2.m, 0) + 1", "r = excluded.r", "q = excluded.q", "m = excluded.m", "p = w2.p + " + g.lit("1"), "r = excluded.r + 1"},
		"w3": {"pid = excluded.pid", "note = excluded.note", "note = w3.note || '!'", "id = w3.id + " + g.lit("100")},
	}[t.name]
	a := pick(g, set)
	if g.r.IntN(3) == 0 {
		a += ", " + pick(g, set)
	}
	act := "DO UPDATE SET " + a
	if g.r.IntN(3) == 0 {
		act += " WHERE " + pick(g, []string{"excluded.%s IS NOT NULL", "%s IS NULL", "excluded.%s <> 1"})
		act = fmt.Sprintf(act, t.cols[2].name)
	}
	return act
}

// insertSelect copies rows of t1, in a fixed order, into t.
func (g *Gen) insertSelect(t table) string {
	ts, tr := g.tableRef(tables[0])
	s := &scope{refs: tr}
	a := strings.TrimSuffix(tr[0].sql, ".a")
	var sel string
	if t.name == "w1" {
		sel = fmt.Sprintf("%s.b, coalesce(%s.c, 'z'), %s.b", a, a, a)
		return fmt.Sprintf("%s INTO w1(u, n, c) SELECT %s FROM %s WHERE %s ORDER BY %s.a",
			pick(g, conflictVerbs), sel, ts, g.pred(s, 2), a)
	}
	if t.name == "w3" {
		return fmt.Sprintf("%s INTO w3(pid, note) SELECT %s.a %% 6, %s.c FROM %s WHERE %s ORDER BY %s.a",
			pick(g, conflictVerbs), a, a, ts, g.pred(s, 2), a)
	}
	sel = fmt.Sprintf("%s.a %% 3, %s.c, %s.d, %s.b", a, a, a, a)
	return fmt.Sprintf("%s INTO w2(p, q, r, m) SELECT %s FROM %s WHERE %s ORDER BY %s.a",
		pick(g, conflictVerbs), sel, ts, g.pred(s, 2), a)
}

var updateVerbs = []string{"UPDATE", "UPDATE", "UPDATE OR IGNORE", "UPDATE OR REPLACE", "UPDATE OR ABORT", "UPDATE OR FAIL"}

func (g *Gen) update(t table) string {
	set := map[string][]string{
		"w1": {"u = u + 10", "u = " + g.lit(pick(g, w1Us)), "n = upper(n)", "n = NULL", "c = c - 3", "c = c + 1", "s = n || coalesce(s, '')", "id = id + 1", "id = id + 10", "u = NULL"},
		"w2": {"m = m + 1", "r = r + 0.75", "q = 'z'", "p = p + 1", "r = NULL", "q = upper(q)"},
		"w3": {"pid = " + g.lit(pick(g, w3Ps)), "pid = pid + 1", "note = " + g.lit("'n'"), "id = id + 10"},
	}[t.name]
	a := pick(g, set)
	if g.r.IntN(3) == 0 {
		a += ", " + pick(g, set)
	}
	verb := pick(g, updateVerbs)
	sql := fmt.Sprintf("%s %s SET %s", verb, t.name, a)
	if orderSensitive(verb, a) {
		// Which row of a multi-row UPDATE hits a UNIQUE conflict first, or
		// where OR FAIL stops, depends on the visiting order, which SQLite
		// leaves undefined: such updates touch one row.
		return sql + fmt.Sprintf(" WHERE %s.rowid = %d", t.name, 1+g.r.IntN(6))
	}
	if t.name == "w1" && g.r.IntN(6) == 0 {
		// UPDATE … FROM over a unique key: one source row per target row.
		return sql + ", c = abs(f.b) FROM t1 AS f WHERE f.a = w1.id"
	}
	if g.r.IntN(5) > 0 {
		sql += " WHERE " + g.pred(g.filterScope(t), 2)
	}
	return sql
}

// orderSensitive reports whether a multi-row UPDATE's outcome could depend on
// the order rows are visited: it sets a key column, or stops half-way (FAIL).
func orderSensitive(verb, set string) bool {
	if verb == "UPDATE OR FAIL" {
		return true
	}
	for _, a := range strings.Split(set, ", ") {
		col, _, _ := strings.Cut(a, " =")
		switch col {
		case "id", "u", "p", "q", "r", "pid":
			return true
		}
	}
	return false
}

func (g *Gen) delete(t table) string {
	sql := "DELETE FROM " + t.name
	if g.r.IntN(8) > 0 {
		sql += " WHERE " + g.pred(g.filterScope(t), 2)
	}
	return sql
}

// filterScope holds only columns no index covers (plus the rowid), so
// SQLite scans in rowid order and order-dependent conflicts resolve alike.
func (g *Gen) filterScope(t table) *scope {
	s := &scope{}
	for _, c := range t.filterCols {
		s.refs = append(s.refs, ref{sql: t.name + "." + c})
	}
	return s
}
