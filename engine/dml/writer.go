package dml

import (
	"fmt"
	"math"
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
)

// A row, in this file, is a table's column values followed by its rowid:
// len(row) == len(t.Columns)+1. The rowid alias column holds the rowid too
// but is stored as NULL in the record, as SQLite does.

// tableWriter maintains one table and its indexes.
type tableWriter struct {
	t       *catalog.Table
	tree    *txn.TxTree
	idx     []*indexWriter
	checks  []evaluator
	checkNm []string
	one     *Batch        // one-row batch over a row, for checks and expression keys
	oneVals []types.Value // the values behind one's columns, cleared at once
	buf     []types.Value // one value: bufArr
	oneB    Batch         // one points here
	bufArr  [1]types.Value
	rec     []byte
	key     []byte
	ridKey  []byte // rowid lookups, apart from key so they never clobber it
	okey    []byte // an UPDATE's old index key, beside the new one in key
	// hasTrig: the table has triggers in catalog trigCat (see hasTriggers).
	trigCat *catalog.Catalog
	hasTrig bool
	// refs are the foreign keys referencing the table, bound with the
	// statement (nil: none).
	refs *plan.Referencing
	// viaAction marks a writer applying a foreign key action to children.
	viaAction bool
	// replaced: a REPLACE deleted a row during the current UPDATE.
	replaced bool
	// uniq: the unique indexes in SQLite's checking order (uniqueOrder).
	uniq []*indexWriter
	// idxOne: some index reads its key or WHERE from one (see
	// loadForIndexes); plain column keys read the row itself.
	idxOne bool
	// defaults: an UPDATE's evaluated column DEFAULTs (nil when it has
	// none to store), for a REPLACE resolution of NOT NULL.
	defaults []types.Value
	nextID   int64 // next automatic rowid, 0 = not computed yet
	recVals  []types.Value
	gens     []evaluator // per column: generation expression, or nil
	setCols  []int       // the columns an UPDATE sets (for UPDATE OF triggers)
	// AUTOINCREMENT state: the sqlite_sequence table and row of this
	// table, the sequence value read, and the largest rowid written.
	seqTable *catalog.Table
	seqTree  *txn.TxTree
	seqRow   []types.Value
	seq      int64
	maxID    int64
}

// indexWriter maintains one index.
type indexWriter struct {
	ix    *catalog.Index
	tree  *txn.TxTree
	cols  []int // key columns when every key is a plain column
	keys  []evaluator
	where evaluator
	desc  []bool
	colls []types.Collation
	names string        // "t.a, t.b" for constraint messages
	kbuf  []types.Value // one value: kbufArr
	kbufA [1]types.Value
}

// newRowWriter compiles the writer of a statement or a foreign key action
// that writes whole rows of t: its CHECKs, index keys, generated columns
// and the foreign keys referencing t.
func (cp *compiler) newRowWriter(t *catalog.Table, checks []plan.Expr, idx []*plan.IndexKeys, gens []plan.Expr, refs *plan.Referencing) (*tableWriter, error) {
	w, err := cp.newTableWriter(t, checks, idx)
	if err != nil {
		return nil, err
	}
	if err := cp.compileGenerated(w, gens); err != nil {
		return nil, err
	}
	w.refs = refs
	return w, nil
}

func (cp *compiler) newTableWriter(t *catalog.Table, checks []plan.Expr, idx []*plan.IndexKeys) (*tableWriter, error) {
	w := newRowWriterState(t)
	if len(checks) > 0 {
		w.checks, w.checkNm = make([]evaluator, 0, len(checks)), make([]string, 0, len(checks))
	}
	if len(idx) > 0 {
		w.idx = make([]*indexWriter, 0, len(idx))
	}
	for i, e := range checks {
		ev, err := cp.compile(e)
		if err != nil {
			return nil, err
		}
		w.checks = append(w.checks, ev)
		name := t.Checks[i].Name
		if name == "" {
			name = t.Checks[i].Expr
		}
		w.checkNm = append(w.checkNm, name)
	}
	for _, ik := range idx {
		iw, err := cp.newIndexWriter(t, ik)
		if err != nil {
			return nil, err
		}
		w.idx = append(w.idx, iw)
		w.idxOne = w.idxOne || iw.cols == nil || iw.where != nil
	}
	return w, nil
}

