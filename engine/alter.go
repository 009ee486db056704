package engine

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/dml"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// alterTable applies ALTER TABLE: it edits the table's CREATE statement,
// rebuilds the catalog entries from the edited text (which stays the
// single source of truth), and rewrites rows in place where the stored
// form changes.
func alterTable(c *exec.Ctx, cat *catalog.Catalog, p *plan.AlterTable) (bool, error) {
	st := p.Stmt
	old := cat.Table(p.Table.Name)
	ct, err := parseCreateTable(old.SQL)
	if err != nil {
		return false, err
	}
	c.StmtText, c.StmtOffset = st.Text(), st.Offset
	switch st.Action {
	case grammar.AlterRenameTable:
		return true, renameTable(c, cat, old, ct, st.NewName)
	case grammar.AlterRenameColumn:
		return true, renameColumn(c.Catalog, cat, old, ct, st.Column, st.NewName, quotedNewName(st.Text()))
	case grammar.AlterAddColumn:
		return true, addColumn(c, cat, old, ct, st.ColumnDef)
	case grammar.AlterDropColumn:
		return true, dropColumn(c, cat, old, ct, st.Column)
	case grammar.AlterAddConstraint:
		return true, addConstraint(c, cat, old, ct, st.Constraint, p.Check)
	case grammar.AlterDropConstraint:
		return true, dropConstraint(c, cat, old, ct, st.Column)
	default:
		return true, alterColumn(c, cat, old, ct, st)
	}
}

func parseCreateTable(sql string) (*grammar.CreateTableStmt, error) {
	st, err := parseOne(sql)
	if err != nil {
		return nil, err
	}
	ct, ok := st.(*grammar.CreateTableStmt)
	if !ok {
		return nil, errs.New(errs.CodeCorrupt, "table definition is not a CREATE TABLE")
	}
	return ct, nil
}

// replaceTable rebuilds table old from the edited statement ct, keeping
// its tree and those of its automatic indexes (by ordinal), and renaming
// the rest of its indexes' table.
func replaceTable(cat *catalog.Catalog, old *catalog.Table, ct *grammar.CreateTableStmt) (*catalog.Table, error) {
	return replaceTableSQL(cat, old, ct.String())
}

// replaceTableSQL is replaceTable with the new CREATE text given; it is
// parsed again, so text and catalog agree.
func replaceTableSQL(cat *catalog.Catalog, old *catalog.Table, sql string) (*catalog.Table, error) {
	ct, err := parseCreateTable(sql)
	if err != nil {
		return nil, err
	}
	t, autos, err := plan.TableFromAST(ct)
	if err != nil {
		return nil, err
	}
	t.SQL, t.Root, t.Temp = sql, old.Root, old.Temp
	// The table and its automatic indexes keep their places in
	// sqlite_master's order, as SQLite edits their rows in place.
	var oldAutos []*catalog.Index
	var autoPos []int64
	for _, ix := range cat.TableIndexes(old.Name) {
		if ix.Auto {
			p, _ := cat.Position(ix.Name)
			oldAutos, autoPos = append(oldAutos, ix), append(autoPos, p)
			cat.Drop(ix.Name)
		}
	}
	if len(oldAutos) != len(autos) {
		return nil, errs.New(errs.CodeGeneric, "cannot change the UNIQUE or PRIMARY KEY constraints of %s with ALTER TABLE", old.Name)
	}
	pos, hasPos := cat.Position(old.Name)
	if !strings.EqualFold(old.Name, t.Name) {
		cat.Drop(old.Name)
	}
	cat.PutTable(t)
	if hasPos {
		cat.SetPosition(t.Name, pos)
	}
	for i, ix := range autos {
		ix.Root, ix.Temp = oldAutos[i].Root, old.Temp
		cat.PutIndex(ix)
		cat.SetPosition(ix.Name, autoPos[i])
	}
	return t, nil
}

