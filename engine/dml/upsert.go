package dml

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// upsertExec is one compiled ON CONFLICT clause. Its expressions read a
// batch holding the existing row then the excluded (proposed) row.
type upsertExec struct {
	u     *plan.Upsert
	sets  []evaluator
	where evaluator
	both  Batch // one row: the existing row, then the excluded
	buf   []types.Value
}

func (cp *compiler) newUpsert(u *plan.Upsert, width int) (*upsertExec, error) {
	ue := &upsertExec{u: u, buf: scratch()}
	initRowBatch(&ue.both, 2*width)
	for _, e := range u.SetExprs {
		ev, err := cp.compile(e)
		if err != nil {
			return nil, err
		}
		ue.sets = append(ue.sets, ev)
	}
	if u.Where != nil {
		ev, err := cp.compile(u.Where)
		if err != nil {
			return nil, err
		}
		ue.where = ev
	}
	return ue, nil
}

// matchUpsert returns the clause whose target is the violated constraint.
func (ins *inserter) matchUpsert(cf *conflict) *upsertExec {
	for _, ue := range ins.upserts {
		if ue.u.Target == nil || targetMatches(ue.u.Target, cf, ins.w) {
			return ue
		}
	}
	return nil
}

// upsertsRowid reports whether an ON CONFLICT clause applies to a rowid
// conflict: one without a target, or one naming the rowid alias.
func (ins *inserter) upsertsRowid() bool {
	for _, ue := range ins.upserts {
		if ue.u.Target == nil || targetMatches(ue.u.Target, &conflict{}, ins.w) {
			return true
		}
	}
	return false
}

func targetMatches(target []int, cf *conflict, w *tableWriter) bool {
	if cf.iw == nil {
		return len(target) == 1 && target[0] == w.t.RowidCol
	}
	if cf.iw.cols == nil || len(cf.iw.cols) != len(target) {
		return false
	}
	for _, t := range target {
		found := false
		for _, c := range cf.iw.cols {
			found = found || c == t
		}
		if !found {
			return false
		}
	}
	return true
}

// upsert runs DO NOTHING or DO UPDATE against the existing row.
func (ins *inserter) upsert(c *Ctx, ue *upsertExec, cf *conflict, row []types.Value) error {
	if ue.u.DoNothing {
		return nil
	}
	w := ins.w
	old, err := w.fetch(cf.rowid)
	if err != nil {
		return err
	}
	if old == nil {
		return errs.New(errs.CodeCorrupt, "index entry without a row in %s", w.t.Name)
	}
	for i, v := range old {
		ue.both.Cols[i][0] = v
	}
	for i, v := range row {
		ue.both.Cols[len(old)+i][0] = v
	}
	if ue.where != nil {
		if err := ue.where(c, &ue.both, fit(&ue.buf, &ue.both)); err != nil {
			return err
		}
		if !isTrue(ue.buf[0]) {
			return nil
		}
	}
	nrow := append([]types.Value{}, old...)
	for k, ev := range ue.sets {
		if err := ev(c, &ue.both, fit(&ue.buf, &ue.both)); err != nil {
			return err
		}
		setColumn(w, nrow, ue.u.SetCols[k], ue.buf[0].Clone())
	}
	w.setCols = ue.u.SetCols
	done, err := w.update(c, old, nrow, plan.ConflictAbort)
	w.setCols = nil
	if err != nil || !done {
		return err
	}
	// A rowid set by DO UPDATE moves the next automatic rowid past it,
	// as SQLite takes one more than the largest for each new row.
	w.noteRowid(w.rowid(nrow))
	ins.res.Affected++
	return ins.ret.add(c, w, nrow)
}

// setColumn assigns v to column col (-1 = rowid) of row, keeping the alias
// column and the rowid slot in step.
func setColumn(w *tableWriter, row []types.Value, col int, v types.Value) {
	n := len(w.t.Columns)
	if col < 0 || col == w.t.RowidCol {
		row[n] = v
		if w.t.RowidCol >= 0 {
			row[w.t.RowidCol] = v
		}
		return
	}
	row[col] = w.t.Columns[col].Affinity.Apply(v)
}

// conflictOn checks only the unique constraint on target (the rowid or an
// index over exactly those columns).
func (w *tableWriter) conflictOn(c *Ctx, row []types.Value, target []int) (*conflict, error) {
	rid := w.rowid(row)
	if len(target) == 1 && target[0] == w.t.RowidCol {
		_, ok, err := w.tree.Get(keycodec.AppendRowid(nil, rid))
		if err != nil || !ok {
			return nil, err
		}
		return &conflict{rowid: rid}, nil
	}
	w.load(row)
	for _, iw := range w.idx {
		if !iw.ix.Unique || !targetMatches(target, &conflict{iw: iw}, w) {
			continue
		}
		k, hasNull, in, err := iw.indexKey(c, w, row, w.key[:0])
		if err != nil || hasNull || !in {
			return nil, err
		}
		w.key = k
		// The proposed row is not stored yet: an existing row with its
		// rowid is still a conflict on target (SQLite checks the target
		// before the rowid).
		other, found, err := iw.seekPrefix(k, math.MinInt64)
		if err != nil || !found {
			return nil, err
		}
		return &conflict{rowid: other, iw: iw}, nil
	}
	return nil, nil
}
