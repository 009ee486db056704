package grammar

import "strings"

func (b *builder) createTable(s *sCreateTable) *CreateTableStmt {
	schema, name := qname(s.Name)
	st := &CreateTableStmt{Position: pos(s.Pos), Temp: s.Temp, IfNotExists: s.IfNotExists, Schema: schema, Name: name,
		AsSelect: b.selectStmt(s.AsSelect)}
	for _, c := range s.Columns {
		st.Columns = append(st.Columns, b.columnDef(c))
	}
	for _, c := range s.Constraints {
		st.Constraints = append(st.Constraints, b.tableConstraint(c))
	}
	for _, o := range s.Options {
		switch strings.ToUpper(o) {
		case "WITHOUT":
			st.WithoutRowid = true
		case "STRICT":
			st.Strict = true
		}
	}
	return st
}

func (b *builder) columnDef(c *sColumnDef) *ColumnDef {
	cd := &ColumnDef{Position: pos(c.Pos), Name: unquote(c.Name), Type: typeName(c.Type)}
	for _, k := range c.Constraints {
		cd.Constraints = append(cd.Constraints, b.columnConstraint(k))
	}
	return cd
}

func onConflict(c *sOnConflict) ConflictAction {
	if c == nil {
		return ConflictDefault
	}
	return conflictAction(c.Action)
}

func (b *builder) columnConstraint(k *sColumnConstraint) *ColumnConstraint {
	cc := &ColumnConstraint{Position: pos(k.Pos), Name: unquote(k.Name)}
	switch {
	case k.PrimaryKey:
		cc.Kind, cc.Order, cc.OnConflict, cc.Autoincrement = ConstraintPrimaryKey, sortOrder(k.Order), onConflict(k.PKConflict), k.Autoinc
	case k.NotNull:
		cc.Kind, cc.OnConflict = ConstraintNotNull, onConflict(k.NNConflict)
	case k.Null:
		cc.Kind = ConstraintNull
	case k.Unique:
		cc.Kind, cc.OnConflict = ConstraintUnique, onConflict(k.UConflict)
	case k.Check != nil:
		cc.Kind, cc.Expr = ConstraintCheck, b.expr(k.Check)
	case k.Default != nil:
		cc.Kind, cc.Expr = ConstraintDefault, b.defaultValue(k.Default)
	case k.Collate != "":
		cc.Kind, cc.Collation = ConstraintCollate, unquote(k.Collate)
	case k.References != nil:
		cc.Kind, cc.ForeignKey = ConstraintReferences, b.foreignKey(k.References)
	case k.Generated != nil:
		b.generated(cc, k.Generated)
	}
	return cc
}

// defaultValue converts a DEFAULT value. A bare or quoted word is a
// string, as SQLite reads it.
func (b *builder) defaultValue(d *sDefault) Expr {
	if d.Paren != nil {
		return b.expr(d.Paren)
	}
	x := b.unary(d.Unary, d.Primary)
	if c, ok := x.(*ColumnRef); ok && c.Table == "" && c.Schema == "" {
		return &Literal{Position: c.Position, Kind: LitString, Raw: QuoteString(c.Column), Value: c.Column}
	}
	return x
}

func (b *builder) generated(cc *ColumnConstraint, g *sGenerated) {
	if g.Identity {
		cc.Kind, cc.Always = ConstraintIdentity, g.Always
		return
	}
	cc.Kind, cc.Expr, cc.Stored = ConstraintGenerated, b.expr(g.Expr), strings.EqualFold(g.Storage, "STORED")
}

var fkActions = map[string]FKAction{"SETNULL": FKSetNull, "SETDEFAULT": FKSetDefault, "CASCADE": FKCascade, "RESTRICT": FKRestrict, "NOACTION": FKNoAction}

func (b *builder) foreignKey(f *sForeignKey) *ForeignKey {
	fk := &ForeignKey{Position: pos(f.Pos), Table: unquote(f.Table), Columns: unquoteAll(f.Columns)}
	for _, a := range f.Actions {
		switch strings.ToUpper(a.On) {
		case "DELETE":
			fk.OnDelete = fkActions[strings.ToUpper(a.Action)]
		case "UPDATE":
			fk.OnUpdate = fkActions[strings.ToUpper(a.Action)]
		default:
			fk.Match = unquote(a.Match)
		}
	}
	fk.Deferrable = deferral(f.Deferral)
	return fk
}

func deferral(d *sDeferral) Deferral {
	if d == nil {
		return DeferralNone
	}
	base := Deferrable
	if d.Not {
		base = NotDeferrable
	}
	switch strings.ToUpper(d.Initially) {
	case "DEFERRED":
		return base + 1
	case "IMMEDIATE":
		return base + 2
	}
	return base
}

func (b *builder) tableConstraint(c *sTableConstraint) *TableConstraint {
	tc := &TableConstraint{Position: pos(c.Pos), Name: unquote(c.Name)}
	keys := c.PrimaryKey
	switch {
	case c.PrimaryKey != nil:
		tc.Kind = ConstraintPrimaryKey
	case c.Unique != nil:
		tc.Kind, keys = ConstraintUnique, c.Unique
	case c.Check != nil:
		tc.Kind, tc.Check = ConstraintCheck, b.expr(c.Check)
	default:
		tc.Kind, tc.FKColumns, tc.ForeignKey = ConstraintReferences, unquoteAll(c.FKColumns), b.foreignKey(c.ForeignKey)
	}
	if keys != nil {
		tc.Columns, tc.Autoincrement, tc.OnConflict = b.indexedColumns(keys.Columns), keys.Autoinc, onConflict(keys.Conflict)
	}
	return tc
}

