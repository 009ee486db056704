package dml

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// update replaces old with nrow (same table), enforcing constraints under
// conflict resolution or; done is false when OR IGNORE skipped the row.
func (w *tableWriter) update(c *Ctx, old, nrow []types.Value, or plan.Conflict) (bool, error) {
	n := len(w.t.Columns)
	rid := nrow[n]
	if !rid.IsNull() || w.t.RowidCol >= 0 {
		v := types.AffinityInteger.Apply(rid)
		if v.Kind() != types.KindInt {
			return false, mismatch("datatype mismatch")
		}
		nrow[n] = v
		if w.t.RowidCol >= 0 {
			nrow[w.t.RowidCol] = v
		}
	}
	stored := old // the row as stored, which the index entries follow
	if w.hasTriggers(c) {
		if skip, err := w.fire(c, "BEFORE", "UPDATE", old, nrow, w.setCols); err != nil || skip {
			return false, err
		}
		var gone bool
		var err error
		if stored, gone, err = w.reloadAfterBefore(old, nrow); err != nil || gone {
			return false, err
		}
	}
	skip, err := w.checkRow(c, nrow, or, w.defaults)
	if err != nil || skip {
		return false, err
	}
	ridChanged := nrow[n].Int() != old[n].Int()
	for {
		cf, err := w.findConflict(c, nrow, old[n].Int(), ridChanged, w.defersRowid(or, false))
		if err != nil {
			return false, err
		}
		if cf == nil {
			break
		}
		mode := w.conflictMode(or, cf)
		switch mode {
		case plan.ConflictIgnore:
			return false, nil
		case plan.ConflictReplace:
			other, err := w.fetch(cf.rowid)
			if err != nil {
				return false, err
			}
			if other == nil {
				return false, errs.New(errs.CodeCorrupt, "index entry without a row in %s", w.t.Name)
			}
			if err := w.deleteRow(c, other); err != nil {
				return false, err
			}
			w.replaced = true
			continue
		}
		return false, stopAs(mode, w.conflictError(cf))
	}
	if !w.viaAction {
		if err := releaseParents(c, w.t, old, nrow); err != nil {
			return false, err
		}
	}
	if err := checkParents(c, w.t, nrow, old); err != nil {
		return false, err
	}
	if err := w.adoptChildren(c, nrow, old); err != nil {
		return false, err
	}
	if err := w.replace(c, stored, nrow); err != nil {
		return false, err
	}
	if ridChanged {
		w.noteRowid(nrow[n].Int())
	}
	// Children follow the parent's new key once it exists.
	if err := w.parentChange(c, old, nrow); err != nil {
		return false, err
	}
	_, err = w.fire(c, "AFTER", "UPDATE", old, nrow, w.setCols)
	return err == nil, err
}

// reloadAfterBefore re-reads the row after its BEFORE UPDATE triggers ran,
// as SQLite does: gone when a trigger deleted it (nothing is updated then);
// else the columns the statement does not set take the values the
// triggers left, and the row as now stored is returned for its index
// entries. Without setCols (a foreign key action) nrow is kept whole.
func (w *tableWriter) reloadAfterBefore(old, nrow []types.Value) (stored []types.Value, gone bool, err error) {
	cur, err := w.fetch(w.rowid(old))
	if err != nil || cur == nil {
		return nil, cur == nil, err
	}
	if w.setCols == nil {
		return cur, false, nil
	}
	for i := range w.t.Columns {
		if i != w.t.RowidCol && !slices.Contains(w.setCols, i) {
			nrow[i] = cur[i]
		}
	}
	return cur, false, nil
}

// replace writes nrow in place of old. With the rowid unchanged the row is
// overwritten under its key and only the index entries whose key changed
// are rewritten (an UPDATE of unindexed columns touches no index); a new
// rowid moves the row and every entry.
func (w *tableWriter) replace(c *Ctx, old, nrow []types.Value) error {
	rid := w.rowid(nrow)
	if w.rowid(old) != rid || w.hasTriggers(c) {
		// With triggers, old is the row as stored after its BEFORE
		// triggers (see reloadAfterBefore); rewrite every entry.
		if err := w.remove(c, old); err != nil {
			return err
		}
		return w.put(c, nrow, false)
	}
	// The row first: the statement just read it, so its write finds the
	// writer's path in place (see storage.Tree.Get in a write transaction).
	// replaceEntry loads old and nrow for the index keys it computes.
	w.key = keycodec.AppendRowid(w.key[:0], rid)
	if err := w.write(w.tree, w.key, w.record(nrow), false); err != nil {
		return err
	}
	for _, iw := range w.idx {
		if err := w.replaceEntry(c, iw, old, nrow, rid); err != nil {
			return err
		}
	}
	return nil
}

