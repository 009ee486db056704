package dml

import (
	"errors"
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// Foreign keys are enforced when Ctx.ForeignKeys is set. As in SQLite, an
// immediate constraint is checked at the end of the statement, not per
// row: the statement counts its violations (fkCounter) and fails if any is
// left. A child row without a parent adds one; removing such a row, or
// writing the parent key it waits for, takes it back. Deleting or
// re-keying a parent row applies the child's ON DELETE / ON UPDATE action:
// NO ACTION counts the children left behind, RESTRICT fails at once, and
// CASCADE, SET NULL and SET DEFAULT change the children (whose new keys are
// checked in turn). Deferred constraints are verified when the
// transaction commits.

// The write side of foreign keys (see exec/fkcheck.go for the rule): a
// write counts the violations it makes and takes back the ones it
// resolves, and applies the ON DELETE / ON UPDATE actions of the keys
// referencing a row it deletes or re-keys.

// checkParents counts a violation for each foreign key of t whose key in
// a new or changed row has no parent. old, when set, is the row before an
// UPDATE: keys it leaves unchanged are not checked, as in SQLite.
func checkParents(c *Ctx, t *catalog.Table, row, old []types.Value) error {
	if !c.ForeignKeys {
		return nil
	}
	for _, fk := range t.ForeignKeys {
		vals, null := keyValues(row, fk.Cols)
		if null || old != nil && sameCols(old, row, fk.Cols) {
			continue
		}
		if fk.Deferred && c.DeferFK != nil {
			// Checked when the transaction commits.
			c.DeferFK(t.Name)
			continue
		}
		if selfParent(t, fk, row) {
			continue
		}
		missing, err := missingParent(c, t, fk, vals)
		if err != nil {
			return err
		}
		if missing {
			*c.FKViolations()++
		}
	}
	return nil
}

// selfParent reports whether row is its own parent under fk, a key of t
// referencing t (the row is not in the table yet when it is checked).
func selfParent(t *catalog.Table, fk catalog.ForeignKey, row []types.Value) bool {
	if !strings.EqualFold(fk.RefTable, t.Name) {
		return false
	}
	cols, err := plan.ParentCols(t, fk)
	if err != nil || len(cols) != len(fk.Cols) {
		return false
	}
	for i, col := range cols {
		if types.Compare(row[fk.Cols[i]], t.Columns[col].Affinity.Apply(row[col]), types.CollBinary) != 0 {
			return false
		}
	}
	return true
}

// sameCols reports whether a and b hold the same values in cols.
func sameCols(a, b []types.Value, cols []int) bool {
	ka, _ := keyValues(a, cols)
	kb, _ := keyValues(b, cols)
	return sameKey(ka, kb)
}

// releaseParents takes back the violations a child row of t counted when
// it is deleted, or its keys change (nrow is then the new row): a key
// without a parent stops being outstanding.
func releaseParents(c *Ctx, t *catalog.Table, old, nrow []types.Value) error {
	if !c.ForeignKeys || !c.HasFKViolations() {
		return nil
	}
	for _, fk := range t.ForeignKeys {
		vals, null := keyValues(old, fk.Cols)
		if null || fk.Deferred && c.DeferFK != nil || nrow != nil && sameCols(old, nrow, fk.Cols) {
			continue
		}
		missing, err := missingParent(c, t, fk, vals)
		if err != nil {
			return err
		}
		if missing && c.HasFKViolations() {
			*c.FKViolations()--
		}
	}
	return nil
}

// adoptChildren takes back the violations of the children waiting for the
// parent key a new or re-keyed row of the writer's table brings (old is
// the row before an UPDATE, or nil).
func (w *tableWriter) adoptChildren(c *Ctx, nrow, old []types.Value) error {
	if !c.ForeignKeys || !c.HasFKViolations() {
		return nil
	}
	refs, err := keysOf(w.refs)
	if err != nil {
		return err
	}
	for _, r := range refs {
		key, null := keyValues(nrow, r.ParentCols)
		if null || r.FK.Deferred && c.DeferFK != nil || old != nil && sameCols(old, nrow, r.ParentCols) {
			continue
		}
		rows, err := childRows(c, r, key)
		if err != nil {
			return err
		}
		n := c.FKViolations()
		*n = max(*n-int64(len(rows)), 0)
	}
	return nil
}

// finishFailed is FinishForeignKeys for a statement stopped by err under
// conflict clause or. A FAIL stop (OR FAIL, RAISE(FAIL)) keeps the rows
// written before it, but SQLite checks the immediate foreign keys first:
// outstanding violations turn it into a foreign key error, which undoes
// the whole statement.
func finishFailed(c *Ctx, err error, or plan.Conflict) error {
	if err == nil || c.TriggerDepth > 0 || !c.HasFKViolations() {
		return err
	}
	var rf *RaiseFail
	var e *errs.Error
	if errors.As(err, &rf) || or == plan.ConflictFail && errors.As(err, &e) && e.Code == errs.CodeConstraint {
		return fkError()
	}
	return err
}

// keysOf is the foreign keys refs holds (none for nil), or why they
// could not be resolved.
func keysOf(refs *plan.Referencing) ([]*plan.ChildKey, error) {
	if refs == nil {
		return nil, nil
	}
	return refs.Keys, refs.Err
}

// parentChange applies the actions of the keys refs, which reference a
// table, when its row old is deleted (nrow nil) or updated to nrow.
func parentChange(c *Ctx, refs *plan.Referencing, old, nrow []types.Value) error {
	if !c.ForeignKeys {
		return nil
	}
	keys, err := keysOf(refs)
	if err != nil {
		return err
	}
	for _, r := range keys {
		key, null := keyValues(old, r.ParentCols)
		if null {
			continue
		}
		if nrow != nil {
			nk, _ := keyValues(nrow, r.ParentCols)
			if sameKey(key, nk) {
				continue
			}
		}
		if err := applyAction(c, r, key, nrow); err != nil {
			return err
		}
	}
	return nil
}

func sameKey(a, b []types.Value) bool {
	for i := range a {
		if a[i].IsNull() != b[i].IsNull() || types.Compare(a[i], b[i], types.CollBinary) != 0 {
			return false
		}
	}
	return true
}

// applyAction runs the ON DELETE (nrow nil) or ON UPDATE action of r for
// the children of a parent key.
func applyAction(c *Ctx, r *plan.ChildKey, key, nrow []types.Value) (err error) {
	action := r.OnDelete
	if nrow != nil {
		action = r.OnUpdate
	}
	if action != plan.FKNoAction {
		// An action is a nested program even when it finds no child, as
		// SQLite's action trigger is.
		if err := c.EnterNested(); err != nil {
			return err
		}
		c.ActionDepth++
		defer func() { c.ActionDepth-- }()
	}
	rows, err := childRows(c, r, key)
	if err != nil || len(rows) == 0 {
		return err
	}
	switch action {
	case plan.FKRestrict:
		return fkError()
	case plan.FKNoAction:
		if r.FK.Deferred && c.DeferFK != nil {
			c.DeferFK(r.Child.Name)
		} else {
			*c.FKViolations() += int64(len(rows))
		}
		return nil
	}
	cw := r.Write
	if cw.Err != nil {
		return cw.Err
	}
	cp := newBuilder().cp
	w, err := cp.newRowWriter(cw.Table, cw.Checks, cw.Indexes, cw.Generated, cw.Referencing)
	if err != nil {
		return err
	}
	var defaults []evaluator
	if action == plan.FKSetDefault {
		defaults = cp.compileActionDefaults(cw.Defaults)
	}
	// The children's keys had a parent: changing them releases nothing.
	w.viaAction = true
	w.begin(c)
	// A completed action's rows count toward total_changes(), as
	// SQLite's foreign key action programs do.
	changed := int64(0)
	defer func() {
		if err == nil && c.Sess != nil {
			c.Sess.AddTotalChanges(changed)
		}
	}()
	for _, row := range rows {
		if action == plan.FKCascade && nrow == nil {
			done, err := w.cascadeDelete(c, row)
			if err != nil {
				return err
			}
			if err := w.actionDone(c, r, row, done, &changed); err != nil {
				return err
			}
			continue
		}
		nr := append([]types.Value{}, row...)
		for i, col := range r.FK.Cols {
			switch action {
			case plan.FKCascade:
				nr[col] = nrow[r.ParentCols[i]]
			case plan.FKSetNull:
				nr[col] = types.Null
			case plan.FKSetDefault:
				nr[col] = types.Null
				if ev := defaults[col]; ev != nil {
					// A default that fails to evaluate stores NULL.
					if v, err := evalOne(c, ev); err == nil {
						nr[col] = v.Clone()
					}
				}
			}
			if col == cw.Table.RowidCol {
				// The key is the child's rowid: the row moves.
				nr[len(nr)-1] = nr[col]
			}
		}
		done, err := w.update(c, row, nr, plan.ConflictDefault)
		if err != nil {
			return err
		}
		if err := w.actionDone(c, r, row, done, &changed); err != nil {
			return err
		}
	}
	return nil
}

// actionDone counts a child row the action of r wrote (done), or else one
// it left in place, which a trigger's RAISE(IGNORE) kept: as in SQLite,
// whose parent side counts every child and whose action takes back each
// it writes, a kept child is a violation.
func (w *tableWriter) actionDone(c *Ctx, r *plan.ChildKey, row []types.Value, done bool, changed *int64) error {
	if done {
		*changed++
		return nil
	}
	cur, err := w.fetch(w.rowid(row))
	if err != nil || cur == nil {
		return err
	}
	if r.FK.Deferred && c.DeferFK != nil {
		c.DeferFK(r.Child.Name)
	} else {
		*c.FKViolations()++
	}
	return nil
}

// cascadeDelete deletes a child row for an ON DELETE CASCADE action, as
// the DELETE of SQLite's action program does: with triggers, the row as
// now stored (gone: an earlier row's triggers deleted it), its BEFORE
// DELETE triggers (RAISE(IGNORE) keeps it), the row, the actions of the
// keys referencing it, then its AFTER DELETE triggers, OLD being the row
// as it was before its BEFORE triggers. done reports the row was deleted.
func (w *tableWriter) cascadeDelete(c *Ctx, row []types.Value) (done bool, err error) {
	stored := row
	if w.hasTriggers(c) {
		if row, err = w.fetch(w.rowid(row)); err != nil || row == nil {
			return false, err
		}
		if skip, err := w.fire(c, "BEFORE", "DELETE", row, nil, nil); err != nil || skip {
			return false, err
		}
		// The triggers may have changed or deleted the row.
		if stored, err = w.fetch(w.rowid(row)); err != nil || stored == nil {
			return false, err
		}
	}
	if err := w.remove(c, stored); err != nil {
		return false, err
	}
	if err := w.parentChange(c, row, nil); err != nil {
		return false, err
	}
	_, err = w.fire(c, "AFTER", "DELETE", row, nil, nil)
	return err == nil, err
}

// compileActionDefaults compiles the DEFAULTs a SET DEFAULT action
// stores, per column; one that does not compile stores NULL (nil).
func (cp *compiler) compileActionDefaults(exprs []plan.Expr) []evaluator {
	out := make([]evaluator, len(exprs))
	for i, x := range exprs {
		if x == nil {
			continue
		}
		if ev, err := cp.compile(x); err == nil {
			out[i] = ev
		}
	}
	return out
}