func (cp *compiler) newIndexWriter(t *catalog.Table, ik *plan.IndexKeys) (*indexWriter, error) {
	iw := &indexWriter{ix: ik.Index}
	iw.kbuf = iw.kbufA[:]
	n := len(ik.Keys)
	iw.desc, iw.colls = make([]bool, 0, n), make([]types.Collation, 0, n)
	iw.cols, iw.keys = make([]int, 0, n), make([]evaluator, 0, n)
	names := make([]string, 0, n)
	plain := true
	for i, k := range ik.Keys {
		ic := ik.Index.Columns[i]
		iw.desc = append(iw.desc, ic.Desc)
		iw.colls = append(iw.colls, collOf(ic.Collate))
		if cr, ok := k.(*plan.ColRef); ok && ic.Col >= 0 {
			iw.cols = append(iw.cols, cr.Idx)
			names = append(names, t.Name+"."+t.Columns[cr.Idx].Name)
		} else {
			plain = false
			names = append(names, "index '"+ik.Index.Name+"'")
		}
		ev, err := cp.compile(k)
		if err != nil {
			return nil, err
		}
		iw.keys = append(iw.keys, ev)
	}
	if !plain {
		iw.cols = nil
		names = []string{"index '" + ik.Index.Name + "'"}
	}
	iw.names = strings.Join(names, ", ")
	if ik.Where != nil {
		ev, err := cp.compile(ik.Where)
		if err != nil {
			return nil, err
		}
		iw.where = ev
	}
	return iw, nil
}

// begin binds the writer to the statement's transaction and forgets the
// previous run's state.
func (w *tableWriter) begin(c *Ctx) {
	w.tree = c.TableTree(w.t)
	for _, iw := range w.idx {
		iw.tree = c.IndexTree(iw.ix)
	}
	w.nextID = 0
	w.seq, w.seqRow, w.maxID = 0, nil, 0
	w.seqTable = nil
	if w.t.Autoincrement {
		// A temp table's sequence row is in temp's sqlite_sequence.
		if w.seqTable = c.Catalog.SchemaOf(w.t).Table("sqlite_sequence"); w.seqTable != nil {
			w.seqTree = c.TableTree(w.seqTable)
		}
	}
}

// end drops what the writer still holds of the run that just ended: the
// last row (in the one-row batch and the buffers) and the statement's
// trees, so an idle program pins neither that row's memory (a chunk of a
// row arena holding many rows) nor the finished transaction.
func (w *tableWriter) end() {
	clearValues(w.oneVals)
	clearValues(w.buf)
	clearValues(w.recVals)
	w.tree, w.seqTree, w.seqRow = nil, nil, nil
	for _, iw := range w.idx {
		iw.tree = nil
		clearValues(iw.kbuf)
	}
}

// clearValues zeroes vals, a statement's few row buffers, so that they pin
// no row's memory. Element stores of these short slices cost less than
// the runtime's clear of a pointer slice (memclrHasPointers and its bulk
// write barrier, several dozen instructions a call), paid by every
// statement of a loop of single-row INSERTs and UPDATEs; the plain index
// loop keeps the compiler from turning it back into that call.
func clearValues(vals []types.Value) {
	for i := 0; i < len(vals); i++ {
		vals[i] = types.Value{}
	}
}

// newRowWriterState returns a writer of t with its one-row batch and
// buffer: one allocation for the writer and its batch and buffer, two for
// the batch's columns and values.
func newRowWriterState(t *catalog.Table) *tableWriter {
	w := &tableWriter{t: t}
	w.buf = w.bufArr[:]
	w.one = &w.oneB
	w.oneVals = initRowBatch(w.one, len(t.Columns)+1)
	return w
}

// initRowBatch makes b a one-row batch of ncol columns and returns the
// values behind them (column i is backing[i:i+1]).
func initRowBatch(b *Batch, ncol int) (backing []types.Value) {
	b.Cols, b.N = make([][]types.Value, ncol), 1
	backing = make([]types.Value, ncol)
	for i := range b.Cols {
		b.Cols[i] = backing[i : i+1 : i+1]
	}
	return backing
}

// load puts row into the one-row batch.
func (w *tableWriter) load(row []types.Value) {
	for c, v := range row {
		w.one.Cols[c][0] = v
	}
}