func (b *builder) indexedColumns(cols []*sIndexedColumn) []*IndexedColumn {
	var out []*IndexedColumn
	for _, c := range cols {
		out = append(out, &IndexedColumn{Position: pos(c.Pos), Expr: b.expr(c.Expr), Order: sortOrder(c.Order)})
	}
	return out
}

func (b *builder) createIndex(s *sCreateIndex) *CreateIndexStmt {
	schema, name := qname(s.Name)
	return &CreateIndexStmt{Position: pos(s.Pos), Unique: s.Unique, IfNotExists: s.IfNotExists, Schema: schema, Name: name,
		Table: unquote(s.Table), Columns: b.indexedColumns(s.Columns), Where: b.expr(s.Where)}
}

func (b *builder) createView(s *sCreateView) *CreateViewStmt {
	schema, name := qname(s.Name)
	return &CreateViewStmt{Position: pos(s.Pos), Temp: s.Temp, IfNotExists: s.IfNotExists, Schema: schema, Name: name,
		Columns: unquoteAll(s.Columns), Select: b.selectStmt(s.Select)}
}

var triggerTimes = map[string]TriggerTime{"BEFORE": TriggerBefore, "AFTER": TriggerAfter, "INSTEADOF": TriggerInsteadOf}
var triggerEvents = map[string]TriggerEvent{"INSERT": TriggerInsert, "UPDATE": TriggerUpdate, "DELETE": TriggerDelete}

func (b *builder) createTrigger(s *sCreateTrigger) *CreateTriggerStmt {
	schema, name := qname(s.Name)
	st := &CreateTriggerStmt{Position: pos(s.Pos), Temp: s.Temp, IfNotExists: s.IfNotExists, Schema: schema, Name: name,
		Time: triggerTimes[strings.ToUpper(s.Time)], Event: triggerEvents[strings.ToUpper(s.Event)],
		Columns: unquoteAll(s.Columns), ForEachRow: s.ForEachRow, When: b.expr(s.When)}
	st.TableSchema, st.Table = qname(s.Table)
	for _, t := range s.Body {
		st.Body = append(st.Body, b.triggerStatement(t))
	}
	return st
}

// triggerStatement converts one statement of a trigger body.
func (b *builder) triggerStatement(t *sTriggerStmt) Statement {
	var st Statement
	switch {
	case t.Insert != nil:
		st = b.insert(t.Insert)
	case t.Update != nil:
		st = b.update(t.Update)
	case t.Delete != nil:
		st = b.delete(t.Delete)
	default:
		st = b.selectStmt(t.Select)
	}
	st.(textSetter).setText(b.text(t.Pos, t.EndPos))
	return st
}

var objectKinds = map[string]ObjectKind{"TABLE": ObjectTable, "INDEX": ObjectIndex, "VIEW": ObjectView, "TRIGGER": ObjectTrigger}

func (b *builder) drop(s *sDrop) *DropStmt {
	schema, name := qname(s.Name)
	return &DropStmt{Position: pos(s.Pos), Kind: objectKinds[strings.ToUpper(s.Kind)], IfExists: s.IfExists, Schema: schema, Name: name}
}

func (b *builder) alterTable(s *sAlterTable) *AlterTableStmt {
	schema, name := qname(s.Table)
	st := &AlterTableStmt{Position: pos(s.Pos), Schema: schema, Table: name}
	switch {
	case s.Rename != nil && s.Rename.To != "":
		st.Action, st.NewName = AlterRenameTable, unquote(s.Rename.To)
	case s.Rename != nil:
		st.Action, st.Column, st.NewName = AlterRenameColumn, unquote(s.Rename.Column), unquote(s.Rename.NewName)
	case s.AddCon != nil:
		st.Action, st.Constraint = AlterAddConstraint, b.tableConstraint(s.AddCon)
	case s.DropCon != "":
		st.Action, st.Column = AlterDropConstraint, unquote(s.DropCon)
	case s.Add != nil:
		st.Action, st.ColumnDef = AlterAddColumn, b.columnDef(s.Add)
	case s.Drop != "":
		st.Action, st.Column = AlterDropColumn, unquote(s.Drop)
	case s.Alter != nil:
		st.Column = unquote(s.Alter.Column)
		b.alterColumn(st, s.Alter)
	}
	return st
}

func (b *builder) alterColumn(st *AlterTableStmt, a *sAlterColumn) {
	switch {
	case a.Type != nil:
		st.Action, st.Type = AlterColumnType, typeName(a.Type)
	case a.SetNotNull:
		st.Action = AlterSetNotNull
	case a.DropNotNull:
		st.Action = AlterDropNotNull
	case a.SetDefault != nil:
		st.Action, st.Default = AlterSetDefault, b.defaultValue(a.SetDefault)
	default:
		st.Action = AlterDropDefault
	}
}
