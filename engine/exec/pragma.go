package exec

import (
	"math"
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// Introspection pragmas, shared by PRAGMA statements and the table-valued
// pragma_*() functions. Each returns its rows for the catalog of c.

func text(s string) types.Value { return types.NewText(s) }

func intv(i int) types.Value { return types.NewInt(int64(i)) }

func boolv(b bool) types.Value { return types.NewBool(b) }

func nullOrText(s string) types.Value {
	if s == "" {
		return types.Null
	}
	return types.NewText(s)
}

// IntrospectionRows returns the rows of pragma name (without "pragma_")
// for argument arg; ok is false for a pragma it does not know.
func IntrospectionRows(cat *catalog.Catalog, name, arg string) (rows [][]types.Value, ok bool, err error) {
	switch name {
	case "table_info", "table_xinfo":
		rows, err := tableInfo(cat, arg, name == "table_xinfo")
		return rows, true, err
	case "index_list":
		return indexList(cat, arg), true, nil
	case "index_info", "index_xinfo":
		return indexInfo(cat, arg, name == "index_xinfo"), true, nil
	case "foreign_key_list":
		return foreignKeyList(cat, arg), true, nil
	case "database_list":
		rows := [][]types.Value{{intv(0), text("main"), text("")}}
		if cat.Temp() != nil {
			// As in SQLite, temp is listed once the session opened it.
			rows = append(rows, []types.Value{intv(1), text("temp"), text("")})
		}
		return rows, true, nil
	}
	return nil, false, nil
}

func tableInfo(cat *catalog.Catalog, name string, x bool) ([][]types.Value, error) {
	t := cat.Table(name)
	if t == nil {
		t = plan.VirtualTable(name)
	}
	if v := cat.View(name); t == nil && v != nil {
		// A view lists its result columns, typed as their sources are; one
		// that no longer binds is an error, as in SQLite.
		vt, err := plan.NewBinder(cat, nil).ViewTable(v)
		if err != nil {
			return nil, err
		}
		t = viewColumnTypes(vt)
	}
	if t == nil {
		return nil, nil
	}
	var rows [][]types.Value
	for i, c := range t.Columns {
		// table_info omits generated columns and numbers the rest
		// densely, as SQLite does; table_xinfo lists every column.
		if !x && c.Generated != "" {
			continue
		}
		pk := 0
		for k, p := range t.PK {
			if p == i {
				pk = k + 1
			}
		}
		row := []types.Value{intv(len(rows)), text(c.Name), text(c.DeclType), boolv(c.NotNull), nullOrText(c.Default), intv(pk)}
		if x {
			row = append(row, intv(hiddenKind(c)))
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// viewColumnTypes returns view table t with the column types SQLite's
// table_info reports for a view: the source's declared type when it gives
// the column's affinity, else the standard type of that affinity ("NUM"
// for NUMERIC), else none.
func viewColumnTypes(t *catalog.Table) *catalog.Table {
	out := *t
	out.Columns = append([]catalog.Column(nil), t.Columns...)
	for i, c := range out.Columns {
		if c.DeclType != "" && types.AffinityOf(c.DeclType) == c.Affinity {
			continue
		}
		out.Columns[i].DeclType = map[types.Affinity]string{types.AffinityBlob: "BLOB", types.AffinityText: "TEXT",
			types.AffinityNumeric: "NUM", types.AffinityInteger: "INT", types.AffinityReal: "REAL"}[c.Affinity]
	}
	return &out
}

// hiddenKind is table_xinfo's hidden column: 1 for a hidden column of a
// virtual table, 2 for a VIRTUAL generated column, 3 for a STORED one.
func hiddenKind(c catalog.Column) int {
	switch {
	case c.Generated != "" && c.Stored:
		return 3
	case c.Generated != "":
		return 2
	case c.Hidden:
		return 1
	}
	return 0
}

func indexList(cat *catalog.Catalog, table string) [][]types.Value {
	t := cat.Table(table)
	if t == nil {
		return nil
	}
	ixs := cat.TableIndexes(t.Name)
	var rows [][]types.Value
	for i := len(ixs) - 1; i >= 0; i-- {
		ix := ixs[i]
		origin := "c"
		if ix.Auto {
			origin = "u"
			if isPrimaryIndex(t, ix) {
				origin = "pk"
			}
		}
		rows = append(rows, []types.Value{intv(len(rows)), text(ix.Name), boolv(ix.Unique), text(origin), boolv(ix.Where != "")})
	}
	return rows
}

func indexInfo(cat *catalog.Catalog, name string, x bool) [][]types.Value {
	ix := cat.Index(name)
	if ix == nil {
		return nil
	}
	t := cat.Table(ix.Table)
	var rows [][]types.Value
	for i, c := range ix.Columns {
		colName := types.Null
		if c.Col >= 0 && t != nil {
			colName = text(t.Columns[c.Col].Name)
		}
		cid := c.Col
		if c.Col < 0 {
			cid = -2
		}
		row := []types.Value{intv(i), intv(cid), colName}
		if x {
			coll := c.Collate
			if coll == "" {
				coll = "BINARY"
			}
			row = append(row, boolv(c.Desc), text(coll), intv(1))
		}
		rows = append(rows, row)
	}
	if !x || t == nil {
		return rows
	}
	for _, c := range auxColumns(t, ix) {
		row := []types.Value{intv(len(rows)), intv(c), types.Null, intv(0), text("BINARY"), intv(0)}
		if c >= 0 {
			row[2] = text(t.Columns[c].Name)
			if coll := t.Columns[c].Collate; coll != "" {
				row[4] = text(coll)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// auxColumns lists the table columns an entry of index ix carries after
// its key, as index_xinfo reports them: the rowid (-1) for a rowid table;
// for a WITHOUT ROWID table, the primary key columns the key lacks, or,
// for the primary key's own index, the other columns.
func auxColumns(t *catalog.Table, ix *catalog.Index) []int {
	if !t.WithoutRowid {
		return []int{-1}
	}
	in := map[int]bool{}
	for _, c := range ix.Columns {
		in[c.Col] = true
	}
	want := t.PK
	if isPrimaryIndex(t, ix) {
		want = make([]int, len(t.Columns))
		for i := range want {
			want[i] = i
		}
	}
	var out []int
	for _, c := range want {
		if !in[c] {
			out = append(out, c)
		}
	}
	return out
}

// isPrimaryIndex reports whether ix is the index of t's PRIMARY KEY.
func isPrimaryIndex(t *catalog.Table, ix *catalog.Index) bool {
	for _, u := range t.Uniques {
		if u.Primary && strings.EqualFold(u.Index, ix.Name) {
			return ix.Auto
		}
	}
	return false
}

func foreignKeyList(cat *catalog.Catalog, table string) [][]types.Value {
	t := cat.Table(table)
	if t == nil {
		return nil
	}
	var rows [][]types.Value
	for id, fk := range t.ForeignKeys {
		for seq, c := range fk.Cols {
			to := types.Null
			if seq < len(fk.RefCols) {
				to = text(fk.RefCols[seq])
			}
			rows = append(rows, []types.Value{intv(id), intv(seq), text(fk.RefTable), text(t.Columns[c].Name),
				to, text(fk.OnUpdate), text(fk.OnDelete), text("NONE")})
		}
	}
	return rows
}

// heldOp emits rows held in memory.
type heldOp struct {
	rows [][]types.Value
	out  *Batch
	pos  int
}

func (h *heldOp) Next(c *Ctx) (*Batch, error) {
	if h.pos >= len(h.rows) {
		return nil, nil
	}
	b := h.out
	b.Reset()
	b.reserve(min(len(h.rows)-h.pos, BatchSize))
	for h.pos < len(h.rows) && b.N < BatchSize {
		for col := range b.Cols {
			if col < len(h.rows[h.pos]) {
				b.Cols[col][b.N] = h.rows[h.pos][col]
			} else {
				b.Cols[col][b.N] = types.Null
			}
		}
		b.N++
		h.pos++
	}
	return b, nil
}

func (h *heldOp) Close() { h.pos = 0 }

// tableFuncOp evaluates a table-valued function's arguments at its first
// pull and emits the rows.
type tableFuncOp struct {
	n      *plan.TableFunc
	args   []evaluator
	held   *heldOp
	series *series // generate_series streams instead of holding rows
}

// series is the state of a streaming generate_series: the next value, the
// bound and the step; done once the bound is passed.
type series struct {
	cur, stop, step int64
	done            bool
}

// next fills b with the following values, polling the context per batch.
func (s *series) next(c *Ctx, b *Batch) (*Batch, error) {
	if s.done {
		return nil, nil
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	b.Reset()
	for b.N < BatchSize && !s.done {
		b.ensureRow()
		b.Cols[0][b.N] = types.NewInt(s.cur)
		for col := 1; col < len(b.Cols); col++ {
			b.Cols[col][b.N] = types.Null
		}
		b.N++
		if s.step > 0 && (s.cur > math.MaxInt64-s.step || s.cur+s.step > s.stop) ||
			s.step < 0 && (s.cur < math.MinInt64-s.step || s.cur+s.step < s.stop) {
			s.done = true // the next value would pass the bound (or overflow)
		} else {
			s.cur += s.step
		}
	}
	return b, nil
}

func (b *builder) tableFunc(n *plan.TableFunc) (Operator, error) {
	op := &tableFuncOp{n: n, held: &heldOp{out: emptyBatch(len(n.Cols))}}
	for _, a := range n.Args {
		ev, err := b.cp.compile(a)
		if err != nil {
			return nil, err
		}
		op.args = append(op.args, ev)
	}
	return op, nil
}

func (t *tableFuncOp) Next(c *Ctx) (*Batch, error) {
	if t.series != nil {
		return t.series.next(c, t.held.out)
	}
	if t.held.rows == nil {
		vals := make([]types.Value, len(t.args))
		for i, a := range t.args {
			v, err := evalOne(c, a)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		if t.n.Name == "generate_series" && len(t.held.out.Cols) > 0 {
			start, stop, step, err := seriesBounds(vals)
			if err != nil {
				return nil, err
			}
			t.series = &series{cur: start, stop: stop, step: step, done: step > 0 && start > stop || step < 0 && start < stop}
			return t.series.next(c, t.held.out)
		}
		rows, err := tableFuncRows(c, t.n.Name, vals)
		if err != nil {
			return nil, err
		}
		if rows == nil {
			rows = [][]types.Value{}
		}
		t.held.rows = rows
	}
	return t.held.Next(c)
}

func (t *tableFuncOp) Close() { t.held.rows, t.held.pos, t.series = nil, 0, nil }

func tableFuncRows(c *Ctx, name string, args []types.Value) ([][]types.Value, error) {
	if strings.HasPrefix(name, "pragma_") {
		arg := ""
		if len(args) > 0 {
			arg = args[0].Text()
		}
		if name == "pragma_foreign_key_check" {
			return ForeignKeyCheckRows(c, arg)
		}
		cat := c.Catalog
		if len(args) > 1 && !args[1].IsNull() {
			// The second argument is the schema, as in SQLite.
			if cat = SchemaCatalog(c.Catalog, args[1].Text()); cat == nil {
				return nil, errs.New(errs.CodeGeneric, "unknown database %s", args[1].Text())
			}
		}
		rows, ok, err := IntrospectionRows(cat, strings.TrimPrefix(name, "pragma_"), arg)
		if !ok && err == nil && c.Setting != nil {
			if v, known := c.Setting(strings.TrimPrefix(name, "pragma_")); known {
				return [][]types.Value{{v}}, nil
			}
		}
		if !ok && err == nil {
			err = notSupportedErr("table-valued function " + name)
		}
		return rows, err
	}
	if name == "generate_series" {
		return generateSeries(args)
	}
	if name == "json_each" || name == "json_tree" {
		return jsonRows(name == "json_tree", args)
	}
	if strings.HasPrefix(name, "information_schema.") {
		return informationSchema(c.Catalog, strings.TrimPrefix(name, "information_schema.")), nil
	}
	return nil, notSupportedErr("table-valued function " + name)
}

// generateSeries holds the rows of generate_series for a lateral call;
// the table function itself streams (series).
func generateSeries(args []types.Value) ([][]types.Value, error) {
	start, stop, step, err := seriesBounds(args)
	if err != nil {
		return nil, err
	}
	var rows [][]types.Value
	for v := start; (step > 0 && v <= stop) || (step < 0 && v >= stop); v += step {
		rows = append(rows, []types.Value{types.NewInt(v)})
		if len(rows) > 10_000_000 {
			return nil, errs.New(errs.CodeTooBig, "generate_series produces too many rows")
		}
		if step > 0 && v > math.MaxInt64-step || step < 0 && v < math.MinInt64-step {
			break // the next value would pass the int64 range
		}
	}
	return rows, nil
}

// seriesBounds reads generate_series' start, stop (default 2^62) and step
// (default 1; 0 means 1).
func seriesBounds(args []types.Value) (start, stop, step int64, err error) {
	if len(args) < 1 || len(args) > 3 {
		return 0, 0, 0, errs.New(errs.CodeGeneric, "generate_series needs 1 to 3 arguments")
	}
	start, stop, step = args[0].AsInt(), int64(1<<62), int64(1)
	if len(args) > 1 {
		stop = args[1].AsInt()
	}
	if len(args) > 2 {
		step = args[2].AsInt()
	}
	if step == 0 {
		step = 1
	}
	return start, stop, step, nil
}

// masterOp scans sqlite_master: the catalog's entries, then the hidden
// rowid column.
type masterOp struct {
	held *heldOp
	temp bool // sqlite_temp_master: the temp schema's entries
}

func (b *builder) newMasterScan(n *plan.Scan) (Operator, error) {
	return &masterOp{held: &heldOp{out: emptyBatch(len(n.Cols))}, temp: n.Table == plan.TempMasterTable}, nil
}

func (m *masterOp) Next(c *Ctx) (*Batch, error) {
	if m.held.rows == nil {
		m.held.rows = [][]types.Value{}
		var entries []catalog.Entry
		if !m.temp {
			entries = c.Catalog.Main().Entries()
		} else if t := c.Catalog.Temp(); t != nil {
			entries = t.Entries()
		}
		for i, e := range entries {
			sql := nullOrText(e.SQL)
			m.held.rows = append(m.held.rows, []types.Value{text(e.Type), text(e.Name), text(e.TblName),
				types.NewInt(int64(e.Root)), sql, types.NewInt(int64(i + 1))})
		}
	}
	return m.held.Next(c)
}

func (m *masterOp) Close() { m.held.rows, m.held.pos = nil, 0 }

// informationSchema lists tables and views, or their columns, in the
// shape of the SQL standard's information_schema views.
func informationSchema(cat *catalog.Catalog, view string) [][]types.Value {
	var rows [][]types.Value
	for _, e := range cat.Entries() {
		if e.Type != "table" && e.Type != "view" {
			continue
		}
		if view == "tables" {
			kind := "BASE TABLE"
			if e.Type == "view" {
				kind = "VIEW"
			}
			rows = append(rows, []types.Value{text("main"), text("main"), text(e.Name), text(kind)})
			continue
		}
		t := cat.Table(e.Name)
		if t == nil {
			continue
		}
		for i, c := range t.Columns {
			nullable := "YES"
			if c.NotNull || i == t.RowidCol {
				nullable = "NO"
			}
			rows = append(rows, []types.Value{text("main"), text("main"), text(t.Name), text(c.Name),
				intv(i + 1), nullOrText(c.Default), text(nullable), text(c.DeclType)})
		}
	}
	return rows
}

func jsonRows(tree bool, args []types.Value) ([][]types.Value, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, errs.New(errs.CodeGeneric, "wrong number of arguments to json_each")
	}
	path := types.Null
	if len(args) == 2 {
		path = args[1]
	}
	rows, err := funcs.JSONEach(args[0], path, tree)
	if err != nil {
		return nil, err
	}
	root := path
	if root.IsNull() {
		root = text("$")
	}
	out := make([][]types.Value, len(rows))
	for i, r := range rows {
		out[i] = []types.Value{r.Key, r.Value, r.Type, r.Atom, r.ID, r.Parent, r.FullKey, r.Path, args[0], root}
	}
	return out, nil
}

// SchemaCatalog returns the part of cat a schema name selects: cat itself
// for "", main's or temp's part (an empty one when the session has none)
// for "main" or "temp", nil for any other name.
func SchemaCatalog(cat *catalog.Catalog, schema string) *catalog.Catalog {
	switch strings.ToLower(schema) {
	case "":
		return cat
	case "main":
		return cat.Main()
	case "temp":
		if t := cat.Temp(); t != nil {
			return t
		}
		return catalog.NewTemp()
	}
	return nil
}