// loadForIndexes loads row for the index keys about to be computed from
// it, when some index reads the one-row batch (an expression key or a
// partial index's WHERE): keys of plain columns read row itself, so a
// table without such an index skips the copy each written row paid.
func (w *tableWriter) loadForIndexes(row []types.Value) {
	if w.idxOne {
		w.load(row)
	}
}

// indexKey appends the index key of the loaded row (without rowid). It
// reports whether any key value is NULL and whether the row is in the
// index at all (partial indexes).
func (iw *indexWriter) indexKey(c *Ctx, w *tableWriter, row []types.Value, dst []byte) ([]byte, bool, bool, error) {
	if iw.where != nil {
		if err := iw.where(c, w.one, w.buf); err != nil {
			return dst, false, false, err
		}
		if !isTrue(w.buf[0]) {
			return dst, false, false, nil
		}
	}
	hasNull := false
	for k := range iw.keys {
		var v types.Value
		if iw.cols != nil {
			v = row[iw.cols[k]]
		} else {
			if err := iw.keys[k](c, w.one, iw.kbuf); err != nil {
				return dst, false, false, err
			}
			v = iw.kbuf[0]
		}
		hasNull = hasNull || v.IsNull()
		dst = types.AppendKey(dst, v, iw.desc[k], iw.colls[k])
	}
	return dst, hasNull, true, nil
}

// record encodes row as stored: the alias column as NULL.
func (w *tableWriter) record(row []types.Value) []byte {
	n := len(w.t.Columns)
	w.recVals = append(w.recVals[:0], row[:n]...)
	if w.t.RowidCol >= 0 {
		w.recVals[w.t.RowidCol] = types.Null
	}
	w.rec = types.AppendRecord(w.rec[:0], w.recVals)
	return w.rec
}

func (w *tableWriter) rowid(row []types.Value) int64 { return row[len(row)-1].Int() }

// put writes row and its index entries; the caller checked constraints.
// absent says the caller just saw the row's rowid is not in the table (so
// neither are its index entries): the writes then skip the undo lookup.
func (w *tableWriter) put(c *Ctx, row []types.Value, absent bool) error {
	w.loadForIndexes(row)
	rid := w.rowid(row)
	w.key = keycodec.AppendRowid(w.key[:0], rid)
	if err := w.write(w.tree, w.key, w.record(row), absent); err != nil {
		return err
	}
	for _, iw := range w.idx {
		k, _, in, err := iw.indexKey(c, w, row, w.key[:0])
		if err != nil {
			return err
		}
		if !in {
			continue
		}
		w.key = keycodec.AppendRowid(k, rid)
		if err := w.write(iw.tree, w.key, nil, absent); err != nil {
			return err
		}
	}
	return nil
}

// write puts key into tree, through Insert when the key is known absent.
func (w *tableWriter) write(tree *txn.TxTree, key, val []byte, absent bool) error {
	if absent {
		return tree.Insert(key, val)
	}
	return tree.Put(key, val)
}

// parentChange applies the actions of the keys referencing the writer's
// table when its row old is deleted (nrow nil) or updated to nrow.
func (w *tableWriter) parentChange(c *Ctx, old, nrow []types.Value) error {
	return parentChange(c, w.refs, old, nrow)
}

// deleteRow removes row as a DELETE does, foreign keys included: the
// row's own keys stop counting, and once it is gone the children's ON
// DELETE actions run (as in SQLite, a child's triggers see the parent
// deleted). OR REPLACE removes conflicting rows through it too, as SQLite
// does.
func (w *tableWriter) deleteRow(c *Ctx, row []types.Value) error {
	if err := releaseParents(c, w.t, row, nil); err != nil {
		return err
	}
	if w.nextID != 0 && w.rowid(row) == w.nextID-1 && w.seqTable == nil {
		// The largest rowid is gone: as in SQLite, the next automatic one
		// is again one more than the largest left (AUTOINCREMENT never
		// reuses one).
		w.nextID = 0
	}
	if err := w.remove(c, row); err != nil {
		return err
	}
	return w.parentChange(c, row, nil)
}

// getRowid looks up rowid rid in the table without allocating the key.
func (w *tableWriter) getRowid(rid int64) ([]byte, bool, error) {
	w.ridKey = keycodec.AppendRowid(w.ridKey[:0], rid)
	return w.tree.Get(w.ridKey)
}