func renameTable(c *exec.Ctx, cat *catalog.Catalog, old *catalog.Table, ct *grammar.CreateTableStmt, name string) error {
	main := c.Catalog
	if cat.Exists(name) && !strings.EqualFold(name, old.Name) {
		return errs.New(errs.CodeGeneric, "there is already another table or index with this name: %s", name)
	}
	if plan.IsSystemName(name) {
		return errs.New(errs.CodeGeneric, "object name reserved for internal use: %s", name)
	}
	for _, ix := range cat.TableIndexes(old.Name) {
		if ix.Auto {
			continue
		}
		ci, err := parseCreateIndex(ix.SQL)
		if err != nil {
			return err
		}
		ci.Table = name
		e := newTextEdit(ix.SQL, true)
		if on := e.find(0, "ON"); on >= 0 {
			e.partTok(on+1, 0, old.Name, name)
		} else {
			e.failed = true
		}
		n := *ix
		n.Table, n.SQL = name, e.result(ci)
		cat.PutIndex(&n)
	}
	if err := rewriteViews(cat, old.Name, true, func(n grammar.Node, e *textEdit) {
		renameTableRefs(n, e, old.Name, name)
	}); err != nil {
		return err
	}
	if err := rewriteFKs(cat, old.Name, func(sql string) (string, bool, error) {
		return renameFKTable(sql, old.Name, name)
	}); err != nil {
		return err
	}
	if err := rewriteTriggers(cat, true, func(tr *grammar.CreateTriggerStmt, e *textEdit) bool {
		return renameTableInTrigger(tr, e, old.Name, name)
	}); err != nil {
		return err
	}
	sql, ok := renameInCreate(old.SQL, name)
	if !ok {
		ct.Name = name
		sql = ct.String()
	}
	sql, _, err := renameFKTable(sql, old.Name, name) // self references
	if err != nil {
		return err
	}
	if _, err = replaceTableSQL(cat, old, sql); err != nil {
		return err
	}
	return checkSchemaAfter(main, cat, "rename")
}

// renameInCreate replaces the table name token of a CREATE TABLE text,
// keeping the rest of the text (and its quoting) as written.
func renameInCreate(sql, name string) (string, bool) {
	i := 0
	word := func() string {
		start := skipSpace(sql, i)
		end, w, ok := scanIdent(sql, start)
		if !ok || sql[start] == '"' || sql[start] == '`' || sql[start] == '[' {
			return ""
		}
		i = end
		return strings.ToUpper(w)
	}
	if word() != "CREATE" {
		return "", false
	}
	w := word()
	if w == "TEMP" || w == "TEMPORARY" {
		w = word()
	}
	if w != "TABLE" {
		return "", false
	}
	save := i
	if word() == "IF" && word() == "NOT" && word() == "EXISTS" {
		save = i
	}
	start := skipSpace(sql, save)
	end, _, ok := scanIdent(sql, start)
	if !ok {
		return "", false
	}
	return sql[:start] + quoted(name) + sql[end:], true
}

func parseCreateIndex(sql string) (*grammar.CreateIndexStmt, error) {
	st, err := parseOne(sql)
	if err != nil {
		return nil, err
	}
	ci, ok := st.(*grammar.CreateIndexStmt)
	if !ok {
		return nil, errs.New(errs.CodeCorrupt, "index definition is not a CREATE INDEX")
	}
	return ci, nil
}

// renameRefs renames column references from old to name in n, marking
// them in e.
func renameRefs(n grammar.Node, e *textEdit, old, name string) {
	grammar.Walk(n, func(x grammar.Node) bool {
		if cr, ok := x.(*grammar.ColumnRef); ok && strings.EqualFold(cr.Column, old) {
			cr.Column = name
			e.part(cr.Offset, 0, old, name)
		}
		return true
	})
}

