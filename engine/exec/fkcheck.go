package exec

import (
	"bytes"
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/keycodec"
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

func fkError() error {
	return errs.Constraint(errs.ExtConstraintForeignKey, "FOREIGN KEY constraint failed")
}

// fkCounter counts a statement's outstanding immediate foreign key
// violations; trigger programs share their statement's counter.
type fkCounter struct{ n int64 }

// fkc returns the statement's violation counter.
func (c *Ctx) fkc() *fkCounter {
	if c.fk == nil {
		c.fk = &fkCounter{}
	}
	return c.fk
}

// FinishForeignKeys fails a top-level statement that leaves immediate
// foreign key violations behind (trigger programs leave the check to their
// statement).
func (c *Ctx) FinishForeignKeys() error {
	if c.TriggerDepth > 0 || c.fk == nil || c.fk.n <= 0 {
		return nil
	}
	return fkError()
}

// parentCols resolves the parent key columns of fk.
func parentCols(parent *catalog.Table, fk catalog.ForeignKey) ([]int, error) {
	return plan.ParentCols(parent, fk)
}

// keyValues extracts row[cols], reporting whether any is NULL.
func keyValues(row []types.Value, cols []int) ([]types.Value, bool) {
	out := make([]types.Value, len(cols))
	null := false
	for i, c := range cols {
		out[i] = row[c]
		null = null || out[i].IsNull()
	}
	return out, null
}

// parentHas reports whether parent holds a row with cols = vals.
func parentHas(c *Ctx, parent *catalog.Table, cols []int, vals []types.Value) (bool, error) {
	for i, col := range cols {
		vals[i] = parent.Columns[col].Affinity.Apply(vals[i])
	}
	if len(cols) == 1 && cols[0] == parent.RowidCol {
		v := vals[0]
		if v.Kind() != types.KindInt {
			return false, nil
		}
		_, ok, err := c.TableTree(parent).Get(keycodec.RowidKey(v.Int()))
		return ok, err
	}
	if ix := indexOn(c.Catalog, parent, cols); ix != nil {
		var key []byte
		for i, v := range vals {
			key = types.AppendKey(key, v, ix.Columns[i].Desc, collOf(ix.Columns[i].Collate))
		}
		_, found, err := SeekIndexPrefix(c.IndexTree(ix), key, -1<<63)
		return found, err
	}
	rows, err := matchingRows(c, parent, cols, nil, vals)
	return len(rows) > 0, err
}

// indexOn returns an index of t whose leading columns are cols, in order.
func indexOn(cat *catalog.Catalog, t *catalog.Table, cols []int) *catalog.Index {
	for _, ix := range cat.IndexesOf(t) {
		if len(ix.Columns) < len(cols) || ix.Where != "" {
			continue
		}
		ok := true
		for i, c := range cols {
			ok = ok && ix.Columns[i].Col == c
		}
		if ok {
			return ix
		}
	}
	return nil
}

// matchingRows returns the rows of t whose cols equal vals, compared in
// colls (nil: the columns' own collations).
func matchingRows(c *Ctx, t *catalog.Table, cols []int, colls []types.Collation, vals []types.Value) ([][]types.Value, error) {
	all, err := scanRows(c, t)
	if err != nil {
		return nil, err
	}
	var out [][]types.Value
	for _, row := range all {
		match := true
		for i, col := range cols {
			v := t.Columns[col].Affinity.Apply(vals[i])
			coll := collOf(t.Columns[col].Collate)
			if colls != nil {
				coll = colls[i]
			}
			match = match && !row[col].IsNull() && types.Equal(row[col], v, coll)
		}
		if match {
			out = append(out, row)
		}
	}
	return out, nil
}

// childRows returns the rows of child whose cols (a foreign key's) equal
// vals in colls (the parent key's collations): the row holding the rowid
// when cols is the rowid alias, the rows index seek lists when set (see
// plan.ChildKey.Seek), else a scan's.
func childRows(c *Ctx, child *catalog.Table, cols []int, colls []types.Collation, seek *catalog.Index, vals []types.Value) ([][]types.Value, error) {
	if len(cols) == 1 && cols[0] == child.RowidCol {
		v := child.Columns[cols[0]].Affinity.Apply(vals[0])
		if v.Kind() != types.KindInt {
			return nil, nil
		}
		row, err := fetchRow(c, child, v.Int())
		if err != nil || row == nil {
			return nil, err
		}
		return [][]types.Value{row}, nil
	}
	if seek == nil {
		return matchingRows(c, child, cols, colls, vals)
	}
	var prefix []byte
	for i, col := range cols {
		v := child.Columns[col].Affinity.Apply(vals[i])
		prefix = types.AppendKey(prefix, v, seek.Columns[i].Desc, collOf(seek.Columns[i].Collate))
	}
	// The rowids first: the caller writes the child afterwards.
	var rids []int64
	cur := c.IndexTree(seek).Cursor()
	for ok := cur.Seek(prefix); ok && bytes.HasPrefix(cur.Key(), prefix); ok = cur.Next() {
		rid, err := keycodec.TrailingRowid(cur.Key())
		if err != nil {
			cur.Close()
			return nil, err
		}
		rids = append(rids, rid)
	}
	err := cur.Err()
	cur.Close()
	if err != nil || len(rids) == 0 {
		return nil, err
	}
	out := make([][]types.Value, 0, len(rids))
	for _, rid := range rids {
		row, err := fetchRow(c, child, rid)
		if err != nil {
			return nil, err
		}
		if row == nil {
			return nil, errs.New(errs.CodeCorrupt, "index entry without a row in %s", child.Name)
		}
		out = append(out, row)
	}
	return out, nil
}

// fetchRow reads the row of t with rowid rid (its values cloned, then the
// rowid), or nil when there is none.
func fetchRow(c *Ctx, t *catalog.Table, rid int64) ([]types.Value, error) {
	val, ok, err := c.TableTree(t).Get(keycodec.RowidKey(rid))
	if err != nil || !ok {
		return nil, err
	}
	var rr types.RecordReader
	if err := rr.Reset(val); err != nil {
		return nil, errs.Wrap(errs.CodeCorrupt, err)
	}
	n := len(t.Columns)
	row := make([]types.Value, n+1)
	for i := 0; i < n; i++ {
		row[i] = rr.Column(i).Clone()
	}
	row[n] = types.NewInt(rid)
	if t.RowidCol >= 0 {
		row[t.RowidCol] = row[n]
	}
	return row, nil
}

// missingParent reports whether the key of fk in row (no part NULL) has no
// parent row.
func missingParent(c *Ctx, t *catalog.Table, fk catalog.ForeignKey, vals []types.Value) (bool, error) {
	parent := c.Catalog.SchemaOf(t).Table(fk.RefTable)
	if parent == nil {
		if t.Temp {
			// A foreign key's parent is looked up in its own schema.
			return false, errs.New(errs.CodeGeneric, "no such table: temp.%s", fk.RefTable)
		}
		return true, nil
	}
	cols, err := parentCols(parent, fk)
	if err != nil {
		return false, err
	}
	if len(cols) != len(vals) {
		return false, errs.New(errs.CodeGeneric, "foreign key mismatch - \"%s\" referencing \"%s\"", t.Name, parent.Name)
	}
	ok, err := parentHas(c, parent, cols, vals)
	return !ok, err
}

// VerifyForeignKeys checks every row of table against its foreign keys
// (deferred ones included), as a deferred check at commit does.
func VerifyForeignKeys(c *Ctx, table string) error {
	t := c.Catalog.Table(table)
	if t == nil {
		return nil
	}
	rows, err := scanRows(c, t)
	if err != nil {
		return err
	}
	for _, row := range rows {
		for _, fk := range t.ForeignKeys {
			vals, null := keyValues(row, fk.Cols)
			if null {
				continue
			}
			missing, err := missingParent(c, t, fk, vals)
			if err != nil {
				return err
			}
			if missing {
				return fkError()
			}
		}
	}
	return nil
}

// ForeignKeyCheckRows lists the rows of table (all tables when "") whose
// foreign keys have no parent: table, rowid, parent, fkid (PRAGMA
// foreign_key_check).
func ForeignKeyCheckRows(c *Ctx, table string) ([][]types.Value, error) {
	out := [][]types.Value{}
	for _, e := range schemaEntries(c.Catalog) {
		if e.Type != "table" || (table != "" && !strings.EqualFold(e.Name, table)) {
			continue
		}
		rows, err := OrphanRows(c, e.schema, e.schema.Table(e.Name))
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// OrphanRows lists the rows of t, a table of schema, whose foreign keys
// have no parent in schema, as PRAGMA foreign_key_check prints them.
func OrphanRows(c *Ctx, schema *catalog.Catalog, t *catalog.Table) ([][]types.Value, error) {
	if len(t.ForeignKeys) == 0 {
		return nil, nil
	}
	rows, err := scanRows(c, t)
	if err != nil {
		return nil, err
	}
	var out [][]types.Value
	for _, row := range rows {
		for id, fk := range t.ForeignKeys {
			vals, null := keyValues(row, fk.Cols)
			if null {
				continue
			}
			parent := schema.Table(fk.RefTable)
			ok := false
			if parent != nil {
				cols, err := parentCols(parent, fk)
				if err != nil {
					return nil, err
				}
				if ok, err = parentHas(c, parent, cols, vals); err != nil {
					return nil, err
				}
			}
			if !ok {
				out = append(out, []types.Value{text(t.Name), row[len(row)-1], text(fk.RefTable), intv(len(t.ForeignKeys) - 1 - id)})
			}
		}
	}
	return out, nil
}

// schemaEntry is a catalog entry with the schema holding it.
type schemaEntry struct {
	catalog.Entry
	schema *catalog.Catalog
}

// schemaEntries lists the entries of the temp schema, then main's.
func schemaEntries(cat *catalog.Catalog) []schemaEntry {
	var out []schemaEntry
	for _, s := range []*catalog.Catalog{cat.Temp(), cat.Main()} {
		if s == nil {
			continue
		}
		for _, e := range s.Entries() {
			out = append(out, schemaEntry{Entry: e, schema: s})
		}
	}
	return out
}
