package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// BoundTrigger is a trigger ready to fire: its WHEN condition and body
// statements read the OLD and NEW rows as outer references, from a row
// laid out as the table's row (columns, rowid) for OLD then for NEW.
type BoundTrigger struct {
	Name    string
	Time    string // "BEFORE", "AFTER", "INSTEAD OF"
	Event   string // "INSERT", "UPDATE", "DELETE"
	Columns []int  // UPDATE OF columns, nil for any
	When    Expr
	Body    []Statement
}

func (b *Binder) bindCreateTrigger(s *grammar.CreateTriggerStmt) (Statement, error) {
	temp, err := createInTemp(s.Temp, s.Schema)
	if err != nil {
		return nil, err
	}
	cat, temp, err := b.triggerTableCat(s, temp)
	if err != nil {
		return nil, err
	}
	tr := &catalog.Trigger{Name: s.Name, SQL: storedCreateText(s.Text(), "TRIGGER", false), Temp: temp}
	if s.Time == grammar.TriggerInsteadOf {
		v := cat.View(s.Table)
		if v == nil {
			return nil, bindErr("cannot create INSTEAD OF trigger on table: %s", s.Table)
		}
		t, err := b.ViewTable(v)
		if err != nil {
			return nil, err
		}
		if _, err := b.BindTrigger(s, t); err != nil {
			return nil, err
		}
		tr.Table, tr.OnMain = v.Name, temp && !v.Temp
		return createdTrigger(s, tr)
	}
	t := cat.Table(s.Table)
	if t == nil {
		if cat.View(s.Table) != nil {
			return nil, bindErr("cannot create %s trigger on view: %s", timeName(s.Time), s.Table)
		}
		return nil, bindErr("no such table: main.%s", s.Table)
	}
	if _, err := b.BindTrigger(s, t); err != nil {
		return nil, err
	}
	tr.Table, tr.OnMain = t.Name, temp && !t.Temp
	return createdTrigger(s, tr)
}

// createdTrigger is the plan of a bound CREATE TRIGGER; a trigger of main
// may not name a temp object.
func createdTrigger(s *grammar.CreateTriggerStmt, tr *catalog.Trigger) (Statement, error) {
	if !tr.Temp {
		if err := checkMainObject("trigger", s.Name, s); err != nil {
			return nil, err
		}
	}
	return &CreateTrigger{Trigger: tr, IfNotExists: s.IfNotExists}, nil
}

// triggerTableCat returns the schema a trigger's table is looked up in
// and whether the trigger is temp. A trigger of main sees main's tables
// only; a trigger whose unqualified name is given to a temp table is made
// temp, as in SQLite.
func (b *Binder) triggerTableCat(s *grammar.CreateTriggerStmt, temp bool) (*catalog.Catalog, bool, error) {
	if s.TableSchema != "" {
		cat, err := b.schemaCat(s.TableSchema)
		if err != nil {
			return nil, false, bindErr("trigger %s cannot reference objects in database %s", s.Name, s.TableSchema)
		}
		if IsTempSchema(s.TableSchema) && !temp {
			if s.Schema != "" {
				return nil, false, bindErr("trigger %s cannot reference objects in database temp", s.Name)
			}
			temp = true
		}
		return cat, temp, nil
	}
	if temp {
		return b.cat, true, nil
	}
	if tc := b.cat.Temp(); s.Schema == "" && tc != nil && (tc.Table(s.Table) != nil || tc.View(s.Table) != nil) {
		return b.cat, true, nil
	}
	return b.cat.Main(), false, nil
}

func timeName(t grammar.TriggerTime) string {
	return [...]string{"BEFORE", "BEFORE", "AFTER", "INSTEAD OF"}[t]
}

// BindTrigger binds a trigger of table t.
func (b *Binder) BindTrigger(s *grammar.CreateTriggerStmt, t *catalog.Table) (*BoundTrigger, error) {
	bt := &BoundTrigger{Name: s.Name, Time: timeName(s.Time),
		Event: [...]string{"INSERT", "UPDATE", "DELETE"}[s.Event]}
	for _, c := range s.Columns {
		i := t.ColumnIndex(c)
		if i < 0 {
			return nil, bindErr("no such column: %s", c)
		}
		bt.Columns = append(bt.Columns, i)
	}
	cols := append(append([]Column{}, NewScan(t, "old").Cols...), NewScan(t, "new").Cols...)
	saved, savedIn := b.scopes, b.inTrigger
	b.scopes, b.inTrigger = []*scope{{cols: cols}}, true
	defer func() { b.scopes, b.inTrigger = saved, savedIn }()
	var err error
	if s.When != nil {
		if bt.When, err = b.bindExpr(s.When, nil); err != nil {
			return nil, err
		}
	}
	for _, st := range s.Body {
		p, err := b.Bind(st)
		if err != nil {
			return nil, err
		}
		bt.Body = append(bt.Body, p)
	}
	return bt, nil
}

// ViewTable describes a view as a table (its result columns), the row
// layout its INSTEAD OF triggers see.
func (b *Binder) ViewTable(v *catalog.View) (*catalog.Table, error) {
	_, sc, err := b.bindView(v, v.Name)
	if err != nil {
		return nil, err
	}
	t := &catalog.Table{Name: v.Name, RowidCol: -1, Virtual: true, Temp: v.Temp}
	for _, c := range sc.cols {
		t.Columns = append(t.Columns, catalog.Column{Name: c.Name, DeclType: c.DeclType, Affinity: c.Affinity})
	}
	return t, nil
}

// hasInsteadOf reports whether view name has an INSTEAD OF trigger for
// event that an UPDATE setting the columns named set fires (set nil: any
// trigger of the event; an UPDATE OF trigger needs one of its columns).
func (b *Binder) hasInsteadOf(name string, event grammar.TriggerEvent, set []string) bool {
	for _, tr := range b.cat.TableTriggers(name) {
		st, err := grammar.Parse(tr.SQL)
		if err != nil || len(st) != 1 {
			continue
		}
		ct, ok := st[0].(*grammar.CreateTriggerStmt)
		if ok && ct.Time == grammar.TriggerInsteadOf && ct.Event == event && namesOverlap(ct.Columns, set) {
			return true
		}
	}
	return false
}

// namesOverlap reports whether an UPDATE OF list want (empty = any) names
// one of the set columns (nil = any).
func namesOverlap(want, set []string) bool {
	if len(want) == 0 || set == nil {
		return true
	}
	for _, w := range want {
		for _, c := range set {
			if eqFold(w, c) {
				return true
			}
		}
	}
	return false
}
