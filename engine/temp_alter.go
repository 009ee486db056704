package engine

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/grammar"
)

// renameInTempTriggers carries a rename of a main table, or of one of its
// columns, into the session's temp triggers on that table, as SQLite
// does: they live in the temp schema, which the main ALTER does not edit.
func (s *Session) renameInTempTriggers(c *exec.Ctx, p *plan.AlterTable) error {
	tc := c.Catalog.Temp()
	st := p.Stmt
	if tc == nil || p.Table.Temp || (st.Action != grammar.AlterRenameTable && st.Action != grammar.AlterRenameColumn) {
		return nil
	}
	cat := tc.Clone()
	cat.Version = tc.Version + 1
	changed := false
	quote := st.Action == grammar.AlterRenameTable || quotedNewName(st.Text())
	err := rewriteTriggers(cat, quote, func(tr *grammar.CreateTriggerStmt, e *textEdit) bool {
		if t := cat.Trigger(tr.Name); t == nil || !t.OnMain {
			return false
		}
		var ok bool
		if st.Action == grammar.AlterRenameTable {
			ok = renameTableInTrigger(tr, e, p.Table.Name, st.NewName)
		} else {
			ok = renameColumnInTrigger(c.Catalog, tr, e, p.Table.Name, st.Column, st.NewName)
		}
		changed = changed || ok
		return ok
	})
	if err != nil || !changed {
		return err
	}
	if err := saveCatalog(c.TempTx, cat); err != nil {
		return err
	}
	s.txTempCat = cat
	return nil
}

// dropTempTriggersOn drops the session's temp triggers on main's table
// (or view) named table, which a DROP of it in main takes along, as in
// SQLite.
func (s *Session) dropTempTriggersOn(c *exec.Ctx, table string) error {
	tc := c.Catalog.Temp()
	if tc == nil {
		return nil
	}
	var cat *catalog.Catalog
	for _, tr := range tc.TriggersOnMain(table) {
		if cat == nil {
			cat = tc.Clone()
			cat.Version = tc.Version + 1
		}
		cat.Drop(tr.Name)
	}
	if cat == nil {
		return nil
	}
	if err := saveCatalog(c.TempTx, cat); err != nil {
		return err
	}
	s.txTempCat = cat
	return nil
}