// renameColumn renames column from of old to to in its CREATE text and
// in the indexes, views, triggers and foreign keys that name it. quote
// tells whether the new name was written in quotes, which SQLite then
// keeps in every edited text.
func renameColumn(main, cat *catalog.Catalog, old *catalog.Table, ct *grammar.CreateTableStmt, from, to string, quote bool) error {
	i := old.ColumnIndex(from)
	if i < 0 {
		return errs.New(errs.CodeGeneric, "no such column: \"%s\"", from)
	}
	if j := old.ColumnIndex(to); j >= 0 && j != i {
		return errs.New(errs.CodeGeneric, "error in table %s after rename: duplicate column name: %s", old.Name, to)
	}
	e := newTextEdit(old.SQL, quote)
	ct.Columns[i].Name = to
	e.set(e.at(ct.Columns[i].Offset), from, to)
	for _, tc := range ct.Constraints {
		renameRefs(tc, e, from, to)
		found := false
		for k, fc := range tc.FKColumns {
			if strings.EqualFold(fc, from) {
				tc.FKColumns[k], found = to, true
			}
		}
		if found {
			e.list(e.find(e.after(tc.Offset), "KEY"), from, to)
		}
	}
	for _, cd := range ct.Columns {
		for _, cc := range cd.Constraints {
			renameRefs(cc, e, from, to)
		}
	}
	renameFKColumns(ct, e, old.Name, from, to) // self references
	if err := rewriteFKs(cat, old.Name, func(sql string) (string, bool, error) {
		return renameFKColumn(sql, old.Name, from, to, quote)
	}); err != nil {
		return err
	}
	if err := rewriteTriggers(cat, quote, func(tr *grammar.CreateTriggerStmt, e *textEdit) bool {
		return renameColumnInTrigger(cat, tr, e, old.Name, from, to)
	}); err != nil {
		return err
	}
	if err := rewriteViews(cat, old.Name, quote, func(n grammar.Node, e *textEdit) {
		(&scopedRename{cat: cat, table: old.Name, from: from, to: to, e: e}).walk(n, nil)
	}); err != nil {
		return err
	}
	if _, err := replaceTableSQL(cat, old, e.result(ct)); err != nil {
		return err
	}
	for _, ix := range cat.TableIndexes(old.Name) {
		if ix.Auto {
			continue
		}
		ci, err := parseCreateIndex(ix.SQL)
		if err != nil {
			return err
		}
		ie := newTextEdit(ix.SQL, quote)
		renameRefs(ci, ie, from, to)
		if err := rebindIndex(cat, ix, ie.result(ci)); err != nil {
			return err
		}
	}
	return checkSchemaAfter(main, cat, "rename")
}

// rebindIndex replaces index ix by the one its edited CREATE text sql
// declares, on the same tree, so its key expressions and WHERE read the
// renamed columns.
func rebindIndex(cat *catalog.Catalog, ix *catalog.Index, sql string) error {
	ci, err := parseCreateIndex(sql)
	if err != nil {
		return err
	}
	bound, err := plan.NewBinder(cat, exec.ConstEvaluator{}).Bind(ci)
	if err != nil {
		return err
	}
	n := bound.(*plan.CreateIndex).Index
	n.Root, n.SQL = ix.Root, sql
	cat.PutIndex(n)
	return nil
}

// dropColumnText removes column i's definition from CREATE text sql (ct
// parsed from it) as SQLite does, keeping the rest as written: from its
// name to the next column's name, or, for the last column, from the comma
// before it to the end of its definition. It returns "" when the text
// cannot be cut so.
func dropColumnText(sql string, ct *grammar.CreateTableStmt, i int) string {
	start, end := ct.Columns[i].Offset, -1
	switch {
	case i+1 < len(ct.Columns):
		end = ct.Columns[i+1].Offset
	case len(ct.Constraints) > 0:
		end = commaBefore(sql, ct.Constraints[0].Offset)
		start = commaBefore(sql, start)
	default:
		end = strings.LastIndexByte(sql, ')')
		start = commaBefore(sql, start)
	}
	if start <= 0 || end <= start || end > len(sql) {
		return ""
	}
	return sql[:start] + sql[end:]
}

// commaBefore returns the offset of the last "," token of sql before byte
// off, or -1.
func commaBefore(sql string, off int) int {
	k := -1
	for _, t := range grammar.Tokens(sql) {
		if t.Start >= off {
			break
		}
		if sql[t.Start:t.End] == "," {
			k = t.Start
		}
	}
	return k
}

// columnText returns the column definition as written in the ALTER TABLE
// statement being run, or "".
func columnText(c *exec.Ctx, cd *grammar.ColumnDef) string {
	if c.StmtText == "" || cd.Offset < c.StmtOffset {
		return ""
	}
	k := cd.Offset - c.StmtOffset
	if k >= len(c.StmtText) {
		return ""
	}
	return strings.TrimRight(c.StmtText[k:], " \t\n\r;")
}