// remove deletes row and its index entries. The row goes first: the
// statement just read it, so its delete finds the writer's path in place
// (see storage.Tree.Get in a write transaction).
func (w *tableWriter) remove(c *Ctx, row []types.Value) error {
	w.loadForIndexes(row)
	rid := w.rowid(row)
	w.key = keycodec.AppendRowid(w.key[:0], rid)
	if err := w.tree.Delete(w.key); err != nil {
		return err
	}
	for _, iw := range w.idx {
		k, _, in, err := iw.indexKey(c, w, row, w.key[:0])
		if err != nil {
			return err
		}
		if !in {
			continue
		}
		w.key = keycodec.AppendRowid(k, rid)
		if err := iw.tree.Delete(w.key); err != nil {
			return err
		}
	}
	return nil
}

// fetch reads the row with rowid rid (values cloned), or nil.
func (w *tableWriter) fetch(rid int64) ([]types.Value, error) {
	val, ok, err := w.getRowid(rid)
	if err != nil || !ok {
		return nil, err
	}
	var rr types.RecordReader
	if err := rr.Reset(val); err != nil {
		return nil, errs.Wrap(errs.CodeCorrupt, err)
	}
	n := len(w.t.Columns)
	row := make([]types.Value, n+1)
	for i := 0; i < n; i++ {
		row[i] = rr.Column(i).Clone()
	}
	row[n] = types.NewInt(rid)
	if w.t.RowidCol >= 0 {
		row[w.t.RowidCol] = row[n]
	}
	return row, nil
}

// conflict describes a uniqueness violation: the existing row's rowid and
// the constraint it violated (iw nil for the rowid).
type conflict struct {
	rowid int64
	iw    *indexWriter
}

// findConflict returns the first row other than self (math.MinInt64 for
// none) that shares a unique key with row, trying the constraints in
// SQLite's order (see uniqueOrder), so that when a row breaks several the
// same one decides between IGNORE, REPLACE and an error, and is named.
// deferRowid puts the rowid last (see defersRowid).
func (w *tableWriter) findConflict(c *Ctx, row []types.Value, self int64, checkRowid, deferRowid bool) (*conflict, error) {
	if checkRowid && !deferRowid {
		if cf, err := w.rowidConflict(row); cf != nil || err != nil {
			return cf, err
		}
	}
	w.loadForIndexes(row)
	for _, iw := range w.uniqueOrder() {
		k, hasNull, in, err := iw.indexKey(c, w, row, w.key[:0])
		if err != nil {
			return nil, err
		}
		w.key = k
		if hasNull || !in {
			continue
		}
		other, found, err := iw.seekPrefix(k, self)
		if err != nil {
			return nil, err
		}
		if found {
			return &conflict{rowid: other, iw: iw}, nil
		}
	}
	if checkRowid && deferRowid {
		return w.rowidConflict(row)
	}
	return nil, nil
}

// rowidConflict reports the row already holding row's rowid.
func (w *tableWriter) rowidConflict(row []types.Value) (*conflict, error) {
	rid := w.rowid(row)
	_, ok, err := w.getRowid(rid)
	if err != nil || !ok {
		return nil, err
	}
	return &conflict{rowid: rid}, nil
}

// uniqueOrder returns the unique indexes in the order SQLite checks them:
// its table keeps the most recently created index first, with the indexes
// whose constraint says ON CONFLICT REPLACE after all others (REPLACE must
// not delete a row before an ABORT, FAIL or IGNORE elsewhere decides).
func (w *tableWriter) uniqueOrder() []*indexWriter {
	if w.uniq != nil || len(w.idx) == 0 {
		return w.uniq
	}
	uniq := make([]*indexWriter, 0, len(w.idx))
	for _, replace := range [2]bool{false, true} {
		for i := len(w.idx) - 1; i >= 0; i-- {
			if iw := w.idx[i]; iw.ix.Unique && (w.indexConflict(iw) == "REPLACE") == replace {
				uniq = append(uniq, iw)
			}
		}
	}
	w.uniq = uniq
	return w.uniq
}

// indexConflict is the ON CONFLICT clause of the constraint behind index
// iw ("" for none, or for an index of CREATE UNIQUE INDEX).
func (w *tableWriter) indexConflict(iw *indexWriter) string {
	for _, u := range w.t.Uniques {
		if catalog.Lower(u.Index) == catalog.Lower(iw.ix.Name) {
			return u.OnConflict
		}
	}
	return ""
}

