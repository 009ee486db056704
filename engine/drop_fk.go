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

// deleteBeforeDrop is the implicit DELETE FROM that SQLite runs, with
// foreign keys on, before dropping a table whose key other rows may
// reference: the children's ON DELETE actions run (CASCADE, SET NULL, SET
// DEFAULT), an immediate RESTRICT or NO ACTION violation fails the DROP
// (the statement's rollback keeps the table and its rows), and a deferred
// one is checked when the transaction commits. The dropped table's own
// triggers do not fire: SQLite drops them first. base is the schema the
// table is dropped from; a table no foreign key names needs no DELETE.
func deleteBeforeDrop(c *exec.Ctx, base *catalog.Catalog, p *plan.Drop) error {
	if !c.ForeignKeys || p.Kind != grammar.ObjectTable {
		return nil
	}
	t := base.Table(p.Name)
	if t == nil || plan.IsSystemName(t.Name) || !referenced(base, t.Name) {
		return nil
	}
	schema := "main"
	if t.Temp {
		schema = "temp"
	}
	st, err := parseOne("DELETE FROM " + schema + "." + grammar.QuoteIdent(t.Name))
	if err != nil {
		return err
	}
	bound, err := plan.NewBinder(c.Catalog, exec.ConstEvaluator{}).Bind(st)
	if err != nil {
		return err
	}
	del, ok := bound.(*plan.Delete)
	if !ok {
		return errs.New(errs.CodeInternal, "implicit DELETE FROM %s bound to %T", t.Name, bound)
	}
	prog, err := dml.NewDelete(del)
	if err != nil {
		return err
	}
	if fire := c.Triggers; fire != nil {
		c.Triggers = triggersBut{fire, del.Table}
		defer func() { c.Triggers = fire }()
	}
	_, err = prog.Run(c)
	return err
}

// triggersBut fires the triggers of every table but one.
type triggersBut struct {
	exec.TriggerFirer
	t *catalog.Table
}

// FireTriggers fires t's triggers unless t is the excluded table.
func (f triggersBut) FireTriggers(c *exec.Ctx, timing, event string, t *catalog.Table, old, nrow []types.Value, cols []int) (bool, error) {
	if t == f.t {
		return false, nil
	}
	return f.TriggerFirer.FireTriggers(c, timing, event, t, old, nrow, cols)
}

// referenced reports whether a foreign key of a table of schema names
// table as its parent.
func referenced(schema *catalog.Catalog, table string) bool {
	for _, e := range schema.Entries() {
		if e.Type != "table" {
			continue
		}
		if child := schema.Table(e.Name); child != nil {
			for _, fk := range child.ForeignKeys {
				if strings.EqualFold(fk.RefTable, table) {
					return true
				}
			}
		}
	}
	return false
}
