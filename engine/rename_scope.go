package engine

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// scopedRename renames column from of table to to in the column
// references of a view or trigger body that resolve to that table: a
// qualified reference whose qualifier is the table or one of its aliases
// in an enclosing FROM, and a bare one whose innermost enclosing FROM with
// a table that has a column named from is one that reads the table, as
// SQLite resolves names. Each renamed name is marked in e.
type scopedRename struct {
	cat             *catalog.Catalog
	table, from, to string
	e               *textEdit
	changed         bool
}

// scopeTable is one table of a FROM clause: its name and the name
// statements call it by. A qualOnly table (a trigger's NEW and OLD) is
// reached only by qualified references.
type scopeTable struct {
	name, alias string
	qualOnly    bool
}

// walk renames below n, with scopes the enclosing FROM clauses,
// innermost last.
func (r *scopedRename) walk(n grammar.Node, scopes [][]scopeTable) {
	switch x := n.(type) {
	case *grammar.SelectStmt:
		// ORDER BY reads the columns of its query's FROM.
		if core, ok := x.Body.(*grammar.SelectCore); ok {
			scopes = append(scopes, fromTables(core.From))
		}
	case *grammar.SelectCore:
		scopes = append(scopes, fromTables(x.From))
	}
	grammar.Walk(n, func(x grammar.Node) bool {
		if x == n {
			return true
		}
		switch x := x.(type) {
		case *grammar.SelectStmt, *grammar.SelectCore:
			r.walk(x, scopes)
			return false
		case *grammar.ColumnRef:
			r.ref(x, scopes)
		}
		return true
	})
}

// ref renames cr when it resolves to the renamed column.
func (r *scopedRename) ref(cr *grammar.ColumnRef, scopes [][]scopeTable) {
	if !strings.EqualFold(cr.Column, r.from) || !r.resolves(cr.Table, scopes) {
		return
	}
	cr.Column, r.changed = r.to, true
	r.e.part(cr.Offset, 0, r.from, r.to)
}

// resolves reports whether a reference qualified by q ("" = bare) to
// column from is the renamed table's.
func (r *scopedRename) resolves(q string, scopes [][]scopeTable) bool {
	for i := len(scopes) - 1; i >= 0; i-- {
		for _, st := range scopes[i] {
			if q != "" && strings.EqualFold(st.alias, q) {
				return strings.EqualFold(st.name, r.table)
			}
		}
		if q != "" {
			continue
		}
		has, ours := false, false
		for _, st := range scopes[i] {
			if t := r.cat.Table(st.name); !st.qualOnly && t != nil && t.ColumnIndex(r.from) >= 0 {
				has = true
				ours = ours || strings.EqualFold(st.name, r.table)
			}
		}
		if has {
			return ours
		}
	}
	return q != "" && strings.EqualFold(q, r.table)
}

// targetScope is the scope a trigger body statement's own expressions
// see: its trigger's NEW and OLD, then the table an UPDATE or DELETE
// writes (with an UPDATE's FROM tables).
func targetScope(trigTable string, st grammar.Statement) [][]scopeTable {
	scopes := [][]scopeTable{{{name: trigTable, alias: "new", qualOnly: true}, {name: trigTable, alias: "old", qualOnly: true}}}
	switch s := st.(type) {
	case *grammar.UpdateStmt:
		scopes = append(scopes, append(fromTables(s.Table), fromTables(s.From)...))
	case *grammar.DeleteStmt:
		scopes = append(scopes, fromTables(s.Table))
	}
	return scopes
}

// fromTables lists the tables a FROM clause names directly (not those of
// its subqueries).
func fromTables(te grammar.TableExpr) []scopeTable {
	var out []scopeTable
	var add func(grammar.TableExpr)
	add = func(te grammar.TableExpr) {
		switch x := te.(type) {
		case *grammar.TableName:
			alias := x.Name
			if x.Alias != "" {
				alias = x.Alias
			}
			name := x.Name
			if !isMain(x.Schema) {
				name = "" // another schema's table is never the renamed one
			}
			out = append(out, scopeTable{name: name, alias: alias})
		case *grammar.Join:
			add(x.Left)
			add(x.Right)
		}
	}
	if te != nil {
		add(te)
	}
	return out
}