// defersRowid reports whether SQLite checks the rowid after the unique
// indexes: when the rowid's own resolution is REPLACE, neither the
// statement nor an upsert clause (rowidUpsert) overrides it and the table
// has indexes, so that an IGNORE or error elsewhere is decided before
// REPLACE deletes anything.
func (w *tableWriter) defersRowid(or plan.Conflict, rowidUpsert bool) bool {
	return or == plan.ConflictDefault && !rowidUpsert && w.t.PKConflict == "REPLACE" && len(w.idx) > 0
}

// seekPrefix finds an entry whose key starts with prefix and whose rowid
// is not self.
func (iw *indexWriter) seekPrefix(prefix []byte, self int64) (int64, bool, error) {
	return exec.SeekIndexPrefix(iw.tree, prefix, self)
}

// conflictError is the constraint error of c.
func (w *tableWriter) conflictError(cf *conflict) *errs.Error {
	if cf.iw == nil {
		name := "rowid"
		if w.t.RowidCol >= 0 {
			name = w.t.Columns[w.t.RowidCol].Name
		}
		return errs.Constraint(errs.ExtConstraintPrimaryKey, "UNIQUE constraint failed: %s.%s", w.t.Name, name)
	}
	ext := errs.ExtConstraintUnique
	for _, u := range w.t.Uniques {
		if u.Primary && catalog.Lower(u.Index) == catalog.Lower(cf.iw.ix.Name) {
			ext = errs.ExtConstraintPrimaryKey
		}
	}
	return errs.Constraint(ext, "UNIQUE constraint failed: %s", cf.iw.names)
}

// generate computes the row's generated columns, in column order.
func (w *tableWriter) generate(c *Ctx, row []types.Value) error {
	for i, ev := range w.gens {
		if ev == nil {
			continue
		}
		w.load(row)
		if err := ev(c, w.one, w.buf); err != nil {
			return err
		}
		row[i] = w.t.Columns[i].Affinity.Apply(w.buf[0]).Clone()
	}
	return nil
}

// compileGenerated compiles the generation expressions.
func (cp *compiler) compileGenerated(w *tableWriter, gens []plan.Expr) error {
	if gens == nil {
		return nil
	}
	w.gens = make([]evaluator, len(gens))
	for i, g := range gens {
		if g == nil {
			continue
		}
		ev, err := cp.compile(g)
		if err != nil {
			return err
		}
		w.gens[i] = ev
	}
	return nil
}

// checkRow enforces NOT NULL and CHECK on row under the statement's
// conflict clause or; skip reports that IGNORE dropped the row. A NOT NULL
// column resolves by or, else by its own ON CONFLICT clause: REPLACE
// stores its default (from defaults, the evaluated DEFAULTs) when it has
// one. A CHECK resolves by or alone, REPLACE counting as ABORT. It
// computes generated columns first.
func (w *tableWriter) checkRow(c *Ctx, row []types.Value, or plan.Conflict, defaults []types.Value) (skip bool, err error) {
	if err := w.generate(c, row); err != nil {
		return false, err
	}
	for i, col := range w.t.Columns {
		if !col.NotNull || !row[i].IsNull() {
			continue
		}
		mode := or
		if mode == plan.ConflictDefault {
			mode = plan.ConflictNamed(col.NotNullConflict)
		}
		if mode == plan.ConflictReplace && defaults != nil && col.Default != "" {
			row[i] = defaults[i]
		}
		if !row[i].IsNull() {
			continue
		}
		if mode == plan.ConflictIgnore {
			return true, nil
		}
		return false, stopAs(mode, errs.Constraint(errs.ExtConstraintNotNull, "NOT NULL constraint failed: %s.%s", w.t.Name, col.Name))
	}
	ignore := or == plan.ConflictIgnore
	if w.t.Strict {
		if err := w.checkStrict(row); err != nil {
			return false, err
		}
	}
	if len(w.checks) == 0 {
		return false, nil
	}
	w.load(row)
	for i, ev := range w.checks {
		if err := ev(c, w.one, w.buf); err != nil {
			return false, err
		}
		if t, ok := truth(w.buf[0]); ok && !t {
			if ignore {
				return true, nil
			}
			return false, errs.Constraint(errs.ExtConstraintCheck, "CHECK constraint failed: %s", w.checkNm[i])
		}
	}
	return false, nil
}