// hasTriggers reports whether the table has triggers in c's catalog,
// looked up once per catalog.
func (w *tableWriter) hasTriggers(c *Ctx) bool {
	if w.trigCat != c.Catalog {
		w.trigCat = c.Catalog
		w.hasTrig = c.Catalog != nil && len(c.Catalog.TriggersOf(w.t)) > 0
	}
	return w.hasTrig
}

// fire runs the table's triggers for timing and event; a table without
// any skips the session's trigger lookup.
func (w *tableWriter) fire(c *Ctx, timing, event string, old, nrow []types.Value, cols []int) (bool, error) {
	if !w.hasTriggers(c) {
		return false, nil
	}
	return fire(c, timing, event, w.t, old, nrow, cols)
}

// replaceEntry moves row rid's entry in index iw from old's key to nrow's,
// leaving it alone when the key (and partial-index membership) is the same.
func (w *tableWriter) replaceEntry(c *Ctx, iw *indexWriter, old, nrow []types.Value, rid int64) error {
	w.load(old)
	ok, _, oin, err := iw.indexKey(c, w, old, w.okey[:0])
	w.okey = ok
	if err != nil {
		return err
	}
	w.load(nrow)
	nk, _, nin, err := iw.indexKey(c, w, nrow, w.key[:0])
	w.key = nk
	if err != nil {
		return err
	}
	if oin && nin && bytes.Equal(ok, nk) {
		return nil
	}
	if oin {
		w.okey = keycodec.AppendRowid(ok, rid)
		if err := iw.tree.Delete(w.okey); err != nil {
			return err
		}
	}
	if !nin {
		return nil
	}
	w.key = keycodec.AppendRowid(nk, rid)
	return w.write(iw.tree, w.key, nil, false)
}

// UpdateProg is a compiled UPDATE, reusable across executions.
type UpdateProg struct {
	p    *plan.Update
	w    *tableWriter
	ret  *returning
	sets []evaluator
	bufs [][]types.Value
	in   Operator
	// arena holds the collected old and new rows; news is reused too.
	arena rowArena
	news  [][]types.Value
	// from: the input carries UPDATE … FROM columns after the row's.
	from bool
	defs columnDefaults
	// rowidOrder: the rows are updated in rowid order (see byRowid).
	rowidOrder bool
	// replaceDefaults: a NOT NULL column with a default may resolve by
	// REPLACE, so each run evaluates the defaults (see evalDefaults).
	replaceDefaults bool
}

// NewUpdate compiles an UPDATE plan.
func NewUpdate(p *plan.Update) (*UpdateProg, error) {
	b := newBuilder()
	cp := b.cp
	w, err := cp.newRowWriter(p.Table, p.Checks, p.Indexes, p.Generated, p.Referencing)
	if err != nil {
		return nil, err
	}
	u := &UpdateProg{p: p, w: w, sets: make([]evaluator, len(p.SetExprs)), bufs: make([][]types.Value, len(p.SetExprs))}
	if u.ret, err = cp.newReturning(p.Returning); err != nil {
		return nil, err
	}
	if u.defs, err = cp.compileDefaults(p.Defaults); err != nil {
		return nil, err
	}
	for i, e := range p.SetExprs {
		if u.sets[i], err = cp.compile(e); err != nil {
			return nil, err
		}
		u.bufs[i] = scratch()
	}
	if u.in, err = b.build(p.Input); err != nil {
		return nil, err
	}
	u.rowidOrder = byRowid(p, w)
	for i := range w.t.Columns {
		col := &w.t.Columns[i]
		if col.NotNull && col.Default != "" && (p.Or == plan.ConflictReplace || p.Or == plan.ConflictDefault && col.NotNullConflict == "REPLACE") {
			u.replaceDefaults = true
		}
	}
	return u, nil
}

