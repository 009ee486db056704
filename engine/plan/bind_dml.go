package plan

import (
	"slices"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// writableTable resolves the target table of a write.
func (b *Binder) writableTable(tn *grammar.TableName) (*catalog.Table, error) {
	if tn.Schema != "" && b.inTrigger {
		return nil, bindErr("qualified table names are not allowed on INSERT, UPDATE, and DELETE statements within triggers")
	}
	cat, err := b.tableCat(tn)
	if err != nil {
		return nil, err
	}
	if cat.View(tn.Name) != nil {
		return nil, bindErr("cannot modify %s because it is a view", tn.Name)
	}
	t := cat.Table(tn.Name)
	if t == nil {
		if virtualIn(tn.Schema, tn.Name) != nil {
			return nil, bindErr("table %s may not be modified", tn.Name)
		}
		if tn.Schema == "" && b.fixedMain {
			return nil, bindErr("no such table: main.%s", tn.Name)
		}
		return nil, bindErr("no such table: %s", qualified(tn.Schema, tn.Name))
	}
	return t, nil
}

// rowScope is the scope of one table row: its columns then the rowid.
func rowScope(t *catalog.Table, alias string) *scope {
	return &scope{cols: NewScan(t, alias).Cols}
}

func (b *Binder) bindInsert(s *grammar.InsertStmt) (Statement, error) {
	if s.With != nil {
		if err := b.pushWith(s.With); err != nil {
			return nil, err
		}
		defer b.popWith()
	}
	if v := b.insteadOfView(s.Table, grammar.TriggerInsert, nil); v != nil {
		return b.bindInsertIntoView(s, v)
	}
	t, err := b.writableTable(s.Table)
	if err != nil {
		return nil, err
	}
	ins := &Insert{Table: t, Or: conflictOf(s.Or)}
	if s.Replace {
		ins.Or = ConflictReplace
	}
	if ins.Targets, err = insertTargets(t, s.Columns); err != nil {
		return nil, err
	}
	if s.DefaultValues {
		ins.Targets = nil
	}
	if err := b.bindInsertSource(ins, s); err != nil {
		return nil, err
	}
	if ins.Defaults, err = b.bindDefaults(t); err != nil {
		return nil, err
	}
	alias := t.Name
	if s.Table.Alias != "" {
		alias = s.Table.Alias
	}
	rsc := rowScope(t, alias)
	if ins.Checks, err = b.bindChecks(t, rsc); err != nil {
		return nil, err
	}
	for _, u := range s.Upserts {
		up, err := b.bindUpsert(t, alias, u)
		if err != nil {
			return nil, err
		}
		ins.Upserts = append(ins.Upserts, up)
	}
	if ins.Indexes, err = b.bindIndexKeys(t); err != nil {
		return nil, err
	}
	if ins.Generated, err = b.bindGenerated(t, rsc); err != nil {
		return nil, err
	}
	ins.Referencing = b.bindReferencing(t)
	ins.Returning, ins.RetCols, err = b.bindReturning(s.Returning, rsc)
	return ins, err
}

func insertTargets(t *catalog.Table, names []string) ([]int, error) {
	var out []int
	if len(names) == 0 {
		for i, c := range t.Columns {
			if !c.Hidden && c.Generated == "" {
				out = append(out, i)
			}
		}
		return out, nil
	}
	seen := map[int]bool{}
	for _, n := range names {
		i := t.ColumnIndex(n)
		if i < 0 && catalog.IsRowidName(n) {
			i = t.RowidCol
		}
		if i < 0 && !catalog.IsRowidName(n) {
			return nil, bindErr("table %s has no column named %s", t.Name, n)
		}
		if i >= 0 && t.Columns[i].Generated != "" {
			return nil, bindErr("cannot INSERT into generated column \"%s\"", n)
		}
		if seen[i] {
			continue
		}
		seen[i] = true
		out = append(out, i)
	}
	return out, nil
}

func (b *Binder) bindInsertSource(ins *Insert, s *grammar.InsertStmt) error {
	n := len(ins.Targets)
	switch {
	case s.DefaultValues:
		return nil
	case s.Select != nil:
		q, err := b.bindSelect(s.Select)
		if err != nil {
			return err
		}
		if len(q.Cols) != n {
			return valueCountErr(ins.Table, len(s.Columns) > 0, n, len(q.Cols))
		}
		ins.Source = q.Root
		if len(q.Root.Columns()) != n {
			ins.Source = &Project{Input: q.Root, Exprs: identity(n), Cols: q.Root.Columns()[:n]}
		}
		return nil
	}
	v := &Values{}
	for _, row := range s.Values {
		if len(row) != n {
			return valueCountErr(ins.Table, len(s.Columns) > 0, n, len(row))
		}
		exprs, err := b.bindExprs(row, nil)
		if err != nil {
			return err
		}
		v.Rows = append(v.Rows, exprs)
	}
	v.Cols = make([]Column, n)
	ins.Source = v
	return nil
}

func valueCountErr(t *catalog.Table, named bool, want, got int) error {
	if named {
		return bindErr("%d values for %d columns", got, want)
	}
	return bindErr("table %s has %d columns but %d values were supplied", t.Name, want, got)
}

// bindDefaults binds each column's DEFAULT expression.
func (b *Binder) bindDefaults(t *catalog.Table) ([]Expr, error) {
	out := make([]Expr, len(t.Columns))
	for i, c := range t.Columns {
		if c.Default == "" {
			continue
		}
		x, err := b.parseExpr(c.Default, nil)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// parseExpr parses and binds stored expression text (DEFAULT, CHECK).
func (b *Binder) parseExpr(text string, sc *scope) (Expr, error) {
	e, err := grammar.ParseExpr(text)
	if err != nil {
		return nil, err
	}
	return b.bindExpr(e, sc)
}

func (b *Binder) bindChecks(t *catalog.Table, sc *scope) ([]Expr, error) {
	var out []Expr
	for _, c := range t.Checks {
		x, err := b.parseExpr(c.Expr, sc)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// upsertScope is the existing row (columns, rowid) followed by the excluded
// row (columns, rowid).
func upsertScope(t *catalog.Table, alias string) *scope {
	excluded := NewScan(t, "excluded").Cols
	for i := range excluded {
		// Reachable only as excluded.x: a bare name is the target's column.
		excluded[i].Hidden = true
		// SQLite reads excluded.x from a register, with neither the
		// column's affinity nor its collation.
		excluded[i].Affinity, excluded[i].Collate = types.AffinityNone, ""
	}
	cols := append(append([]Column{}, NewScan(t, alias).Cols...), excluded...)
	return &scope{cols: cols}
}

func (b *Binder) bindUpsert(t *catalog.Table, alias string, u *grammar.Upsert) (*Upsert, error) {
	up := &Upsert{DoNothing: u.DoNothing}
	for _, ic := range u.Target {
		x := ic.Expr
		if ce, ok := x.(*grammar.CollateExpr); ok {
			x = ce.X
		}
		cr, ok := x.(*grammar.ColumnRef)
		if !ok {
			return nil, notSupported("ON CONFLICT target expression")
		}
		i := t.ColumnIndex(cr.Column)
		if i < 0 {
			return nil, bindErr("no such column: %s", cr.Column)
		}
		up.Target = append(up.Target, i)
	}
	if up.Target != nil && !b.matchesUnique(t, up.Target) {
		return nil, bindErr("ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint")
	}
	sc := upsertScope(t, alias)
	var err error
	for _, set := range u.Set {
		cols, exprs, err := b.bindSet(t, set, sc)
		if err != nil {
			return nil, err
		}
		up.SetCols = append(up.SetCols, cols...)
		up.SetExprs = append(up.SetExprs, exprs...)
	}
	if u.Where != nil {
		if up.Where, err = b.bindExpr(u.Where, sc); err != nil {
			return nil, err
		}
	}
	return up, nil
}

// bindSet binds one SET clause.
func (b *Binder) bindSet(t *catalog.Table, set *grammar.SetClause, sc *scope) ([]int, []Expr, error) {
	if len(set.Columns) != 1 {
		return nil, nil, notSupported("row-value SET")
	}
	name := set.Columns[0]
	i := t.ColumnIndex(name)
	if i < 0 {
		if !catalog.IsRowidName(name) {
			return nil, nil, bindErr("no such column: %s", name)
		}
		i = t.RowidCol
	}
	x, err := b.bindExpr(set.Value, sc)
	if err != nil {
		return nil, nil, err
	}
	return []int{i}, []Expr{x}, nil
}

func (b *Binder) bindReturning(rcs []*grammar.ResultColumn, sc *scope) ([]Expr, []ResultColumn, error) {
	if len(rcs) == 0 {
		return nil, nil, nil
	}
	items, err := expandColumns(rcs, sc)
	if err != nil {
		return nil, nil, err
	}
	exprs := make([]Expr, len(items))
	cols := make([]ResultColumn, len(items))
	for i, it := range items {
		x := it.bound
		if x == nil {
			if x, err = b.bindExpr(it.expr, sc); err != nil {
				return nil, nil, err
			}
		}
		exprs[i] = x
		cols[i] = ResultColumn{Name: it.name}
		if it.col != nil {
			cols[i].DeclType = it.col.DeclType
		}
	}
	return exprs, cols, nil
}

// targetInput is the rows an UPDATE or DELETE visits: the table filtered
// by WHERE.
func (b *Binder) targetInput(t *catalog.Table, tn *grammar.TableName, where grammar.Expr) (Node, *scope, error) {
	alias := t.Name
	if tn.Alias != "" {
		alias = tn.Alias
	}
	var node Node = b.newScan(t, alias)
	sc := &scope{cols: node.Columns()}
	if where != nil {
		if containsAggregate(where) {
			return nil, nil, bindErr("misuse of aggregate function in WHERE")
		}
		pred, err := b.bindExpr(where, sc)
		if err != nil {
			return nil, nil, err
		}
		node = &Filter{Input: node, Pred: pred}
	}
	return node, sc, nil
}

func (b *Binder) bindUpdate(s *grammar.UpdateStmt) (Statement, error) {
	if s.With != nil {
		if err := b.pushWith(s.With); err != nil {
			return nil, err
		}
		defer b.popWith()
	}
	if v := b.insteadOfView(s.Table, grammar.TriggerUpdate, setNames(s.Set)); v != nil {
		return b.bindUpdateView(s, v)
	}
	t, err := b.writableTable(s.Table)
	if err != nil {
		return nil, err
	}
	var input Node
	var sc *scope
	if s.From != nil {
		input, sc, err = b.updateFromInput(t, s)
	} else {
		input, sc, err = b.targetInput(t, s.Table, s.Where)
	}
	if err != nil {
		return nil, err
	}
	up := &Update{Table: t, Input: input, Or: conflictOf(s.Or)}
	if up.Defaults, err = b.bindDefaults(t); err != nil {
		return nil, err
	}
	if up.SetCols, up.SetExprs, err = b.bindSets(t, s.Set, sc); err != nil {
		return nil, err
	}
	// Checks, generated columns and RETURNING read the new row alone.
	alias := t.Name
	if s.Table.Alias != "" {
		alias = s.Table.Alias
	}
	rsc := rowScope(t, alias)
	if up.Checks, err = b.bindChecks(t, rsc); err != nil {
		return nil, err
	}
	if up.Indexes, err = b.bindIndexKeys(t); err != nil {
		return nil, err
	}
	for _, c := range up.SetCols {
		if c >= 0 && t.Columns[c].Generated != "" {
			return nil, bindErr("cannot UPDATE generated column \"%s\"", t.Columns[c].Name)
		}
	}
	if up.Generated, err = b.bindGenerated(t, rsc); err != nil {
		return nil, err
	}
	up.Referencing = b.bindReferencing(t)
	up.Returning, up.RetCols, err = b.bindReturning(s.Returning, rsc)
	return up, err
}

func (b *Binder) bindDelete(s *grammar.DeleteStmt) (Statement, error) {
	if s.With != nil {
		if err := b.pushWith(s.With); err != nil {
			return nil, err
		}
		defer b.popWith()
	}
	if v := b.insteadOfView(s.Table, grammar.TriggerDelete, nil); v != nil {
		return b.bindDeleteView(s, v)
	}
	t, err := b.writableTable(s.Table)
	if err != nil {
		return nil, err
	}
	input, sc, err := b.targetInput(t, s.Table, s.Where)
	if err != nil {
		return nil, err
	}
	d := &Delete{Table: t, Input: input}
	if d.Indexes, err = b.bindIndexKeys(t); err != nil {
		return nil, err
	}
	d.Referencing = b.bindReferencing(t)
	d.Returning, d.RetCols, err = b.bindReturning(s.Returning, sc)
	return d, err
}

// bindIndexKeys binds the key expressions of every index of t.
func (b *Binder) bindIndexKeys(t *catalog.Table) ([]*IndexKeys, error) {
	var out []*IndexKeys
	sc := rowScope(t, t.Name)
	for _, ix := range b.cat.IndexesOf(t) {
		ik := &IndexKeys{Index: ix}
		for _, c := range ix.Columns {
			if c.Col >= 0 {
				col := t.Columns[c.Col]
				ik.Keys = append(ik.Keys, &ColRef{Idx: c.Col, Affinity: col.Affinity, Collate: col.Collate})
				continue
			}
			x, err := b.parseExpr(c.Expr, sc)
			if err != nil {
				return nil, err
			}
			ik.Keys = append(ik.Keys, x)
		}
		if ix.Where != "" {
			w, err := b.parseExpr(ix.Where, sc)
			if err != nil {
				return nil, err
			}
			ik.Where = w
		}
		out = append(out, ik)
	}
	return out, nil
}

// IndexKeysFor binds the key expressions of every index of t.
func (b *Binder) IndexKeysFor(t *catalog.Table) ([]*IndexKeys, error) { return b.bindIndexKeys(t) }

// BindConstant binds an expression that may read no column.
func (b *Binder) BindConstant(e grammar.Expr) (Expr, error) { return b.bindExpr(e, nil) }

// bindGenerated binds the generation expressions of t's columns.
func (b *Binder) bindGenerated(t *catalog.Table, sc *scope) ([]Expr, error) {
	var out []Expr
	for i, c := range t.Columns {
		if c.Generated == "" {
			continue
		}
		if out == nil {
			out = make([]Expr, len(t.Columns))
		}
		x, err := b.parseExpr(c.Generated, sc)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// updateFromInput is the input of UPDATE … FROM: the target's rows (its
// columns, then the rowid) joined with the FROM clause, filtered by WHERE.
// A target row matching several FROM rows is updated once, with the first.
func (b *Binder) updateFromInput(t *catalog.Table, s *grammar.UpdateStmt) (Node, *scope, error) {
	alias := t.Name
	if s.Table.Alias != "" {
		alias = s.Table.Alias
	}
	target := b.newScan(t, alias)
	if 1+fromItems(s.From) > MaxJoinTables {
		return nil, nil, bindErr("at most %d tables in a join", MaxJoinTables)
	}
	from, fsc, err := b.bindFrom(s.From)
	if err != nil {
		return nil, nil, err
	}
	cols := append(append([]Column{}, target.Cols...), fsc.cols...)
	var node Node = &Join{Kind: JoinCross, Left: target, Right: from, Cols: cols}
	sc := &scope{cols: cols}
	if s.Where != nil {
		pred, err := b.bindExpr(s.Where, sc)
		if err != nil {
			return nil, nil, err
		}
		j := node.(*Join)
		j.Kind, j.On = JoinInner, pred
		splitEquiKeys(j, len(target.Cols))
	}
	return node, sc, nil
}

// matchesUnique reports whether cols are exactly the columns of t's rowid
// alias or of one of its unique indexes.
func (b *Binder) matchesUnique(t *catalog.Table, cols []int) bool {
	if len(cols) == 1 && cols[0] == t.RowidCol && t.RowidCol >= 0 {
		return true
	}
	if t.RowidCol >= 0 && slices.Contains(cols, t.RowidCol) {
		// As in SQLite, a target naming the rowid alias means the rowid,
		// which no UNIQUE index (even one holding the column) matches.
		return false
	}
	for _, ix := range b.cat.IndexesOf(t) {
		if !ix.Unique || len(ix.Columns) != len(cols) || ix.Where != "" {
			continue
		}
		all := true
		for _, ic := range ix.Columns {
			found := false
			for _, c := range cols {
				found = found || ic.Col == c
			}
			all = all && found
		}
		if all {
			return true
		}
	}
	return false
}

// bindInsertIntoView binds an INSERT into a view with an INSTEAD OF
// INSERT trigger.
func (b *Binder) bindInsertIntoView(s *grammar.InsertStmt, v *catalog.View) (Statement, error) {
	if len(s.Upserts) > 0 {
		return nil, bindErr("cannot UPSERT a view")
	}
	t, err := b.ViewTable(v)
	if err != nil {
		return nil, err
	}
	ins := &Insert{Table: t, Or: conflictOf(s.Or), InsteadOf: true, Defaults: make([]Expr, len(t.Columns))}
	if ins.Targets, err = insertTargets(t, s.Columns); err != nil {
		return nil, err
	}
	if s.DefaultValues {
		ins.Targets = nil
	}
	alias := v.Name
	if s.Table.Alias != "" {
		alias = s.Table.Alias
	}
	if ins.Returning, ins.RetCols, err = b.viewReturning(t, alias, s.Returning); err != nil {
		return nil, err
	}
	return ins, b.bindInsertSource(ins, s)
}
