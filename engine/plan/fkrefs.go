package plan

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/types"
)

// FKAction is what a foreign key does to the child rows of a parent key
// that is deleted (ON DELETE) or changed (ON UPDATE).
type FKAction uint8

// Foreign key actions. FKNoAction is also the action when none is given.
const (
	FKNoAction FKAction = iota
	FKRestrict
	FKSetNull
	FKSetDefault
	FKCascade
)

// fkActionNamed is the action as the catalog spells it ("SET NULL"…).
func fkActionNamed(name string) FKAction {
	switch name {
	case "RESTRICT":
		return FKRestrict
	case "SET NULL":
		return FKSetNull
	case "SET DEFAULT":
		return FKSetDefault
	case "CASCADE":
		return FKCascade
	}
	return FKNoAction
}

// Writes reports whether the action changes the child rows.
func (a FKAction) Writes() bool { return a >= FKSetNull }

// Referencing is the foreign keys that reference a written table (the
// parent), in the schema's creation order, bound with the statement: a
// write that deletes or re-keys a parent row applies their actions, and
// one that brings a parent key takes back the violations of the children
// waiting for it. Err is why they cannot be resolved (a foreign key
// mismatch); a write reports it only when foreign keys are enforced and it
// needs the keys, as SQLite does.
type Referencing struct {
	Keys []*ChildKey
	Err  error
}

// ChildKey is one foreign key of a child table referencing the parent.
type ChildKey struct {
	Child *catalog.Table
	FK    catalog.ForeignKey
	// ParentCols are the parent key's columns, in the key's order.
	ParentCols         []int
	OnDelete, OnUpdate FKAction
	// Colls are the parent key columns' collations, in which a child's
	// key is compared to the parent's (as SQLite compares them).
	Colls []types.Collation
	// Seek is an index of the child whose leading columns are the key's,
	// in those collations, through which the children of a parent key
	// are found; nil when there is none (the key is the child's rowid, or
	// its rows are scanned).
	Seek *catalog.Index
	// Write is the child table as an action writes it; nil when neither
	// action writes.
	Write *ChildWrite
}

// childSeekIndex returns an index of child whose leading columns are
// cols, each in collation colls[i] (so that its entries equal to a key
// are the rows whose columns equal it), and that is not partial.
func childSeekIndex(cat *catalog.Catalog, child *catalog.Table, cols []int, colls []types.Collation) *catalog.Index {
	if len(cols) == 1 && cols[0] == child.RowidCol {
		return nil
	}
next:
	for _, ix := range cat.IndexesOf(child) {
		if len(ix.Columns) < len(cols) || ix.Where != "" {
			continue
		}
		for i, col := range cols {
			ic := ix.Columns[i]
			if ic.Col != col {
				continue next
			}
			if coll, _ := types.CollationByName(ic.Collate); coll != colls[i] {
				continue next
			}
		}
		return ix
	}
	return nil
}

// ChildWrite is what a foreign key action needs to write a child table's
// rows, bound with the statement that may run it.
type ChildWrite struct {
	Table *catalog.Table
	// Indexes, Checks and Generated are the child's index keys, CHECK
	// constraints and generation expressions, bound against its row (an
	// action's new child row is checked and its generated columns
	// computed, as an UPDATE's is). Err, when set, is why they could not
	// be bound, reported when an action writes the child.
	Indexes   []*IndexKeys
	Checks    []Expr
	Generated []Expr
	Err       error
	// Defaults holds, per column, the DEFAULT expression a SET DEFAULT
	// action stores (nil = NULL, also for a default that does not bind);
	// nil unless a key's action is SET DEFAULT.
	Defaults []Expr
	// Referencing are the keys referencing the child in turn (a cascade
	// goes on to the grandchildren).
	Referencing *Referencing
}

// bindChild binds the child's index keys, checks and generated columns.
func (fb *fkBinding) bindChild(cw *ChildWrite) (err error) {
	if cw.Indexes, err = fb.b.bindIndexKeys(cw.Table); err != nil {
		return err
	}
	sc := rowScope(cw.Table, cw.Table.Name)
	if cw.Checks, err = fb.b.bindChecks(cw.Table, sc); err != nil {
		return err
	}
	cw.Generated, err = fb.b.bindGenerated(cw.Table, sc)
	return err
}

