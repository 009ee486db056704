package engine

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
)

// statTable holds ANALYZE's statistics in SQLite's layout: one row per
// index (tbl, idx, "entries avg1 avg2 …") and one per table without an
// index (tbl, NULL, "rows"); an empty table gets none.
const statTable = "sqlite_stat1"

// analyze runs ANALYZE: it measures every table (or the one named, or the
// one index named), replaces their sqlite_stat1 rows, and publishes a
// catalog snapshot carrying the numbers, so the change commits or rolls
// back with the transaction and plans made after it see it. TEMP tables
// are measured into temp.sqlite_stat1.
func (s *Session) analyze(c *exec.Ctx, p *plan.Analyze) error {
	if p.Name != "" {
		temp := p.Schema == "temp" || p.Schema == "" && inTemp(c.Catalog, p.Name)
		return s.analyzeSchema(c, temp, p.Name)
	}
	if p.Schema != "temp" {
		if err := s.analyzeSchema(c, false, ""); err != nil {
			return err
		}
	}
	if p.Schema != "main" && c.Catalog.Temp() != nil {
		return s.analyzeSchema(c, true, "")
	}
	return nil
}

// analyzeSchema runs ANALYZE [name] in the main or the temp schema.
func (s *Session) analyzeSchema(c *exec.Ctx, temp bool, name string) error {
	base := c.Catalog.Main()
	if temp {
		if base = c.Catalog.Temp(); base == nil {
			return errs.New(errs.CodeGeneric, "no such table: %s", name)
		}
	}
	cat := base.Clone()
	cat.Version = base.Version + 1
	tables, only, err := analyzeTargets(cat, name)
	if err != nil {
		return err
	}
	return s.measure(c, cat, tables, only, s.analysisLimit)
}

// measure replaces the statistics of tables (of index only, when set) in
// cat, a clone of the main or the temp catalog, and publishes cat. limit
// > 0 bounds the entries read per index (PRAGMA analysis_limit).
func (s *Session) measure(c *exec.Ctx, cat *catalog.Catalog, tables []*catalog.Table, only *catalog.Index, limit int64) error {
	var err error
	temp := cat.IsTemp()
	tx := c.TxOf(temp)
	st := cat.Table(statTable)
	if st == nil {
		if st, err = createSystemTable(c, cat, "CREATE TABLE sqlite_stat1(tbl,idx,stat)"); err != nil {
			return err
		}
	}
	w := &statWriter{tree: tx.Tree(st.Root)}
	for _, t := range tables {
		if err := w.remove(t.Name, only); err != nil {
			return err
		}
		if err := analyzeTable(tx, cat, t, only, w, limit); err != nil {
			return err
		}
	}
	if err := saveCatalog(tx, cat); err != nil {
		return err
	}
	if temp {
		s.txTempCat = cat
	} else {
		s.txCat = cat
	}
	return nil
}

// inTemp reports whether name resolves to a TEMP table or index.
func inTemp(cat *catalog.Catalog, name string) bool {
	if t := cat.Table(name); t != nil {
		return t.Temp
	}
	ix := cat.Index(name)
	return ix != nil && ix.Temp
}

// analyzeTargets resolves ANALYZE's name: every ordinary table, the table
// named, or the table of the index named (only = that index).
func analyzeTargets(cat *catalog.Catalog, name string) ([]*catalog.Table, *catalog.Index, error) {
	if name == "" {
		var out []*catalog.Table
		for _, e := range cat.Entries() {
			if t := cat.Table(e.Name); e.Type == "table" && t != nil && !plan.IsSystemName(t.Name) {
				out = append(out, t)
			}
		}
		return out, nil, nil
	}
	if t := cat.Table(name); t != nil && !t.Virtual {
		if plan.IsSystemName(t.Name) {
			return nil, nil, nil
		}
		return []*catalog.Table{t}, nil, nil
	}
	if ix := cat.Index(name); ix != nil {
		return []*catalog.Table{cat.Table(ix.Table)}, ix, nil
	}
	return nil, nil, errs.New(errs.CodeGeneric, "no such table: %s", name)
}

