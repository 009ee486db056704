package dml

import (
	"math"
	"unsafe"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// WriteResult is what a write statement reports.
type WriteResult struct {
	Affected int64
	// Returning holds the RETURNING rows, in the order written.
	Returning [][]types.Value
}

// returning evaluates RETURNING expressions over rows.
type returning struct {
	evals []evaluator
	bufs  [][]types.Value
	rows  [][]types.Value
}

func (cp *compiler) newReturning(exprs []plan.Expr) (*returning, error) {
	if len(exprs) == 0 {
		return nil, nil
	}
	r := &returning{evals: make([]evaluator, 0, len(exprs)), bufs: make([][]types.Value, 0, len(exprs))}
	for _, e := range exprs {
		ev, err := cp.compile(e)
		if err != nil {
			return nil, err
		}
		r.evals = append(r.evals, ev)
		r.bufs = append(r.bufs, scratch())
	}
	return r, nil
}

// add evaluates the expressions over the writer's loaded row.
func (r *returning) add(c *Ctx, w *tableWriter, row []types.Value) error {
	if r == nil {
		return nil
	}
	w.load(row)
	out := make([]types.Value, len(r.evals))
	for i, ev := range r.evals {
		if err := ev(c, w.one, fit(&r.bufs[i], w.one)); err != nil {
			return err
		}
		out[i] = r.bufs[i][0].Clone()
	}
	r.rows = append(r.rows, out)
	return nil
}

func (r *returning) reset() {
	if r != nil {
		r.rows = nil
	}
}

func (r *returning) result() [][]types.Value {
	if r == nil {
		return nil
	}
	return r.rows
}

// InsertProg is a compiled INSERT, reusable across executions (one at a
// time).
type InsertProg struct {
	p        *plan.Insert
	b        *builder
	w        *tableWriter
	defs     columnDefaults
	defaults []types.Value
	upserts  []*upsertExec
	ret      *returning
	src      Operator
	res      WriteResult
	// srcBuf and rowBuf are the per-row source and table rows, reused
	// across rows and executions: nothing downstream keeps them.
	srcBuf []types.Value
	rowBuf []types.Value
	// placed is set when the current row was written as a new row.
	placed bool
	// pendingMem is the source rows held before they are written,
	// charged to the memory limit.
	pendingMem exec.Held
}

// inserter is the historical name of the running state; it is the program.
type inserter = InsertProg

// NewInsert compiles an INSERT plan.
func NewInsert(p *plan.Insert) (*InsertProg, error) {
	b := newBuilder()
	cp := b.cp
	w, err := cp.newRowWriter(p.Table, p.Checks, p.Indexes, p.Generated, p.Referencing)
	if err != nil {
		return nil, err
	}
	// The defaults, the table row and the source row share one allocation.
	n := len(p.Table.Columns) + 1
	vals := make([]types.Value, 2*n+len(p.Targets))
	ins := &InsertProg{p: p, b: b, w: w, defaults: vals[:n:n], rowBuf: vals[n : 2*n : 2*n], srcBuf: vals[2*n:]}
	if ins.ret, err = cp.newReturning(p.Returning); err != nil {
		return nil, err
	}
	if ins.defs, err = cp.compileDefaults(p.Defaults); err != nil {
		return nil, err
	}
	for _, u := range p.Upserts {
		ue, err := cp.newUpsert(u, len(p.Table.Columns)+1)
		if err != nil {
			return nil, err
		}
		ins.upserts = append(ins.upserts, ue)
	}
	if p.Source != nil {
		if ins.src, err = b.build(p.Source); err != nil {
			return nil, err
		}
	}
	return ins, nil
}

// Insert compiles and runs an INSERT plan once.
func Insert(c *Ctx, p *plan.Insert) (WriteResult, error) {
	ins, err := NewInsert(p)
	if err != nil {
		return WriteResult{}, err
	}
	return ins.Run(c)
}

// Run executes the INSERT in c's transaction.
func (ins *InsertProg) Run(c *Ctx) (WriteResult, error) {
	ins.w.begin(c)
	defer ins.release()
	ins.res = WriteResult{}
	ins.ret.reset()
	if err := ins.evalDefaults(c); err != nil {
		return WriteResult{}, err
	}
	var err error
	if ins.src == nil {
		err = ins.row(c, nil)
	} else {
		err = ins.fromSource(c)
	}
	if err == nil && !ins.p.InsteadOf {
		err = ins.w.saveSequence(c)
	}
	if err == nil {
		err = c.FinishForeignKeys()
	}
	err = finishFailed(c, err, ins.p.Or)
	ins.res.Returning = ins.ret.result()
	return ins.res, err
}

func (ins *InsertProg) evalDefaults(c *Ctx) error { return ins.defs.eval(c, ins.defaults) }

// fromSource inserts every row the source produces. A SELECT source that
// reads the target table is materialised first, so the insert cannot see
// its own rows.
func (ins *inserter) fromSource(c *Ctx) error {
	op := ins.src
	defer op.Close()
	defer ins.pendingMem.Release()
	var pending [][]types.Value
	var pendingBytes int64
	// A source that does not read the target streams its rows into it,
	// as SQLite's does; one that reads it is held first, charged to the
	// memory limit, so the insert cannot see its own rows.
	_, stream := ins.p.Source.(*plan.Values)
	stream = stream || !plan.ReadsTable(ins.p.Source, ins.p.Table)
	src := ins.srcBuf[:0]
	if cap(src) < len(ins.p.Targets) {
		src = make([]types.Value, len(ins.p.Targets))
		ins.srcBuf = src
	}
	src = src[:len(ins.p.Targets)]
	for {
		bt, err := op.Next(c)
		if err != nil {
			return err
		}
		if bt == nil {
			break
		}
		for k, n := 0, bt.Len(); k < n; k++ {
			bt.Row(k, src)
			if stream {
				if err := ins.row(c, src); err != nil {
					return err
				}
				continue
			}
			row := make([]types.Value, len(src))
			for i, v := range src {
				row[i] = v.Clone()
				pendingBytes += int64(len(v.Bytes()))
			}
			pending = append(pending, row)
			pendingBytes += int64(len(src))*int64(unsafe.Sizeof(types.Value{})) + 24
		}
		if err := ins.pendingMem.Set(c, pendingBytes); err != nil {
			return err
		}
	}
	for _, row := range pending {
		if err := ins.row(c, row); err != nil {
			return err
		}
		if err := c.Check(); err != nil {
			return err
		}
	}
	return nil
}

// release drops the last row the run held (see UpdateProg.release).
func (ins *InsertProg) release() {
	ins.w.end()
	clearValues(ins.srcBuf)
	clearValues(ins.rowBuf)
}

// row inserts one source row (nil for DEFAULT VALUES).
func (ins *inserter) row(c *Ctx, src []types.Value) error {
	t := ins.p.Table
	n := len(t.Columns)
	if len(ins.rowBuf) != n+1 {
		ins.rowBuf = make([]types.Value, n+1)
	}
	row := ins.rowBuf
	copy(row, ins.defaults)
	ridSet := false
	for i, col := range ins.p.Targets {
		if col < 0 {
			row[n] = src[i]
			ridSet = true
			continue
		}
		row[col] = src[i]
		if col == t.RowidCol {
			row[n] = src[i]
			ridSet = true
		}
	}
	for i := range t.Columns {
		if i != t.RowidCol {
			row[i] = t.Columns[i].Affinity.Apply(row[i])
		}
	}
	if ins.p.InsteadOf {
		// The view stores nothing: as in SQLite the INSERT itself
		// affects no row (the trigger body's writes count on their own).
		skip, err := fire(c, "INSTEAD OF", "INSERT", t, nil, row, nil)
		if err != nil || skip {
			return err
		}
		return ins.ret.add(c, ins.w, row)
	}
	if err := ins.assignRowid(row, ridSet); err != nil {
		return err
	}
	ins.placed = false
	skip, err := ins.w.fire(c, "BEFORE", "INSERT", nil, row, nil)
	if err == nil && !skip {
		err = ins.checkAndPlace(c, row)
	}
	if !ins.placed && ins.w.seqTable == nil {
		// The row was not written as a new one (OR IGNORE, an upsert, an
		// error): SQLite takes one more than the largest rowid for each
		// row, so the next row's is computed afresh (its rowid, automatic
		// or explicit, moved the counter; an upsert's DO UPDATE can move a
		// row above it). AUTOINCREMENT consumes the rowid, as SQLite's
		// sequence register does.
		ins.w.nextID = 0
	}
	return err
}

func (ins *inserter) checkAndPlace(c *Ctx, row []types.Value) error {
	skip, err := ins.w.checkRow(c, row, ins.p.Or, ins.defaults)
	if err != nil || skip {
		return err
	}
	return ins.place(c, row)
}

// assignRowid settles the rowid (and alias column) of a new row.
func (ins *inserter) assignRowid(row []types.Value, explicit bool) error {
	t := ins.p.Table
	n := len(t.Columns)
	v := row[n]
	if explicit && !v.IsNull() {
		v = types.AffinityInteger.Apply(v)
		if v.Kind() != types.KindInt {
			return mismatch("datatype mismatch")
		}
		ins.w.noteRowid(v.Int())
	} else {
		id, err := ins.w.newRowid()
		if err != nil {
			return err
		}
		v = types.NewInt(id)
	}
	row[n] = v
	if t.RowidCol >= 0 {
		row[t.RowidCol] = v
	}
	return nil
}

// place resolves uniqueness conflicts and writes the row. Upsert clauses
// are tried first, in order, each against its own target constraint.
func (ins *inserter) place(c *Ctx, row []types.Value) error {
	w := ins.w
	for _, ue := range ins.upserts {
		if ue.u.Target == nil {
			continue
		}
		cf, err := w.conflictOn(c, row, ue.u.Target)
		if err != nil {
			return err
		}
		if cf != nil {
			return ins.upsert(c, ue, cf, row)
		}
	}
	for {
		cf, err := w.findConflict(c, row, math.MinInt64, true, w.defersRowid(ins.p.Or, ins.upsertsRowid()))
		if err != nil {
			return err
		}
		if cf == nil {
			break
		}
		if ue := ins.matchUpsert(cf); ue != nil {
			return ins.upsert(c, ue, cf, row)
		}
		mode := w.conflictMode(ins.p.Or, cf)
		switch mode {
		case plan.ConflictIgnore:
			return nil
		case plan.ConflictReplace:
			old, err := w.fetch(cf.rowid)
			if err != nil {
				return err
			}
			if old == nil {
				return errs.New(errs.CodeCorrupt, "index entry without a row in %s", w.t.Name)
			}
			if err := w.deleteRow(c, old); err != nil {
				return err
			}
			continue
		}
		return stopAs(mode, w.conflictError(cf))
	}
	if err := checkParents(c, w.t, row, nil); err != nil {
		return err
	}
	if err := w.adoptChildren(c, row, nil); err != nil {
		return err
	}
	if err := w.put(c, row, true); err != nil {
		return err
	}
	ins.placed = true
	w.noteWritten(w.rowid(row))
	ins.res.Affected++
	if c.Sess != nil && c.TriggerDepth == 0 {
		c.Sess.SetLastInsertRowid(w.rowid(row))
	}
	if _, err := w.fire(c, "AFTER", "INSERT", nil, row, nil); err != nil {
		return err
	}
	return ins.ret.add(c, w, row)
}

// columnDefaults are a table's compiled DEFAULT expressions (nil = none).
type columnDefaults []evaluator

func (cp *compiler) compileDefaults(exprs []plan.Expr) (columnDefaults, error) {
	var out columnDefaults // nil while no column has a default
	for i, d := range exprs {
		if d == nil {
			continue
		}
		if out == nil {
			out = make(columnDefaults, len(exprs))
		}
		ev, err := cp.compile(d)
		if err != nil {
			return nil, err
		}
		out[i] = ev
	}
	return out, nil
}

// eval stores each column's default value in dst.
func (d columnDefaults) eval(c *Ctx, dst []types.Value) error {
	for i, ev := range d {
		if ev == nil {
			continue
		}
		v, err := evalOne(c, ev)
		if err != nil {
			return err
		}
		dst[i] = v.Clone()
	}
	return nil
}