// ParentCols resolves the parent key columns of fk: its named columns,
// else the parent's primary key.
func ParentCols(parent *catalog.Table, fk catalog.ForeignKey) ([]int, error) {
	if len(fk.RefCols) == 0 {
		if parent.RowidCol >= 0 && len(parent.PK) <= 1 {
			return []int{parent.RowidCol}, nil
		}
		if len(parent.PK) == 0 {
			return nil, errs.New(errs.CodeGeneric, "foreign key mismatch - referencing table references %s which has no primary key", parent.Name)
		}
		return parent.PK, nil
	}
	out := make([]int, len(fk.RefCols))
	for i, n := range fk.RefCols {
		if out[i] = parent.ColumnIndex(n); out[i] < 0 {
			return nil, errs.New(errs.CodeGeneric, "foreign key mismatch - no column %s in %s", n, parent.Name)
		}
	}
	return out, nil
}

// fkBinding binds the foreign keys referencing written tables, each table
// once: keys form cycles (a table referencing itself, two tables
// referencing each other).
type fkBinding struct {
	b      *Binder
	refs   map[*catalog.Table]*Referencing
	writes map[*catalog.Table]*ChildWrite
}

// bindReferencing binds the foreign keys referencing t, and for each
// whose action writes, the child's writes in turn: nil when no key
// references t.
func (b *Binder) bindReferencing(t *catalog.Table) *Referencing {
	fb := &fkBinding{b: b}
	return fb.referencing(t)
}

func (fb *fkBinding) referencing(t *catalog.Table) *Referencing {
	if r, ok := fb.refs[t]; ok {
		return r
	}
	children := fb.b.cat.SchemaOf(t).Children(t.Name)
	if len(children) == 0 {
		return nil
	}
	r := &Referencing{}
	if fb.refs == nil {
		fb.refs = map[*catalog.Table]*Referencing{}
	}
	fb.refs[t] = r
	for _, child := range children {
		for _, fk := range child.ForeignKeys {
			if !strings.EqualFold(fk.RefTable, t.Name) {
				continue
			}
			pcols, err := ParentCols(t, fk)
			if err != nil {
				r.Keys, r.Err = nil, err
				return r
			}
			ck := &ChildKey{Child: child, FK: fk, ParentCols: pcols,
				OnDelete: fkActionNamed(fk.OnDelete), OnUpdate: fkActionNamed(fk.OnUpdate)}
			if len(pcols) == len(fk.Cols) {
				ck.Colls = make([]types.Collation, len(pcols))
				for i, col := range pcols {
					ck.Colls[i], _ = types.CollationByName(t.Columns[col].Collate)
				}
				ck.Seek = childSeekIndex(fb.b.cat, child, fk.Cols, ck.Colls)
			}
			if ck.OnDelete.Writes() || ck.OnUpdate.Writes() {
				ck.Write = fb.childWrite(child, ck.OnDelete == FKSetDefault || ck.OnUpdate == FKSetDefault)
			}
			r.Keys = append(r.Keys, ck)
		}
	}
	return r
}

// childWrite binds what an action writing child needs; defaults asks for
// its column DEFAULTs too (a SET DEFAULT action).
func (fb *fkBinding) childWrite(child *catalog.Table, defaults bool) *ChildWrite {
	cw, ok := fb.writes[child]
	if !ok {
		cw = &ChildWrite{Table: child}
		if fb.writes == nil {
			fb.writes = map[*catalog.Table]*ChildWrite{}
		}
		fb.writes[child] = cw
		cw.Err = fb.bindChild(cw)
		cw.Referencing = fb.referencing(child)
	}
	if defaults && cw.Defaults == nil {
		cw.Defaults = make([]Expr, len(child.Columns))
		for i, col := range child.Columns {
			if col.Default != "" {
				// A default that does not bind stores NULL.
				if x, err := fb.b.parseExpr(col.Default, nil); err == nil {
					cw.Defaults[i] = x
				}
			}
		}
	}
	return cw
}
