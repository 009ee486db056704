package engine

import (
	"reflect"
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/dml"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/grammar"
)

// addConstraint is ALTER TABLE … ADD [CONSTRAINT name] CHECK (…) |
// FOREIGN KEY (…) REFERENCES …, PostgreSQL's spelling: the constraint
// joins the table's CREATE text, in place, after the rows already there
// are shown to keep it (the statement's transaction undoes the edit when
// they do not). UNIQUE and PRIMARY KEY would need a new automatic index;
// CREATE UNIQUE INDEX does that job.
func addConstraint(c *exec.Ctx, cat *catalog.Catalog, old *catalog.Table, ct *grammar.CreateTableStmt, tc *grammar.TableConstraint, check plan.Expr) error {
	switch tc.Kind {
	case grammar.ConstraintCheck, grammar.ConstraintReferences:
	default:
		return errs.New(errs.CodeNotSupported, "ALTER TABLE ADD CONSTRAINT takes CHECK or FOREIGN KEY; for a UNIQUE constraint use CREATE UNIQUE INDEX")
	}
	if tc.Name != "" && findConstraint(ct, tc.Name) >= 0 {
		return errs.New(errs.CodeGeneric, "constraint %s already exists on %s", tc.Name, old.Name)
	}
	// As ADD COLUMN does, the original text is kept and the constraint
	// goes before its final ")".
	sql := old.SQL
	if k := strings.LastIndexByte(sql, ')'); k > 0 {
		sql = sql[:k] + ", " + tc.String() + sql[k:]
	}
	t, err := replaceTableSQL(cat, old, sql)
	if err != nil {
		return err
	}
	if tc.Kind == grammar.ConstraintCheck {
		name := tc.Name
		if name == "" {
			name = tc.String()
		}
		return dml.CheckRows(c, t, check, name)
	}
	if !c.ForeignKeys {
		return nil
	}
	bad, err := exec.OrphanRows(c, cat, t)
	if err != nil {
		return err
	}
	if len(bad) > 0 {
		return errs.Constraint(errs.ExtConstraintForeignKey, "FOREIGN KEY constraint failed")
	}
	return nil
}

// dropConstraint is ALTER TABLE … DROP CONSTRAINT name for a named CHECK
// or FOREIGN KEY, in the table's constraints or a column's, or a named
// UNIQUE table constraint with its automatic index.
func dropConstraint(c *exec.Ctx, cat *catalog.Catalog, old *catalog.Table, ct *grammar.CreateTableStmt, name string) error {
	if i := findConstraint(ct, name); i >= 0 {
		switch ct.Constraints[i].Kind {
		case grammar.ConstraintCheck, grammar.ConstraintReferences:
		case grammar.ConstraintUnique:
			return dropUnique(c, cat, old, ct, i)
		default:
			return errs.New(errs.CodeNotSupported, "cannot drop the PRIMARY KEY constraint %s of %s with ALTER TABLE", name, old.Name)
		}
		ct.Constraints = append(ct.Constraints[:i], ct.Constraints[i+1:]...)
		_, err := replaceTable(cat, old, ct)
		return err
	}
	for _, cd := range ct.Columns {
		for j, cc := range cd.Constraints {
			if !strings.EqualFold(cc.Name, name) {
				continue
			}
			if cc.Kind != grammar.ConstraintCheck && cc.Kind != grammar.ConstraintReferences {
				return errs.New(errs.CodeNotSupported, "cannot drop constraint %s of %s with ALTER TABLE: only CHECK and FOREIGN KEY constraints can be dropped", name, old.Name)
			}
			cd.Constraints = append(cd.Constraints[:j], cd.Constraints[j+1:]...)
			_, err := replaceTable(cat, old, ct)
			return err
		}
	}
	return errs.New(errs.CodeGeneric, "no such constraint: %s", name)
}

// findConstraint is the index of the table constraint named name, or -1.
func findConstraint(ct *grammar.CreateTableStmt, name string) int {
	for i, tc := range ct.Constraints {
		if strings.EqualFold(tc.Name, name) {
			return i
		}
	}
	return -1
}

// dropUnique drops the UNIQUE table constraint i and its automatic index
// (tree, sqlite_stat1 row); the table's other automatic indexes keep
// their trees and take the names of their new places, as SQLite numbers
// them.
func dropUnique(c *exec.Ctx, cat *catalog.Catalog, old *catalog.Table, ct *grammar.CreateTableStmt, i int) error {
	_, before, err := plan.TableFromAST(ct)
	if err != nil {
		return err
	}
	ct.Constraints = append(ct.Constraints[:i], ct.Constraints[i+1:]...)
	_, after, err := plan.TableFromAST(ct)
	if err != nil {
		return err
	}
	var autos []*catalog.Index
	for _, ix := range cat.TableIndexes(old.Name) {
		if ix.Auto {
			autos = append(autos, ix)
		}
	}
	if len(autos) != len(before) || len(after) != len(before)-1 {
		return errs.New(errs.CodeGeneric, "cannot drop the UNIQUE constraint of %s: its automatic index is not found", old.Name)
	}
	// The removed index is the first place the two lists differ.
	k := len(after)
	for j := range after {
		if !reflect.DeepEqual(after[j].Columns, before[j].Columns) {
			k = j
			break
		}
	}
	gone := autos[k]
	if err := dropStats(c, cat, old.Name, gone); err != nil {
		return err
	}
	if err := c.TxOf(old.Temp).DropTree(gone.Root); err != nil {
		return err
	}
	cat.Drop(gone.Name)
	_, err = replaceTable(cat, old, ct)
	return err
}