func addColumn(c *exec.Ctx, cat *catalog.Catalog, old *catalog.Table, ct *grammar.CreateTableStmt, cd *grammar.ColumnDef) error {
	if old.ColumnIndex(cd.Name) >= 0 {
		return errs.New(errs.CodeGeneric, "duplicate column name: %s", cd.Name)
	}
	limit := plan.MaxColumn
	if s, ok := c.Sess.(*Session); ok {
		limit = s.db.opts.Limits.column()
	}
	if len(old.Columns) >= limit {
		return errs.New(errs.CodeGeneric, "too many columns on %s", old.Name)
	}
	var def grammar.Expr
	notNull := false
	for _, cc := range cd.Constraints {
		switch cc.Kind {
		case grammar.ConstraintPrimaryKey:
			return errs.New(errs.CodeGeneric, "Cannot add a PRIMARY KEY column")
		case grammar.ConstraintUnique:
			return errs.New(errs.CodeGeneric, "Cannot add a UNIQUE column")
		case grammar.ConstraintDefault:
			def = cc.Expr
		case grammar.ConstraintNotNull:
			notNull = true
		}
	}
	var dv types.Value
	if def != nil {
		// Bound against the schema the ALTER runs in; evaluated once.
		x, err := plan.NewBinder(cat, nil).BindConstant(def)
		var v types.Value
		if err == nil {
			v, err = dml.ConstValue(c, x)
		}
		if err != nil {
			return errs.New(errs.CodeGeneric, "Cannot add a column with non-constant default")
		}
		dv = v
	}
	if notNull && dv.IsNull() {
		return errs.New(errs.CodeGeneric, "Cannot add a NOT NULL column with default value NULL")
	}
	ct.Columns = append(ct.Columns, cd)
	sql := ct.String()
	if text := columnText(c, cd); text != "" {
		// As SQLite does, the definition goes right after the last
		// column's: before the comma that opens the table constraints,
		// else before the final ")".
		if len(ct.Constraints) > 0 {
			if k := commaBefore(old.SQL, ct.Constraints[0].Offset); k > 0 {
				sql = old.SQL[:k] + ", " + text + old.SQL[k:]
			}
		} else if k := strings.LastIndexByte(old.SQL, ')'); k > 0 {
			sql = old.SQL[:k] + ", " + text + old.SQL[k:]
		}
	}
	t, err := replaceTableSQL(cat, old, sql)
	if err != nil {
		return err
	}
	if dv.IsNull() {
		return nil // old rows read the missing column as NULL
	}
	n := len(old.Columns)
	v := t.Columns[n].Affinity.Apply(dv)
	return rewriteRows(c, cat, old, t, func(row []types.Value) []types.Value {
		return append(row[:n:n], v)
	})
}

// rewriteRows is dml.RewriteRows with the index keys of nt, the table the
// ALTER makes, bound against cat, the schema it is building.
func rewriteRows(c *exec.Ctx, cat *catalog.Catalog, old, nt *catalog.Table, fn func([]types.Value) []types.Value) error {
	keys, err := plan.NewBinder(cat, nil).IndexKeysFor(nt)
	if err != nil {
		return err
	}
	return dml.RewriteRows(c, old, nt, keys, fn)
}

func dropColumn(c *exec.Ctx, cat *catalog.Catalog, old *catalog.Table, ct *grammar.CreateTableStmt, name string) error {
	i := old.ColumnIndex(name)
	if i < 0 {
		return errs.New(errs.CodeGeneric, "no such column: \"%s\"", name)
	}
	col := old.Columns[i]
	switch {
	case col.PrimaryKey:
		return errs.New(errs.CodeGeneric, "cannot drop PRIMARY KEY column: \"%s\"", name)
	case len(old.Columns) == 1:
		return errs.New(errs.CodeGeneric, "cannot drop column \"%s\": no other columns exist", name)
	}
	for _, u := range old.Uniques {
		for _, uc := range u.Cols {
			if uc == i {
				return errs.New(errs.CodeGeneric, "cannot drop UNIQUE column: \"%s\"", name)
			}
		}
	}
	for _, ix := range cat.TableIndexes(old.Name) {
		for _, ic := range ix.Columns {
			if ic.Col == i || (ic.Col < 0 && mentions(ic.Expr, name)) || mentions(ix.Where, name) {
				return errs.New(errs.CodeGeneric, "error in index %s after drop column: no such column: %s", ix.Name, name)
			}
		}
	}
	for _, tc := range ct.Constraints {
		if tc.Kind == grammar.ConstraintCheck && mentions(tc.Check.String(), name) {
			return errs.New(errs.CodeGeneric, "error in table %s after drop column: no such column: %s", old.Name, name)
		}
	}
	sql := dropColumnText(old.SQL, ct, i)
	if sql == "" {
		ct.Columns = append(ct.Columns[:i:i], ct.Columns[i+1:]...)
		sql = ct.String()
	}
	t, err := replaceTableSQL(cat, old, sql)
	if err != nil {
		return err
	}
	if err := checkSchemaAfter(c.Catalog, cat, "drop column"); err != nil {
		return err
	}
	return rewriteRows(c, cat, old, t, func(row []types.Value) []types.Value {
		return append(row[:i:i], row[i+1:]...)
	})
}