// checkStrict enforces a STRICT table's column types.
func (w *tableWriter) checkStrict(row []types.Value) error {
	for i, col := range w.t.Columns {
		v := row[i]
		if v.IsNull() || i == w.t.RowidCol {
			continue
		}
		ok := true
		switch col.Affinity {
		case types.AffinityInteger:
			ok = v.Kind() == types.KindInt
		case types.AffinityReal:
			ok = v.IsNumber()
		case types.AffinityText:
			ok = v.Kind() == types.KindText
		case types.AffinityBlob:
			ok = col.DeclType == "ANY" || v.Kind() == types.KindBlob
		}
		if !ok {
			return errs.Constraint(3091, "cannot store %s value in %s column %s.%s",
				strings.ToUpper(v.Kind().String()), col.DeclType, w.t.Name, col.Name)
		}
	}
	return nil
}

// newRowid returns the next automatic rowid: one more than the largest.
func (w *tableWriter) newRowid() (int64, error) {
	if w.nextID == 0 {
		cur := w.tree.Cursor()
		last := int64(0)
		if cur.Last() {
			last = keycodec.DecodeRowid(cur.Key())
		}
		err := cur.Err()
		cur.Close()
		if err != nil {
			return 0, err
		}
		if w.seqTable != nil {
			seq, err := w.readSequence()
			if err != nil {
				return 0, err
			}
			last = max(last, seq)
		}
		if last == math.MaxInt64 {
			return 0, errs.New(errs.CodeFull, "database or disk is full")
		}
		w.nextID = last + 1
	}
	id := w.nextID
	w.nextID++
	// sqlite_sequence records every AUTOINCREMENT rowid handed out,
	// written or not (an ignored row's too), as SQLite's does.
	w.noteWritten(id)
	return id, nil
}

// noteRowid keeps the automatic rowid ahead of an explicit one.
func (w *tableWriter) noteRowid(rid int64) {
	if w.nextID != 0 && rid >= w.nextID && rid < math.MaxInt64 {
		w.nextID = rid + 1
	}
}

// BuildIndex fills a new index from the table's rows, enforcing
// uniqueness.
func BuildIndex(c *Ctx, t *catalog.Table, ik *plan.IndexKeys) error {
	return eachIndexEntry(c, t, ik, func(iw *indexWriter, key []byte, hasNull bool, rid int64) error {
		if ik.Index.Unique && !hasNull {
			if _, dup, err := iw.seekPrefix(key, rid); err != nil {
				return err
			} else if dup {
				return errs.Constraint(errs.ExtConstraintUnique, "UNIQUE constraint failed: %s", iw.names)
			}
		}
		return iw.tree.Put(keycodec.AppendRowid(key, rid), nil)
	})
}

// CheckIndexRows reports, as SQLite's integrity_check words it, each row
// of t whose entry (its key as computed now, then its rowid) is missing
// from index ik, and the number of rows that belong in the index. With the
// index's own entry count equal to that number, the index holds exactly
// the entries its rows call for.
func CheckIndexRows(c *Ctx, t *catalog.Table, ik *plan.IndexKeys, limit int) (problems []string, rows int64, err error) {
	err = eachIndexEntry(c, t, ik, func(iw *indexWriter, key []byte, _ bool, rid int64) error {
		rows++
		if len(problems) >= limit {
			return nil
		}
		_, ok, err := iw.tree.Get(keycodec.AppendRowid(key, rid))
		if err != nil {
			return err
		}
		if !ok {
			problems = append(problems, fmt.Sprintf("row %d missing from index %s", rid, ik.Index.Name))
		}
		return nil
	})
	return problems, rows, err
}