// Run executes the UPDATE: it collects the target rows with their new
// values first, then writes, so the scan never sees its own writes.
func (u *UpdateProg) Run(c *Ctx) (WriteResult, error) {
	u.w.begin(c)
	u.w.setCols = u.p.SetCols
	u.ret.reset()
	defer u.in.Close()
	defer u.release()
	w, p := u.w, u.p
	width := len(p.Table.Columns) + 1
	news := u.news[:0]
	seen := map[int64]bool{}
	olds, err := collectRows(c, u.in, width, &u.arena, func(bt *Batch, i int, row []types.Value) error {
		if i < 0 {
			u.from = len(bt.Cols) > width
			for k, ev := range u.sets {
				if err := ev(c, bt, fit(&u.bufs[k], bt)); err != nil {
					return err
				}
			}
			return nil
		}
		nrow := u.arena.Row(width)
		copy(nrow, row)
		for k := range u.sets {
			setColumn(w, nrow, p.SetCols[k], u.bufs[k][i].Clone())
		}
		news = append(news, nrow)
		return nil
	})
	u.news = news
	if err != nil {
		return WriteResult{}, err
	}
	if p.InsteadOf {
		return insteadOf(c, "UPDATE", u.w, u.ret, olds, news, p.SetCols)
	}
	if err := u.evalDefaults(c); err != nil {
		return WriteResult{}, err
	}
	var res WriteResult
	if len(olds) > 1 && !u.from && (u.rowidOrder || w.hasTriggers(c)) {
		sortByRowid(olds, news)
	}
	w.replaced = false
	tombs := c.StartTombCharge()
	for i, old := range olds {
		// UPDATE … FROM may pair a row with several FROM rows: the first
		// wins. A single row (a point UPDATE) needs no bookkeeping.
		if len(olds) > 1 {
			if rid := old[width-1].Int(); seen[rid] {
				continue
			} else {
				seen[rid] = true
			}
		}
		nrow := news[i]
		if w.replaced {
			// An earlier row's REPLACE deleted rows: this one may be gone
			// or hold another row moved onto its rowid.
			cur, nw, err := u.reread(c, old, nrow)
			if err != nil {
				return res, finishFailed(c, err, p.Or)
			}
			if cur == nil {
				continue
			}
			old, nrow = cur, nw
			news[i] = nrow
		}
		done, err := w.update(c, old, nrow, p.Or)
		if err == nil {
			err = c.ChargeTombs(&tombs)
		}
		if err != nil {
			return res, finishFailed(c, err, p.Or)
		}
		if done {
			res.Affected++
			if err := u.ret.add(c, w, news[i]); err != nil {
				return res, err
			}
		}
	}
	res.Returning = u.ret.result()
	return res, c.FinishForeignKeys()
}

// evalDefaults evaluates the column defaults into w.defaults when a NOT
// NULL column may resolve by REPLACE (the statement's OR clause or the
// column's own), else leaves it nil.
func (u *UpdateProg) evalDefaults(c *Ctx) error {
	w := u.w
	w.defaults = nil
	if !u.replaceDefaults {
		return nil
	}
	w.defaults = make([]types.Value, len(w.t.Columns)+1)
	return u.defs.eval(c, w.defaults)
}

// reread re-reads row old's rowid as it is now, with the new values
// recomputed from it, as SQLite evaluates SET against the current row: nil
// when the row is gone. UPDATE … FROM keeps the values computed with the
// FROM row, over the current row's other columns.
func (u *UpdateProg) reread(c *Ctx, old, nrow []types.Value) ([]types.Value, []types.Value, error) {
	w := u.w
	cur, err := w.fetch(w.rowid(old))
	if err != nil || cur == nil {
		return nil, nil, err
	}
	fresh := append(make([]types.Value, 0, len(cur)), cur...)
	if u.from {
		for _, col := range u.p.SetCols {
			if col < 0 || col == w.t.RowidCol {
				setColumn(w, fresh, col, nrow[len(nrow)-1])
			} else {
				fresh[col] = nrow[col]
			}
		}
		return cur, fresh, nil
	}
	w.load(cur)
	for k, ev := range u.sets {
		if err := ev(c, w.one, u.bufs[k]); err != nil {
			return nil, nil, err
		}
	}
	for k, col := range u.p.SetCols {
		setColumn(w, fresh, col, u.bufs[k][0].Clone())
	}
	return cur, fresh, nil
}

// byRowid reports whether SQLite updates the rows of p in rowid order (it
// collects their rowids first) rather than in the order its scan finds
// them: when a REPLACE may delete rows, the rowid changes, or the scan
// reads an index the update changes. The order decides which rows an OR
// FAIL keeps and which of two colliding rows an OR REPLACE keeps.
// (Triggers too; the caller checks those per run.)
func byRowid(p *plan.Update, w *tableWriter) bool {
	if w.mayReplace(p.Or) {
		return true
	}
	for _, col := range p.SetCols {
		if col < 0 || col == p.Table.RowidCol {
			return true
		}
	}
	n := p.Input
	for {
		f, ok := n.(*plan.Filter)
		if !ok {
			break
		}
		n = f.Input
	}
	s, ok := n.(*plan.Scan)
	if !ok || s.Index == nil {
		return false
	}
	for _, ic := range s.Index.Index.Columns {
		if ic.Col < 0 || slices.Contains(p.SetCols, ic.Col) {
			return true
		}
	}
	return false
}

