package engine

import (
	"sort"
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// This file carries a rename to the objects that refer to the renamed
// table or column: foreign keys of other tables and triggers. Only the
// renamed identifiers of the stored text change, as in SQLite (see
// textEdit).

// skipSpace returns the first offset at or after i that is not blank.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// scanIdent reads the identifier at s[i:] (quoted or bare) and returns its
// end and unquoted value.
func scanIdent(s string, i int) (int, string, bool) {
	if i >= len(s) {
		return i, "", false
	}
	if c := s[i]; c == '"' || c == '`' || c == '[' {
		closer := c
		if c == '[' {
			closer = ']'
		}
		var b strings.Builder
		for j := i + 1; j < len(s); j++ {
			if s[j] != closer {
				b.WriteByte(s[j])
				continue
			}
			if closer != ']' && j+1 < len(s) && s[j+1] == closer {
				b.WriteByte(closer)
				j++
				continue
			}
			return j + 1, b.String(), true
		}
		return i, "", false
	}
	j := i
	for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' || s[j] >= 0x80) {
		j++
	}
	return j, s[i:j], j > i
}

func quoted(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// foreignKeys returns the REFERENCES clauses of ct that name table,
// last in the text first, so splicing one keeps the offsets of the rest.
func foreignKeys(ct *grammar.CreateTableStmt, table string) []*grammar.ForeignKey {
	var out []*grammar.ForeignKey
	grammar.Walk(ct, func(n grammar.Node) bool {
		if fk, ok := n.(*grammar.ForeignKey); ok && strings.EqualFold(fk.Table, table) {
			out = append(out, fk)
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Offset > out[j].Offset })
	return out
}

// fkTableSpan returns the span of the table name of the REFERENCES clause
// at off in sql.
func fkTableSpan(sql string, off int) (int, int, bool) {
	i := skipSpace(sql, off)
	end, kw, ok := scanIdent(sql, i)
	if !ok || !strings.EqualFold(kw, "REFERENCES") {
		return 0, 0, false
	}
	start := skipSpace(sql, end)
	end, _, ok = scanIdent(sql, start)
	return start, end, ok
}

// renameFKTable rewrites the REFERENCES clauses of sql that name from to
// name to.
func renameFKTable(sql, from, to string) (string, bool, error) {
	ct, err := parseCreateTable(sql)
	if err != nil {
		return "", false, err
	}
	changed := false
	for _, fk := range foreignKeys(ct, from) {
		start, end, ok := fkTableSpan(sql, fk.Offset)
		if !ok {
			continue
		}
		sql, changed = sql[:start]+quoted(to)+sql[end:], true
	}
	return sql, changed, nil
}

// renameFKColumn rewrites column from to to in the parent column lists of
// the REFERENCES clauses of sql that name table; quote forces the new name
// in quotes.
func renameFKColumn(sql, table, from, to string, quote bool) (string, bool, error) {
	ct, err := parseCreateTable(sql)
	if err != nil {
		return "", false, err
	}
	e := newTextEdit(sql, quote)
	if !renameFKColumns(ct, e, table, from, to) {
		return sql, false, nil
	}
	return e.result(ct), true, nil
}

// renameFKColumns renames column from of table to to in the REFERENCES
// clauses of ct that name table, marking them in e.
func renameFKColumns(ct *grammar.CreateTableStmt, e *textEdit, table, from, to string) bool {
	changed := false
	for _, fk := range foreignKeys(ct, table) {
		found := false
		for k, c := range fk.Columns {
			if strings.EqualFold(c, from) {
				fk.Columns[k], found = to, true
			}
		}
		if found {
			changed = true
			e.list(e.after(fk.Offset)+1, from, to)
		}
	}
	return changed
}

// rewriteFKs applies edit to the CREATE text of every table other than
// skip, and rebuilds the tables whose text changed.
func rewriteFKs(cat *catalog.Catalog, skip string, edit func(string) (string, bool, error)) error {
	for _, e := range cat.Entries() {
		if e.Type != "table" || strings.EqualFold(e.Name, skip) {
			continue
		}
		sql, changed, err := edit(e.SQL)
		if err != nil {
			return err
		}
		if changed {
			if _, err := replaceTableSQL(cat, cat.Table(e.Name), sql); err != nil {
				return err
			}
		}
	}
	return nil
}

// rewriteTriggers applies edit to every trigger; edit reports whether it
// changed the statement, whose text is then edited (see textEdit) and
// stored. quote forces the new names in quotes.
func rewriteTriggers(cat *catalog.Catalog, quote bool, edit func(*grammar.CreateTriggerStmt, *textEdit) bool) error {
	for _, e := range cat.Entries() {
		if e.Type != "trigger" {
			continue
		}
		st, err := parseOne(e.SQL)
		if err != nil {
			return err
		}
		tr, ok := st.(*grammar.CreateTriggerStmt)
		if !ok {
			continue
		}
		te := newTextEdit(e.SQL, quote)
		if !edit(tr, te) {
			continue
		}
		prev := cat.Trigger(e.Name)
		cat.PutTrigger(&catalog.Trigger{Name: e.Name, Table: tr.Table, SQL: te.result(tr), Temp: prev.Temp, OnMain: prev.OnMain})
	}
	return nil
}

// triggerOn returns the token index of the table name after ON in a
// trigger's header, or -1.
func triggerOn(e *textEdit) int {
	if on := e.find(0, "ON"); on >= 0 {
		return on + 1
	}
	return -1
}

// renameTableInTrigger renames table from to to in tr, marking the
// changed names in e.
func renameTableInTrigger(tr *grammar.CreateTriggerStmt, e *textEdit, from, to string) bool {
	changed := false
	if isMain(tr.Schema) && strings.EqualFold(tr.Table, from) {
		tr.Table, changed = to, true
		e.partTok(triggerOn(e), 0, from, to)
	}
	if renameTableRefs(tr, e, from, to) {
		changed = true
	}
	return changed
}

// renameTableRefs renames table from to to in the table names and column
// qualifiers below n, marking them in e; it reports whether it changed
// any.
func renameTableRefs(n grammar.Node, e *textEdit, from, to string) bool {
	changed := false
	grammar.Walk(n, func(x grammar.Node) bool {
		switch x := x.(type) {
		case *grammar.TableName:
			if isMain(x.Schema) && strings.EqualFold(x.Name, from) {
				x.Name, changed = to, true
				e.part(x.Offset, 0, from, to)
			}
		case *grammar.ColumnRef:
			if strings.EqualFold(x.Table, from) {
				x.Table, changed = to, true
				e.part(x.Offset, 1, from, to)
			}
		}
		return true
	})
	return changed
}

// renameColumnInTrigger renames column from of table to to in tr: its
// UPDATE OF list when tr is on table, the column lists of body statements
// that write table, and the column references that resolve to the column
// (NEW.x and OLD.x when tr is on table; see scopedRename). The changed
// names are marked in e.
func renameColumnInTrigger(cat *catalog.Catalog, tr *grammar.CreateTriggerStmt, e *textEdit, table, from, to string) bool {
	r := &scopedRename{cat: cat, table: table, from: from, to: to, e: e}
	rename := func(list []string) bool {
		found := false
		for i, c := range list {
			if strings.EqualFold(c, from) {
				list[i], found = to, true
			}
		}
		r.changed = r.changed || found
		return found
	}
	if strings.EqualFold(tr.Table, table) && rename(tr.Columns) {
		of := e.find(e.find(0, "UPDATE"), "OF")
		if of < 0 || !e.names(of+1, triggerOn(e), from, to) {
			e.failed = true
		}
	}
	r.walk(tr.When, targetScope(tr.Table, nil))
	for _, st := range tr.Body {
		switch s := st.(type) {
		case *grammar.InsertStmt:
			if s.Table != nil && strings.EqualFold(s.Table.Name, table) && rename(s.Columns) {
				e.list(e.at(s.Table.Offset)+1, from, to)
			}
		case *grammar.UpdateStmt:
			if s.Table != nil && strings.EqualFold(s.Table.Name, table) {
				renameSetColumns(s, e, rename, from, to)
			}
		}
		r.walk(st, targetScope(tr.Table, st))
	}
	return r.changed
}

// renameSetColumns renames column from to to in the SET clauses of s
// through rename, marking the names before each clause's "=" in e.
func renameSetColumns(s *grammar.UpdateStmt, e *textEdit, rename func([]string) bool, from, to string) {
	grammar.Walk(s, func(x grammar.Node) bool {
		sc, ok := x.(*grammar.SetClause)
		if !ok || !rename(sc.Columns) {
			return true
		}
		if i := e.at(sc.Offset); i < 0 || !e.names(i, e.find(i, "="), from, to) {
			e.failed = true
		}
		return true
	})
}