// eachIndexEntry calls fn with the index key (without the rowid) of every
// row of t that belongs in index ik.
func eachIndexEntry(c *Ctx, t *catalog.Table, ik *plan.IndexKeys, fn func(iw *indexWriter, key []byte, hasNull bool, rid int64) error) error {
	b := newBuilder()
	w, err := b.cp.newTableWriter(t, nil, []*plan.IndexKeys{ik})
	if err != nil {
		return err
	}
	w.begin(c)
	defer w.end()
	op, err := b.build(plan.NewScan(t, t.Name))
	if err != nil {
		return err
	}
	defer op.Close()
	iw := w.idx[0]
	row := make([]types.Value, len(t.Columns)+1)
	for {
		bt, err := op.Next(c)
		if err != nil || bt == nil {
			return err
		}
		for k, n := 0, bt.Len(); k < n; k++ {
			if err := c.Check(); err != nil {
				return err
			}
			bt.Row(k, row)
			w.load(row)
			key, hasNull, in, err := iw.indexKey(c, w, row, w.key[:0])
			if err != nil {
				return err
			}
			w.key = key
			if !in {
				continue
			}
			if err := fn(iw, key, hasNull, w.rowid(row)); err != nil {
				return err
			}
		}
	}
}

// conflictMode is the resolution for conflict cf: the statement's OR
// clause, else the violated constraint's own ON CONFLICT clause.
func (w *tableWriter) conflictMode(or plan.Conflict, cf *conflict) plan.Conflict {
	if or != plan.ConflictDefault {
		return or
	}
	name := w.t.PKConflict
	if cf.iw != nil {
		name = w.indexConflict(cf.iw)
	}
	return plan.ConflictNamed(name)
}

// stopAs marks constraint error err with the resolution that stops the
// statement, when a constraint's own clause says FAIL (keep the rows
// written before) or ROLLBACK (end the transaction): the statement's OR
// clause, which the engine reads otherwise, may name neither.
func stopAs(mode plan.Conflict, err *errs.Error) error {
	switch mode {
	case plan.ConflictFail:
		return &RaiseFail{Err: err}
	case plan.ConflictRollback:
		return &RaiseRollback{Err: err}
	}
	return err
}

// mayReplace reports whether a uniqueness conflict of a statement with
// resolution or can be resolved by REPLACE (the statement's OR clause or a
// constraint's own ON CONFLICT REPLACE).
func (w *tableWriter) mayReplace(or plan.Conflict) bool {
	if or != plan.ConflictDefault {
		return or == plan.ConflictReplace
	}
	if w.t.PKConflict == "REPLACE" {
		return true
	}
	for _, u := range w.t.Uniques {
		if u.OnConflict == "REPLACE" {
			return true
		}
	}
	return false
}

// readSequence reads this table's sqlite_sequence value (0 when none).
func (w *tableWriter) readSequence() (int64, error) {
	cur := w.seqTree.Cursor()
	defer cur.Close()
	var rr types.RecordReader
	for ok := cur.First(); ok; ok = cur.Next() {
		val, err := cur.Value()
		if err != nil {
			return 0, err
		}
		if err := rr.Reset(val); err != nil {
			return 0, errs.Wrap(errs.CodeCorrupt, err)
		}
		if strings.EqualFold(rr.Column(0).Text(), w.t.Name) {
			w.seq = rr.Column(1).AsInt()
			w.seqRow = []types.Value{types.NewText(w.t.Name), types.NewInt(w.seq), types.NewInt(keycodec.DecodeRowid(cur.Key()))}
			return w.seq, nil
		}
	}
	return 0, cur.Err()
}

// noteWritten tracks the largest rowid written for AUTOINCREMENT.
func (w *tableWriter) noteWritten(rid int64) {
	if w.seqTable != nil && rid > w.maxID {
		w.maxID = rid
	}
}

// saveSequence records the largest rowid used in sqlite_sequence.
func (w *tableWriter) saveSequence(c *Ctx) error {
	if w.seqTable == nil || w.maxID == 0 {
		return nil
	}
	if w.seqRow == nil && w.seq == 0 {
		if _, err := w.readSequence(); err != nil {
			return err
		}
	}
	if w.maxID <= w.seq {
		return nil
	}
	sw := &tableWriter{t: w.seqTable}
	sw.begin(c)
	if w.seqRow != nil {
		return sw.tree.Put(keycodec.RowidKey(w.seqRow[2].Int()), sw.record([]types.Value{types.NewText(w.t.Name), types.NewInt(w.maxID), types.Null}))
	}
	rid, err := sw.newRowid()
	if err != nil {
		return err
	}
	return sw.tree.Put(keycodec.RowidKey(rid), sw.record([]types.Value{types.NewText(w.t.Name), types.NewInt(w.maxID), types.Null}))
}
