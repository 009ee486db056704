package plan

import (
	"fmt"
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// TableFromAST builds a catalog table (Root unset) and its automatic
// indexes from CREATE TABLE. It is also how a stored catalog is rebuilt.
func TableFromAST(s *grammar.CreateTableStmt) (*catalog.Table, []*catalog.Index, error) {
	t := &catalog.Table{Name: s.Name, RowidCol: -1, WithoutRowid: s.WithoutRowid, Strict: s.Strict, SQL: storedCreateText(s.Text(), "TABLE", false)}
	if len(s.Columns) == 0 {
		return nil, nil, bindErr("table %s has no columns", s.Name)
	}
	if err := checkColumns(len(s.Columns), "on "+s.Name); err != nil {
		return nil, nil, err
	}
	var uniques []catalog.Unique
	for i, cd := range s.Columns {
		if t.ColumnIndex(cd.Name) >= 0 {
			return nil, nil, bindErr("duplicate column name: %s", cd.Name)
		}
		col, err := columnFromAST(t, i, cd, &uniques)
		if err != nil {
			return nil, nil, err
		}
		t.Columns = append(t.Columns, col)
	}
	for _, tc := range s.Constraints {
		if err := tableConstraint(t, tc, &uniques); err != nil {
			return nil, nil, err
		}
	}
	checks, defaults := sourceTexts(s)
	for k, src := range checks {
		if src != "" && k < len(t.Checks) {
			t.Checks[k].Expr = src
		}
	}
	for i, src := range defaults {
		if src != "" && t.Columns[i].Default != "" {
			t.Columns[i].Default = src
		}
	}
	if t.RowidCol >= 0 {
		t.Columns[t.RowidCol].NotNull = false
	}
	if t.WithoutRowid {
		// The key of a WITHOUT ROWID table cannot be NULL, as in SQLite.
		for _, c := range t.PK {
			t.Columns[c].NotNull = true
		}
	}
	if t.WithoutRowid && len(t.PK) == 0 {
		return nil, nil, bindErr("PRIMARY KEY missing on table %s", t.Name)
	}
	if t.Strict {
		for _, c := range t.Columns {
			switch c.DeclType {
			case "INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY":
			default:
				return nil, nil, bindErr("unknown datatype for %s.%s: \"%s\"", t.Name, c.Name, c.DeclType)
			}
		}
	}
	return t, autoIndexes(t, uniques), nil
}

func columnFromAST(t *catalog.Table, i int, cd *grammar.ColumnDef, uniques *[]catalog.Unique) (catalog.Column, error) {
	decl := typeName(cd.Type)
	col := catalog.Column{Name: cd.Name, DeclType: decl, Affinity: types.AffinityOf(decl)}
	serial := decl == "SERIAL" || decl == "BIGSERIAL" || decl == "SMALLSERIAL"
	if serial {
		col.Affinity = types.AffinityInteger
	}
	for _, cc := range cd.Constraints {
		switch cc.Kind {
		case grammar.ConstraintPrimaryKey:
			if len(t.PK) > 0 {
				return col, bindErr("table \"%s\" has more than one primary key", t.Name)
			}
			col.PrimaryKey = true
			t.PK = []int{i}
			t.Autoincrement = cc.Autoincrement
			if isRowidType(decl, serial) && cc.Order != grammar.SortDesc && !t.WithoutRowid {
				t.RowidCol = i
				t.PKConflict = conflictName(cc.OnConflict)
			} else {
				*uniques = append(*uniques, catalog.Unique{Cols: []int{i}, Primary: true, OnConflict: conflictName(cc.OnConflict)})
				col.NotNull = col.NotNull || t.WithoutRowid
			}
			if cc.Autoincrement && t.RowidCol != i {
				return col, bindErr("AUTOINCREMENT is only allowed on an INTEGER PRIMARY KEY")
			}
		case grammar.ConstraintNotNull:
			col.NotNull = true
			col.NotNullConflict = conflictName(cc.OnConflict)
		case grammar.ConstraintUnique:
			*uniques = append(*uniques, catalog.Unique{Cols: []int{i}, OnConflict: conflictName(cc.OnConflict)})
		case grammar.ConstraintCheck:
			t.Checks = append(t.Checks, catalog.Check{Name: cc.Name, Expr: cc.Expr.String()})
		case grammar.ConstraintDefault:
			col.Default = cc.Expr.String()
		case grammar.ConstraintCollate:
			if _, ok := types.CollationByName(cc.Collation); !ok {
				return col, bindErr("no such collation sequence: %s", cc.Collation)
			}
			col.Collate = strings.ToUpper(cc.Collation)
		case grammar.ConstraintReferences:
			t.ForeignKeys = append(t.ForeignKeys, foreignKey([]int{i}, cc.ForeignKey))
		case grammar.ConstraintGenerated:
			col.Generated, col.Stored = cc.Expr.String(), cc.Stored
		case grammar.ConstraintIdentity:
			col.Affinity = types.AffinityInteger
		}
	}
	return col, nil
}

func isRowidType(decl string, serial bool) bool {
	return decl == "INTEGER" || serial
}

func foreignKey(cols []int, fk *grammar.ForeignKey) catalog.ForeignKey {
	act := func(a grammar.FKAction) string {
		return [...]string{"NO ACTION", "NO ACTION", "RESTRICT", "SET NULL", "SET DEFAULT", "CASCADE"}[a]
	}
	return catalog.ForeignKey{Cols: cols, RefTable: fk.Table, RefCols: fk.Columns,
		OnDelete: act(fk.OnDelete), OnUpdate: act(fk.OnUpdate),
		Deferred: fk.Deferrable == grammar.DeferrableInitiallyDeferred}
}

func tableConstraint(t *catalog.Table, tc *grammar.TableConstraint, uniques *[]catalog.Unique) error {
	switch tc.Kind {
	case grammar.ConstraintPrimaryKey, grammar.ConstraintUnique:
		cols, err := constraintColumns(t, tc.Columns)
		if err != nil {
			return err
		}
		if tc.Kind == grammar.ConstraintUnique {
			*uniques = append(*uniques, catalog.Unique{Cols: cols, OnConflict: conflictName(tc.OnConflict)})
			return nil
		}
		if len(t.PK) > 0 {
			return bindErr("table \"%s\" has more than one primary key", t.Name)
		}
		t.PK = cols
		for _, c := range cols {
			t.Columns[c].PrimaryKey = true
		}
		desc := len(tc.Columns) == 1 && tc.Columns[0].Order == grammar.SortDesc
		if len(cols) == 1 && t.Columns[cols[0]].DeclType == "INTEGER" && !t.WithoutRowid && !desc {
			t.RowidCol = cols[0]
			t.Autoincrement = tc.Autoincrement
			t.PKConflict = conflictName(tc.OnConflict)
			return nil
		}
		*uniques = append(*uniques, catalog.Unique{Cols: cols, Primary: true, OnConflict: conflictName(tc.OnConflict)})
	case grammar.ConstraintCheck:
		t.Checks = append(t.Checks, catalog.Check{Name: tc.Name, Expr: tc.Check.String()})
	case grammar.ConstraintReferences:
		var cols []int
		for _, n := range tc.FKColumns {
			i := t.ColumnIndex(n)
			if i < 0 {
				return bindErr("unknown column \"%s\" in foreign key definition", n)
			}
			cols = append(cols, i)
		}
		t.ForeignKeys = append(t.ForeignKeys, foreignKey(cols, tc.ForeignKey))
	}
	return nil
}

func constraintColumns(t *catalog.Table, ics []*grammar.IndexedColumn) ([]int, error) {
	var cols []int
	for _, ic := range ics {
		x := ic.Expr
		if ce, ok := x.(*grammar.CollateExpr); ok {
			x = ce.X
		}
		cr, ok := x.(*grammar.ColumnRef)
		if !ok {
			return nil, bindErr("expressions prohibited in PRIMARY KEY and UNIQUE constraints")
		}
		i := t.ColumnIndex(cr.Column)
		if i < 0 {
			return nil, bindErr("no such column: %s", cr.Column)
		}
		cols = append(cols, i)
	}
	return cols, nil
}

// autoIndexes names and builds the indexes behind UNIQUE and non-rowid
// PRIMARY KEY constraints, skipping duplicates of an earlier one.
func autoIndexes(t *catalog.Table, uniques []catalog.Unique) []*catalog.Index {
	var out []*catalog.Index
	seen := map[string]bool{}
	for _, u := range uniques {
		key := fmt.Sprint(u.Cols)
		if seen[key] {
			continue
		}
		seen[key] = true
		ix := &catalog.Index{Name: fmt.Sprintf("sqlite_autoindex_%s_%d", t.Name, len(out)+1),
			Table: t.Name, Unique: true, Auto: true}
		for _, c := range u.Cols {
			ix.Columns = append(ix.Columns, catalog.IndexColumn{Col: c, Collate: t.Columns[c].Collate})
		}
		u.Index = ix.Name
		t.Uniques = append(t.Uniques, u)
		out = append(out, ix)
	}
	return out
}

func (b *Binder) bindCreateTable(s *grammar.CreateTableStmt) (Statement, error) {
	temp, err := createInTemp(s.Temp, s.Schema)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(strings.ToLower(s.Name), "sqlite_") {
		return nil, bindErr("object name reserved for internal use: %s", s.Name)
	}
	ct := &CreateTable{IfNotExists: s.IfNotExists}
	if s.AsSelect != nil {
		q, err := b.bindSelect(s.AsSelect)
		if err != nil {
			return nil, err
		}
		ct.AsSelect = q
		ct.Table = tableFromQuery(s.Name, q)
		ct.Table.Temp = temp
		return ct, nil
	}
	t, ixs, err := TableFromAST(s)
	if err != nil {
		return nil, err
	}
	if temp {
		t.Temp = true
		for _, ix := range ixs {
			ix.Temp = true
		}
	}
	ct.Table, ct.Indexes = t, ixs
	return ct, nil
}

// createInTemp reports whether a CREATE [TEMP] … [schema.]name makes a
// temp object, with SQLite's errors for the schema qualifier.
func createInTemp(temp bool, schema string) (bool, error) {
	switch {
	case schema == "":
		return temp, nil
	case IsTempSchema(schema):
		return true, nil
	case temp:
		return false, bindErr("temporary table name must be unqualified")
	case eqFold(schema, "main"):
		return false, nil
	}
	return false, bindErr("unknown database %s", schema)
}

// tableFromQuery is the table of CREATE TABLE … AS SELECT, with SQLite's
// generated CREATE text.
func tableFromQuery(name string, q *Query) *catalog.Table {
	t := &catalog.Table{Name: name, RowidCol: -1}
	src := q.Root.Columns()
	var defs []string
	for i, rc := range q.Cols {
		aff := types.AffinityNone
		if i < len(src) {
			aff = src[i].Affinity
		}
		decl := map[types.Affinity]string{types.AffinityText: "TEXT", types.AffinityNumeric: "NUM",
			types.AffinityInteger: "INT", types.AffinityReal: "REAL"}[aff]
		t.Columns = append(t.Columns, catalog.Column{Name: rc.Name, DeclType: decl, Affinity: types.AffinityOf(decl)})
		d := QuoteName(rc.Name)
		if decl != "" {
			d += " " + decl
		}
		defs = append(defs, d)
	}
	t.SQL = "CREATE TABLE " + QuoteName(name) + "(" + strings.Join(defs, ",") + ")"
	return t
}

// QuoteName quotes an identifier when it is not a plain one.
func QuoteName(name string) string {
	plain := name != ""
	for k := 0; k < len(name); k++ {
		c := name[k]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || k > 0 && c >= '0' && c <= '9') {
			plain = false
		}
	}
	if plain && !grammar.IsReserved(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

func (b *Binder) bindCreateIndex(s *grammar.CreateIndexStmt) (Statement, error) {
	// An index is in its table's schema: a qualifier names both.
	cat, err := b.schemaCat(s.Schema)
	if err != nil {
		return nil, err
	}
	t := cat.Table(s.Table)
	if t == nil {
		if IsTempSchema(s.Schema) && b.cat.Table(s.Table) != nil {
			return nil, bindErr("cannot create a TEMP index on non-TEMP table \"%s\"", s.Table)
		}
		schema := "main"
		if IsTempSchema(s.Schema) {
			schema = "temp"
		}
		return nil, bindErr("no such table: %s.%s", schema, s.Table)
	}
	if strings.HasPrefix(strings.ToLower(s.Name), "sqlite_") {
		return nil, bindErr("object name reserved for internal use: %s", s.Name)
	}
	ix := &catalog.Index{Name: s.Name, Table: t.Name, Unique: s.Unique, SQL: storedCreateText(s.Text(), "INDEX", s.Unique), Temp: t.Temp}
	ci := &CreateIndex{Index: ix, IfNotExists: s.IfNotExists, Table: t}
	sc := rowScope(t, t.Name)
	for _, ic := range s.Columns {
		x, coll := ic.Expr, ""
		if ce, ok := x.(*grammar.CollateExpr); ok {
			x, coll = ce.X, strings.ToUpper(ce.Collation)
		}
		col := catalog.IndexColumn{Col: -1, Desc: ic.Order == grammar.SortDesc, Collate: coll}
		if cr, ok := x.(*grammar.ColumnRef); ok {
			if col.Col = t.ColumnIndex(cr.Column); col.Col < 0 {
				return nil, bindErr("no such column: %s", cr.Column)
			}
			if coll == "" {
				col.Collate = t.Columns[col.Col].Collate
			}
		} else {
			col.Expr = x.String()
		}
		key, err := b.bindExpr(x, sc)
		if err != nil {
			return nil, err
		}
		ix.Columns = append(ix.Columns, col)
		ci.Keys = append(ci.Keys, key)
	}
	if s.Where != nil {
		ix.Where = s.Where.String()
		w, err := b.bindExpr(s.Where, sc)
		if err != nil {
			return nil, err
		}
		ci.Where = w
	}
	return ci, nil
}

func (b *Binder) bindCreateView(s *grammar.CreateViewStmt) (Statement, error) {
	temp, err := createInTemp(s.Temp, s.Schema)
	if err != nil {
		return nil, err
	}
	if !temp {
		if err := checkMainObject("view", s.Name, s.Select); err != nil {
			return nil, err
		}
	}
	// Bind once to report errors at creation, as SQLite does.
	q, err := b.bindSelect(s.Select)
	if err != nil {
		return nil, err
	}
	if err := renameColumns(q, s.Columns, "view "+s.Name); err != nil {
		return nil, err
	}
	v := &catalog.View{Name: s.Name, Columns: s.Columns, SQL: storedCreateText(s.Text(), "VIEW", false), Temp: temp}
	return &CreateView{View: v, IfNotExists: s.IfNotExists}, nil
}

// conflictName names a constraint's ON CONFLICT resolution ("" = ABORT).
func conflictName(a grammar.ConflictAction) string {
	return [...]string{"", "ROLLBACK", "ABORT", "FAIL", "IGNORE", "REPLACE"}[a]
}

// bindAlterTable binds ALTER TABLE; an added CHECK constraint's
// expression is bound over the table's row here, so a bad expression
// fails before anything changes.
func (b *Binder) bindAlterTable(t *catalog.Table, s *grammar.AlterTableStmt) (Statement, error) {
	at := &AlterTable{Table: t, Stmt: s}
	if s.Action != grammar.AlterAddConstraint || s.Constraint.Kind != grammar.ConstraintCheck {
		return at, nil
	}
	x, err := b.bindExpr(s.Constraint.Check, rowScope(t, t.Name))
	if err != nil {
		return nil, err
	}
	at.Check = x
	return at, nil
}