// analyzeTable measures t's indexes (only one when only is set), reading
// at most about limit entries of each when limit > 0, and records the rows
// and the catalog statistics.
func analyzeTable(tx *txn.Tx, cat *catalog.Catalog, t *catalog.Table, only *catalog.Index, w *statWriter, limit int64) error {
	rows, err := tx.Tree(t.Root).Count()
	if err != nil {
		return err
	}
	nt := *t
	nt.Stat = nil
	if rows > 0 {
		nt.Stat = &catalog.TableStat{Rows: rows}
	}
	cat.PutTable(&nt)
	indexes := cat.IndexesOf(t)
	if len(indexes) == 0 && rows > 0 {
		if err := w.add(t.Name, types.Null, strconv.FormatInt(rows, 10)); err != nil {
			return err
		}
	}
	for _, ix := range indexes {
		if only != nil && !strings.EqualFold(ix.Name, only.Name) {
			continue
		}
		stat, err := indexStat(tx, ix, limit)
		if err != nil {
			return err
		}
		nix := *ix
		nix.Stat = nil
		if stat[0] > 0 {
			nix.Stat = stat
			if err := w.add(t.Name, types.NewText(ix.Name), formatStat(stat)); err != nil {
				return err
			}
		}
		cat.PutIndex(&nix)
	}
	return nil
}

// indexStat walks an index once, counting for each key prefix length the
// distinct prefixes (byte-equal encoded prefixes: equal under the index's
// collations, NULLs equal, as SQLite's ANALYZE counts), and returns
// sqlite_stat1's numbers: entries, then per prefix the average entries
// per distinct value, rounded up (but 1, not 2, when the prefixes are
// nearly all distinct: at most 1.1 entries each, as SQLite rounds).
//
// With limit > 0 it samples as SQLite's analysis_limit does: once more
// than limit × (skips + 1) entries are read, it stops if the first column
// has changed since the start, else seeks past the current first-column
// value and steps once more (SQLite's OP_SeekGT then OP_Next, which skips
// the first entry of the next value) and reads on. The averages are then
// over the entries read, the entry count the index's full one.
func indexStat(tx *txn.Tx, ix *catalog.Index, limit int64) ([]int64, error) {
	ncol := len(ix.Columns)
	distinct := make([]int64, ncol)
	var prev []byte
	prevEnds := make([]int, ncol)
	ends := make([]int, ncol)
	var n, skips int64
	cur := tx.Tree(ix.Root).Cursor()
	defer cur.Close()
	ok := cur.First()
	for ok {
		k := cur.Key()
		if err := keyEnds(k, ix, ends); err != nil {
			return nil, err
		}
		d := 0
		if n > 0 {
			for d < ncol && ends[d] == prevEnds[d] && bytes.Equal(k[:ends[d]], prev[:prevEnds[d]]) {
				d++
			}
		}
		for i := d; i < ncol; i++ {
			distinct[i]++
		}
		prev = append(prev[:0], k...)
		copy(prevEnds, ends)
		n++
		if limit > 0 && n > limit*(skips+1) {
			skips++
			if distinct[0] > 1 {
				break
			}
			if ok = cur.Seek(append(append([]byte{}, k[:ends[0]]...), 0xFF)); ok {
				ok = cur.Next()
			}
			continue
		}
		ok = cur.Next()
	}
	if err := cur.Err(); err != nil {
		return nil, err
	}
	entries := n
	if skips > 0 {
		count, err := tx.Tree(ix.Root).Count()
		if err != nil {
			return nil, err
		}
		entries = count
	}
	stat := []int64{entries}
	for _, dv := range distinct {
		dv = max(dv, 1)
		avg := (n + dv - 1) / dv
		if avg == 2 && n*10 <= dv*11 {
			avg = 1
		}
		stat = append(stat, avg)
	}
	return stat, nil
}

// keyEnds stores in ends the offset where each key column's encoding ends.
func keyEnds(k []byte, ix *catalog.Index, ends []int) error {
	rest := k
	for i, ic := range ix.Columns {
		_, r, err := types.DecodeKey(rest, ic.Desc)
		if err != nil {
			return errs.Wrap(errs.CodeCorrupt, err)
		}
		rest = r
		ends[i] = len(k) - len(rest)
	}
	return nil
}

func formatStat(stat []int64) string {
	parts := make([]string, len(stat))
	for i, v := range stat {
		parts[i] = strconv.FormatInt(v, 10)
	}
	return strings.Join(parts, " ")
}

// statWriter edits sqlite_stat1's rows directly in its tree.
type statWriter struct {
	tree *txn.TxTree
	rec  []byte
}

// remove deletes the rows of table (only index only's, when set).
func (w *statWriter) remove(table string, only *catalog.Index) error {
	return deleteSystemRows(w.tree, func(tbl, idx types.Value) bool {
		return strings.EqualFold(tbl.Text(), table) && (only == nil || strings.EqualFold(idx.Text(), only.Name))
	})
}