// mentions reports whether expression text names column name.
func mentions(text, name string) bool {
	if text == "" {
		return false
	}
	e, err := grammar.ParseExpr(text)
	if err != nil {
		return true
	}
	found := false
	grammar.Walk(e, func(n grammar.Node) bool {
		if cr, ok := n.(*grammar.ColumnRef); ok && strings.EqualFold(cr.Column, name) {
			found = true
		}
		return !found
	})
	return found
}

// alterColumn handles ALTER COLUMN … TYPE / SET|DROP NOT NULL /
// SET|DROP DEFAULT, in place.
func alterColumn(c *exec.Ctx, cat *catalog.Catalog, old *catalog.Table, ct *grammar.CreateTableStmt, st *grammar.AlterTableStmt) error {
	i := old.ColumnIndex(st.Column)
	if i < 0 {
		return errs.New(errs.CodeGeneric, "no such column: \"%s\"", st.Column)
	}
	cd := ct.Columns[i]
	drop := func(kind grammar.ConstraintKind) {
		var keep []*grammar.ColumnConstraint
		for _, cc := range cd.Constraints {
			if cc.Kind != kind {
				keep = append(keep, cc)
			}
		}
		cd.Constraints = keep
	}
	switch st.Action {
	case grammar.AlterColumnType:
		cd.Type = st.Type
	case grammar.AlterSetNotNull:
		drop(grammar.ConstraintNotNull)
		cd.Constraints = append(cd.Constraints, &grammar.ColumnConstraint{Kind: grammar.ConstraintNotNull})
	case grammar.AlterDropNotNull:
		drop(grammar.ConstraintNotNull)
	case grammar.AlterSetDefault:
		drop(grammar.ConstraintDefault)
		cd.Constraints = append(cd.Constraints, &grammar.ColumnConstraint{Kind: grammar.ConstraintDefault, Expr: st.Default})
	case grammar.AlterDropDefault:
		drop(grammar.ConstraintDefault)
	}
	t, err := replaceTable(cat, old, ct)
	if err != nil {
		return err
	}
	switch st.Action {
	case grammar.AlterSetNotNull:
		return dml.CheckNotNull(c, old, i)
	case grammar.AlterColumnType:
		aff := t.Columns[i].Affinity
		return rewriteRows(c, cat, old, t, func(row []types.Value) []types.Value {
			row[i] = aff.Apply(row[i])
			return row
		})
	}
	return nil
}

// rewriteViews applies edit to the statement of every view that reads
// table, and stores the edited text, as SQLite does on renames; quote
// forces the new names in quotes.
func rewriteViews(cat *catalog.Catalog, table string, quote bool, edit func(grammar.Node, *textEdit)) error {
	for _, e := range cat.Entries() {
		if e.Type != "view" {
			continue
		}
		st, err := parseOne(e.SQL)
		if err != nil {
			return err
		}
		cv, ok := st.(*grammar.CreateViewStmt)
		if !ok || !namesTable(cv, table) {
			continue
		}
		te := newTextEdit(e.SQL, quote)
		edit(cv.Select, te)
		v := *cat.View(e.Name)
		v.SQL = te.result(cv)
		cat.PutView(&v)
	}
	return nil
}

// isMain reports whether a schema qualifier names the main schema (or is
// absent), where the tables ALTER TABLE edits live.
func isMain(schema string) bool { return schema == "" || strings.EqualFold(schema, "main") }

// namesTable reports whether a table name below n is table.
func namesTable(n grammar.Node, table string) bool {
	found := false
	grammar.Walk(n, func(n grammar.Node) bool {
		if t, ok := n.(*grammar.TableName); ok && isMain(t.Schema) && strings.EqualFold(t.Name, table) {
			found = true
		}
		return !found
	})
	return found
}
