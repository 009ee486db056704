package dml

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// ConstValue evaluates a bound expression that reads no column (a DEFAULT
// of ALTER TABLE ADD COLUMN).
func ConstValue(c *Ctx, x plan.Expr) (types.Value, error) {
	ev, err := newBuilder().cp.compile(x)
	if err != nil {
		return types.Null, err
	}
	v, err := evalOne(c, ev)
	return v.Clone(), err
}

// RewriteRows rewrites every row of table old into the layout of nt
// (same tree) through fn, which maps an old row's column values to the
// new ones, then rebuilds nt's indexes (keys, bound against the schema
// that holds nt) from the new rows.
func RewriteRows(c *Ctx, old, nt *catalog.Table, keys []*plan.IndexKeys, fn func([]types.Value) []types.Value) error {
	rows, err := scanRows(c, old)
	if err != nil {
		return err
	}
	w := &tableWriter{t: nt}
	w.begin(c)
	n := len(old.Columns)
	for _, row := range rows {
		rid := row[n]
		vals := fn(append([]types.Value{}, row[:n]...))
		nrow := append(vals, rid)
		if nt.RowidCol >= 0 {
			nrow[nt.RowidCol] = rid
		}
		w.key = keycodec.AppendRowid(w.key[:0], rid.Int())
		if err := w.tree.Put(w.key, w.record(nrow)); err != nil {
			return err
		}
		if err := c.Check(); err != nil {
			return err
		}
	}
	for _, ik := range keys {
		if err := RebuildIndex(c, nt, ik); err != nil {
			return err
		}
	}
	return nil
}

// RebuildIndex empties one index of t and refills it from the table's
// rows (ALTER TABLE's rewrite, REINDEX).
func RebuildIndex(c *Ctx, t *catalog.Table, ik *plan.IndexKeys) error {
	if err := c.TxOf(ik.Index.Temp).ClearTree(ik.Index.Root); err != nil {
		return err
	}
	return BuildIndex(c, t, ik)
}

// CheckNotNull fails when column col of t holds a NULL.
func CheckNotNull(c *Ctx, t *catalog.Table, col int) error {
	rows, err := scanRows(c, t)
	if err != nil {
		return err
	}
	for _, row := range rows {
		if row[col].IsNull() {
			return errs.Constraint(errs.ExtConstraintNotNull, "NOT NULL constraint failed: %s.%s", t.Name, t.Columns[col].Name)
		}
	}
	return nil
}

// CheckRows fails when a row of t makes check false: ALTER TABLE … ADD
// CONSTRAINT name CHECK (…) on a table that already has rows. check is
// bound over t's row (columns, then rowid).
func CheckRows(c *Ctx, t *catalog.Table, check plan.Expr, name string) error {
	ev, err := newBuilder().cp.compile(check)
	if err != nil {
		return err
	}
	rows, err := scanRows(c, t)
	if err != nil {
		return err
	}
	w := newRowWriterState(t)
	for _, row := range rows {
		w.load(row)
		if err := ev(c, w.one, w.buf); err != nil {
			return err
		}
		if ok, known := truth(w.buf[0]); known && !ok {
			return errs.Constraint(errs.ExtConstraintCheck, "CHECK constraint failed: %s", name)
		}
	}
	return nil
}