// deleteSystemRows deletes the rows of a system table (sqlite_stat1,
// sqlite_sequence) whose first two columns match.
func deleteSystemRows(tree *txn.TxTree, match func(c0, c1 types.Value) bool) error {
	var dead [][]byte
	err := eachStatRow(tree, func(key []byte, c0, c1 types.Value, _ string) {
		if match(c0, c1) {
			dead = append(dead, append([]byte{}, key...))
		}
	})
	if err != nil {
		return err
	}
	for _, k := range dead {
		if err := tree.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// add appends the row (tbl, idx, stat) with the next rowid.
func (w *statWriter) add(tbl string, idx types.Value, stat string) error {
	next := int64(1)
	cur := w.tree.Cursor()
	if cur.Last() {
		next = keycodec.DecodeRowid(cur.Key()) + 1
	}
	err := cur.Err()
	cur.Close()
	if err != nil {
		return err
	}
	w.rec = types.AppendRecord(w.rec[:0], []types.Value{types.NewText(tbl), idx, types.NewText(stat)})
	return w.tree.Put(keycodec.RowidKey(next), w.rec)
}

// eachStatRow calls fn with every sqlite_stat1 row's key and columns (of
// any system table's row: the columns it lacks are NULL).
func eachStatRow(tree *txn.TxTree, fn func(key []byte, tbl, idx types.Value, stat string)) error {
	cur := tree.Cursor()
	defer cur.Close()
	row := make([][]types.Value, 3)
	for i := range row {
		row[i] = make([]types.Value, 1)
	}
	for ok := cur.First(); ok; ok = cur.Next() {
		v, err := cur.Value()
		if err != nil {
			return err
		}
		for i := range row {
			row[i][0] = types.Null
		}
		if err := types.DecodeRow(v, nil, row, 0); err != nil {
			return errs.Wrap(errs.CodeCorrupt, err)
		}
		fn(cur.Key(), row[0][0], row[1][0], row[2][0].Text())
	}
	return cur.Err()
}

// loadStats attaches sqlite_stat1's numbers to the tables and indexes of
// a catalog being loaded. Malformed rows are ignored, as SQLite does.
func loadStats(tx *txn.Tx, cat *catalog.Catalog) error {
	st := cat.Table(statTable)
	if st == nil {
		return nil
	}
	return eachStatRow(tx.Tree(st.Root), func(_ []byte, tbl, idx types.Value, stat string) {
		nums := parseStat(stat)
		t := cat.Table(tbl.Text())
		if len(nums) == 0 || t == nil || tbl.IsNull() {
			return
		}
		if rows := nums[0]; t.Stat == nil || rows > t.Stat.Rows {
			nt := *t
			nt.Stat = &catalog.TableStat{Rows: rows}
			cat.PutTable(&nt)
		}
		if ix := cat.Index(idx.Text()); !idx.IsNull() && ix != nil && strings.EqualFold(ix.Table, t.Name) {
			nix := *ix
			nix.Stat = nums
			cat.PutIndex(&nix)
		}
	})
}

// parseStat reads the leading integers of a stat string (SQLite appends
// words such as "unordered" after them).
func parseStat(s string) []int64 {
	var out []int64
	for _, f := range strings.Fields(s) {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil || v < 0 {
			break
		}
		out = append(out, v)
	}
	return out
}

// clearStats drops every table's and index's statistics (sqlite_stat1
// was dropped).
func clearStats(cat *catalog.Catalog) {
	for _, e := range cat.Entries() {
		if t := cat.Table(e.Name); e.Type == "table" && t != nil && t.Stat != nil {
			nt := *t
			nt.Stat = nil
			cat.PutTable(&nt)
		}
		if ix := cat.Index(e.Name); e.Type == "index" && ix != nil && ix.Stat != nil {
			nix := *ix
			nix.Stat = nil
			cat.PutIndex(&nix)
		}
	}
}

// dropStats deletes the sqlite_stat1 rows of a table being dropped (of
// one index, when only is set), as SQLite's DROP does.
func dropStats(c *exec.Ctx, cat *catalog.Catalog, table string, only *catalog.Index) error {
	st := cat.Table(statTable)
	if st == nil {
		return nil
	}
	w := &statWriter{tree: c.TxOf(cat.IsTemp()).Tree(st.Root)}
	return w.remove(table, only)
}

// optimizeLimitDefault is the analysis limit PRAGMA optimize's ANALYZE
// uses (SQLITE_DEFAULT_OPTIMIZE_LIMIT).
const optimizeLimitDefault = 2000

// optimizeLimit is the analysis limit of PRAGMA optimize with mask: as
// SQLite, with mask bit 0x10 the session's limit when it is set below
// optimizeLimitDefault, else optimizeLimitDefault; without it the
// session's limit.
func optimizeLimit(mask, session int64) int64 {
	if mask&0x10 == 0 || (session > 0 && session < optimizeLimitDefault) {
		return session
	}
	return optimizeLimitDefault
}