// sortByRowid orders the collected rows (and their new values) by rowid,
// the order SQLite updates in when a REPLACE may delete rows mid-statement.
func sortByRowid(olds, news [][]types.Value) {
	rid := func(r []types.Value) int64 { return r[len(r)-1].Int() }
	if slices.IsSortedFunc(olds, func(a, b []types.Value) int { return cmp.Compare(rid(a), rid(b)) }) {
		return
	}
	perm := make([]int, len(olds))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(rid(olds[a]), rid(olds[b])) })
	o2, n2 := make([][]types.Value, len(olds)), make([][]types.Value, len(news))
	for i, p := range perm {
		o2[i], n2[i] = olds[p], news[p]
	}
	copy(olds, o2)
	copy(news, n2)
}

// release drops the rows an execution collected, so an idle program does
// not pin the last statement's rows (a DELETE of a whole table holds all of
// them) until it runs again.
func (u *UpdateProg) release() {
	u.w.end()
	u.arena.Reset()
	clear(u.news)
	if cap(u.news) > exec.ArenaKeepRows {
		u.news = nil
	}
}

// DeleteProg is a compiled DELETE, reusable across executions.
type DeleteProg struct {
	p     *plan.Delete
	w     *tableWriter
	ret   *returning
	in    Operator
	arena rowArena // the collected target rows
}

// NewDelete compiles a DELETE plan.
func NewDelete(p *plan.Delete) (*DeleteProg, error) {
	b := newBuilder()
	cp := b.cp
	w, err := cp.newTableWriter(p.Table, nil, p.Indexes)
	if err != nil {
		return nil, err
	}
	w.refs = p.Referencing
	d := &DeleteProg{p: p, w: w}
	if d.ret, err = cp.newReturning(p.Returning); err != nil {
		return nil, err
	}
	if d.in, err = b.build(p.Input); err != nil {
		return nil, err
	}
	return d, nil
}

// Run executes the DELETE.
func (d *DeleteProg) Run(c *Ctx) (WriteResult, error) {
	d.w.begin(c)
	d.ret.reset()
	defer d.in.Close()
	defer d.release()
	rows, err := collectRows(c, d.in, len(d.p.Table.Columns)+1, &d.arena, nil)
	if err != nil {
		return WriteResult{}, err
	}
	if d.p.InsteadOf {
		return insteadOf(c, "DELETE", d.w, d.ret, rows, nil, nil)
	}
	var res WriteResult
	tombs := c.StartTombCharge()
	for _, row := range rows {
		if err := d.ret.add(c, d.w, row); err != nil {
			return res, err
		}
		if skip, err := d.w.fire(c, "BEFORE", "DELETE", row, nil, nil); err != nil {
			return res, err
		} else if skip {
			continue
		}
		if err := d.w.deleteRow(c, row); err != nil {
			return res, err
		}
		if err := c.ChargeTombs(&tombs); err != nil {
			return res, err
		}
		res.Affected++
		if _, err := d.w.fire(c, "AFTER", "DELETE", row, nil, nil); err != nil {
			return res, err
		}
	}
	res.Returning = d.ret.result()
	return res, c.FinishForeignKeys()
}

// release is UpdateProg.release for a DELETE.
func (d *DeleteProg) release() {
	d.w.end()
	d.arena.Reset()
}

// insteadOf fires the INSTEAD OF trigger of the view w writes for each
// selected row (OLD from olds, NEW from news when set). Nothing is written
// to the view, so, as in SQLite, the statement itself affects no row: only
// the trigger bodies' writes count toward total_changes(). RETURNING
// reads the NEW row (OLD for a DELETE) of each firing not dropped by
// RAISE(IGNORE).
func insteadOf(c *Ctx, event string, w *tableWriter, ret *returning, olds, news [][]types.Value, cols []int) (WriteResult, error) {
	var res WriteResult
	for i, old := range olds {
		row := old
		var nrow []types.Value
		if news != nil {
			nrow, row = news[i], news[i]
		}
		skip, err := fire(c, "INSTEAD OF", event, w.t, old, nrow, cols)
		if err != nil {
			return res, err
		}
		if !skip {
			if err := ret.add(c, w, row); err != nil {
				return res, err
			}
		}
		if err := c.Check(); err != nil {
			return res, err
		}
	}
	res.Returning = ret.result()
	return res, nil
}
