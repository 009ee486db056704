package shell

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// pgKind is the PostgreSQL type a column maps to, which decides how its
// values are written in COPY's text format.
type pgKind int

const (
	pgText pgKind = iota
	pgInt
	pgReal
	pgNumeric
	pgBool
	pgDate
	pgTimestamp
	pgTimestampTZ
	pgTime
	pgBytea
	pgJSON
)

// pgType maps a declared SQLite type to a PostgreSQL one, by SQLite's
// affinity rules with the names PostgreSQL users expect first.
func pgType(tn *grammar.TypeName) (string, pgKind, string) {
	if tn == nil {
		return "text", pgText, "has no declared type: written as text"
	}
	u := strings.ToUpper(tn.Name)
	args := ""
	if len(tn.Args) > 0 {
		args = "(" + strings.Join(tn.Args, ",") + ")"
	}
	switch {
	case strings.Contains(u, "BOOL"):
		return "boolean", pgBool, ""
	case u == "DATE":
		return "date", pgDate, ""
	case strings.Contains(u, "TIMESTAMPTZ") || strings.Contains(u, "WITH TIME ZONE"):
		return "timestamptz", pgTimestampTZ, ""
	case u == "DATETIME" || strings.Contains(u, "TIMESTAMP"):
		return "timestamp", pgTimestamp, ""
	case u == "TIME":
		return "time", pgTime, ""
	case strings.Contains(u, "INT"):
		return "bigint", pgInt, ""
	case strings.Contains(u, "JSON"):
		return "jsonb", pgJSON, ""
	case strings.Contains(u, "CHAR") || strings.Contains(u, "CLOB") || strings.Contains(u, "TEXT"):
		return "text", pgText, ""
	case strings.Contains(u, "BLOB") || u == "BYTEA":
		return "bytea", pgBytea, ""
	case strings.Contains(u, "REAL") || strings.Contains(u, "FLOA") || strings.Contains(u, "DOUB"):
		return "double precision", pgReal, ""
	case strings.Contains(u, "NUMERIC") || strings.Contains(u, "DECIMAL"):
		return "numeric" + args, pgNumeric, ""
	}
	return "text", pgText, fmt.Sprintf("type %s has no PostgreSQL equivalent: written as text", tn.Name)
}

// pgReserved are PostgreSQL's reserved words, which must be quoted as
// names.
var pgReserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`all analyse analyze and any array as asc asymmetric authorization binary both case cast
		check collate collation column concurrently constraint create cross current_catalog current_date
		current_role current_schema current_time current_timestamp current_user default deferrable desc
		distinct do else end except false fetch for foreign freeze from full grant group having ilike in
		initially inner intersect into is isnull join lateral leading left like limit localtime
		localtimestamp natural not notnull null offset on only or order outer overlaps placing primary
		references returning right select session_user similar some symmetric system_user table tablesample
		then to trailing true union unique user using variadic verbose when where window with`) {
		pgReserved[w] = true
	}
}

// pgIdent writes a name for PostgreSQL: a plain word folded to lower case
// (PostgreSQL folds unquoted names, so queries keep working unquoted, as
// in SQLite), quoted when reserved; any other name quoted as it is.
func pgIdent(name string) string {
	plain := name != "" && isWordStart(name[0]) && name[0] < 0x80
	for i := 0; plain && i < len(name); i++ {
		c := name[i]
		plain = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	if plain {
		low := strings.ToLower(name)
		if !pgReserved[low] {
			return low
		}
		return `"` + low + `"`
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// pgDump writes one .dump --postgres script.
type pgDump struct {
	s     *Shell
	q     querier
	w     *errWriter
	notes int
}

// note reports something with no PostgreSQL equivalent: a comment in the
// script and a line on stderr.
func (d *pgDump) note(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	d.notes++
	d.w.str("-- NOTE: " + strings.ReplaceAll(msg, "\n", "\n-- ") + "\n")
	fmt.Fprintf(d.s.stderr, "dump --postgres: %s\n", msg)
}

// pgTable is what the rows and the later steps need of one table.
type pgTable struct {
	name     string
	cols     []column // stored columns, in COPY order
	kinds    []pgKind
	identity int // index in cols of the identity column, or -1
	fks      []string
}

func (s *Shell) dumpPostgres(q querier, w io.Writer, patterns []string) error {
	match, objs, seq, err := s.dumpSource(q, patterns)
	if err != nil {
		return err
	}
	d := &pgDump{s: s, q: q, w: &errWriter{w: w}}
	d.w.str("-- PostgreSQL script written by ladybug's .dump --postgres\nSET client_encoding = 'UTF8';\nSET standard_conforming_strings = on;\nBEGIN;\n")
	var tables []*pgTable
	for _, o := range objs {
		if o.typ != "table" || !match(o.name) {
			continue
		}
		t, err := d.table(o)
		if err != nil {
			return err
		}
		if t == nil {
			continue
		}
		tables = append(tables, t)
		if err := d.rows(t, seq[o.name]); err != nil {
			return err
		}
	}
	for _, t := range tables {
		for _, fk := range t.fks {
			d.w.str("ALTER TABLE " + pgIdent(t.name) + " ADD " + fk + ";\n")
		}
	}
	for _, o := range objs {
		if o.typ == "table" || !match(o.table) {
			continue
		}
		d.object(o)
	}
	d.w.str("COMMIT;\n")
	return d.w.err
}

func parseOne(sql string) (grammar.Statement, error) {
	stmts, err := grammar.Parse(sql)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, fmt.Errorf("expected one statement in %q", sql)
	}
	return stmts[0], nil
}

// table writes CREATE TABLE; foreign keys wait for ALTER TABLE after all
// rows are in, so tables can come in any order.
func (d *pgDump) table(o schemaObject) (*pgTable, error) {
	st, err := parseOne(o.sql)
	if err != nil {
		return nil, err
	}
	ct, ok := st.(*grammar.CreateTableStmt)
	if !ok || ct.AsSelect != nil {
		d.note("table %s: %s has no PostgreSQL form: left out", o.name, o.sql)
		return nil, nil
	}
	info, err := tableColumns(d.q, o.name)
	if err != nil {
		return nil, err
	}
	t := &pgTable{name: o.name, identity: -1}
	var defs []string
	for _, c := range ct.Columns {
		def, kind, stored, fk := d.column(o.name, c, ct)
		defs = append(defs, def)
		if fk != "" {
			t.fks = append(t.fks, fk)
		}
		if !stored {
			continue
		}
		for _, ci := range info {
			if strings.EqualFold(ci.name, c.Name) {
				t.cols = append(t.cols, ci)
			}
		}
		t.kinds = append(t.kinds, kind)
		if strings.Contains(def, "AS IDENTITY") {
			t.identity = len(t.cols) - 1
		}
	}
	for _, tc := range ct.Constraints {
		def, fk := d.tableConstraint(o.name, tc, ct)
		if def != "" {
			defs = append(defs, def)
		}
		if fk != "" {
			t.fks = append(t.fks, fk)
		}
	}
	d.w.str("CREATE TABLE " + pgIdent(o.name) + " (\n  " + strings.Join(defs, ",\n  ") + "\n);\n")
	return t, nil
}

// rowidAlias reports whether column c is the table's INTEGER PRIMARY KEY.
func rowidAlias(c *grammar.ColumnDef, ct *grammar.CreateTableStmt) bool {
	if ct.WithoutRowid || c.Type == nil || !strings.EqualFold(c.Type.Name, "INTEGER") {
		return false
	}
	for _, k := range c.Constraints {
		if k.Kind == grammar.ConstraintPrimaryKey && k.Order != grammar.SortDesc {
			return true
		}
	}
	for _, tc := range ct.Constraints {
		if tc.Kind == grammar.ConstraintPrimaryKey && len(tc.Columns) == 1 {
			if ref, ok := tc.Columns[0].Expr.(*grammar.ColumnRef); ok && strings.EqualFold(ref.Column, c.Name) {
				return true
			}
		}
	}
	return false
}

// column writes one column definition; stored is false for a generated
// column (COPY leaves it out), fk is its REFERENCES as a table constraint.
func (d *pgDump) column(table string, c *grammar.ColumnDef, ct *grammar.CreateTableStmt) (def string, kind pgKind, stored bool, fk string) {
	typ, kind, why := pgType(c.Type)
	if why != "" && !hasGenerated(c) {
		d.note("column %s.%s %s", table, c.Name, why)
	}
	parts := []string{pgIdent(c.Name), typ}
	stored = true
	if rowidAlias(c, ct) {
		parts = append(parts, "GENERATED BY DEFAULT AS IDENTITY")
	}
	for _, k := range c.Constraints {
		if k.OnConflict != grammar.ConflictDefault {
			d.note("column %s.%s: ON CONFLICT of a constraint has no PostgreSQL equivalent: left out", table, c.Name)
		}
		switch k.Kind {
		case grammar.ConstraintPrimaryKey:
			parts = append(parts, "PRIMARY KEY")
		case grammar.ConstraintNotNull:
			parts = append(parts, "NOT NULL")
		case grammar.ConstraintUnique:
			parts = append(parts, "UNIQUE")
		case grammar.ConstraintCheck:
			parts = append(parts, "CHECK ("+k.Expr.String()+")")
		case grammar.ConstraintDefault:
			parts = append(parts, "DEFAULT "+pgDefault(k.Expr, kind))
		case grammar.ConstraintCollate:
			if !strings.EqualFold(k.Collation, "BINARY") {
				d.note("column %s.%s: COLLATE %s has no PostgreSQL equivalent: left out", table, c.Name, k.Collation)
			}
		case grammar.ConstraintReferences:
			fk = "FOREIGN KEY (" + pgIdent(c.Name) + ") " + pgReferences(k.ForeignKey)
		case grammar.ConstraintGenerated:
			if !k.Stored {
				d.w.str(fmt.Sprintf("-- %s.%s: a VIRTUAL generated column, STORED in PostgreSQL\n", table, c.Name))
			}
			expr := k.Expr.String()
			if c.Type == nil {
				d.note("generated column %s.%s has no declared type: written as text, its expression cast to text", table, c.Name)
				expr = "(" + expr + ")::text"
			}
			parts = append(parts, "GENERATED ALWAYS AS ("+expr+") STORED")
			stored = false
		case grammar.ConstraintIdentity:
			if !rowidAlias(c, ct) {
				parts = append(parts, map[bool]string{true: "GENERATED ALWAYS AS IDENTITY", false: "GENERATED BY DEFAULT AS IDENTITY"}[k.Always])
			}
		}
	}
	return strings.Join(parts, " "), kind, stored, fk
}

func hasGenerated(c *grammar.ColumnDef) bool {
	for _, k := range c.Constraints {
		if k.Kind == grammar.ConstraintGenerated {
			return true
		}
	}
	return false
}

// pgDefault writes a DEFAULT: 0/1 become false/true for a boolean.
func pgDefault(e grammar.Expr, kind pgKind) string {
	if lit, ok := e.(*grammar.Literal); ok && kind == pgBool && lit.Kind == grammar.LitInt {
		if lit.Raw == "0" {
			return "false"
		}
		return "true"
	}
	return e.String()
}

func pgReferences(fk *grammar.ForeignKey) string {
	var b strings.Builder
	b.WriteString("REFERENCES " + pgIdent(fk.Table))
	if len(fk.Columns) > 0 {
		b.WriteString(" (" + pgNames(fk.Columns) + ")")
	}
	if fk.OnDelete != grammar.FKNone {
		b.WriteString(" ON DELETE " + fk.OnDelete.String())
	}
	if fk.OnUpdate != grammar.FKNone {
		b.WriteString(" ON UPDATE " + fk.OnUpdate.String())
	}
	switch fk.Deferrable {
	case grammar.DeferrableInitiallyDeferred:
		b.WriteString(" DEFERRABLE INITIALLY DEFERRED")
	case grammar.Deferrable, grammar.DeferrableInitiallyImmediate:
		b.WriteString(" DEFERRABLE")
	}
	return b.String()
}

func pgNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = pgIdent(n)
	}
	return strings.Join(q, ", ")
}

// pgKeyColumns writes the columns of a key or an index.
func (d *pgDump) pgKeyColumns(where string, cols []*grammar.IndexedColumn) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		e := c.Expr
		if ce, ok := e.(*grammar.CollateExpr); ok {
			if !strings.EqualFold(ce.Collation, "BINARY") {
				d.note("%s: COLLATE %s has no PostgreSQL equivalent: left out", where, ce.Collation)
			}
			e = ce.X
		}
		if ref, ok := e.(*grammar.ColumnRef); ok && ref.Table == "" {
			out[i] = pgIdent(ref.Column)
		} else {
			out[i] = "(" + e.String() + ")"
		}
		if c.Order == grammar.SortDesc {
			out[i] += " DESC"
		}
	}
	return strings.Join(out, ", ")
}

func (d *pgDump) tableConstraint(table string, tc *grammar.TableConstraint, ct *grammar.CreateTableStmt) (def, fk string) {
	prefix := ""
	if tc.Name != "" {
		prefix = "CONSTRAINT " + pgIdent(tc.Name) + " "
	}
	if tc.OnConflict != grammar.ConflictDefault {
		d.note("table %s: ON CONFLICT of a constraint has no PostgreSQL equivalent: left out", table)
	}
	switch tc.Kind {
	case grammar.ConstraintPrimaryKey:
		if len(tc.Columns) == 1 {
			for _, c := range ct.Columns {
				if ref, ok := tc.Columns[0].Expr.(*grammar.ColumnRef); ok && strings.EqualFold(ref.Column, c.Name) && rowidAlias(c, ct) {
					return prefix + "PRIMARY KEY (" + pgIdent(c.Name) + ")", ""
				}
			}
		}
		return prefix + "PRIMARY KEY (" + d.pgKeyColumns("table "+table, tc.Columns) + ")", ""
	case grammar.ConstraintUnique:
		return prefix + "UNIQUE (" + d.pgKeyColumns("table "+table, tc.Columns) + ")", ""
	case grammar.ConstraintCheck:
		return prefix + "CHECK (" + tc.Check.String() + ")", ""
	case grammar.ConstraintReferences:
		return "", prefix + "FOREIGN KEY (" + pgNames(tc.FKColumns) + ") " + pgReferences(tc.ForeignKey)
	}
	return "", ""
}

// rows writes the table's rows as COPY text, then moves the identity
// sequence past the largest id (and past sqlite_sequence's number).
func (d *pgDump) rows(t *pgTable, seq int64) error {
	if len(t.cols) == 0 {
		return nil
	}
	names := make([]string, len(t.cols))
	for i, c := range t.cols {
		names[i] = pgIdent(c.name)
	}
	d.w.str("COPY " + pgIdent(t.name) + " (" + strings.Join(names, ", ") + ") FROM stdin;\n")
	maxID := seq
	bad := map[int]int{}
	var notes []string // reported after the COPY data, which a comment would break
	var b strings.Builder
	err := eachRow(d.q, t.name, t.cols, func(vals []any) error {
		b.Reset()
		for i, v := range vals {
			if i > 0 {
				b.WriteByte('\t')
			}
			if i == t.identity {
				if id, ok := v.(int64); ok && id > maxID {
					maxID = id
				}
			}
			txt, ok := pgCopyValue(v, t.kinds[i])
			if !ok {
				if bad[i]++; bad[i] <= 3 {
					notes = append(notes, fmt.Sprintf("table %s, column %s: the value %s is not a PostgreSQL %s: written as NULL", t.name, t.cols[i].name, sqlLiteral(v), pgKindName[t.kinds[i]]))
				}
				txt = `\N`
			}
			b.WriteString(txt)
		}
		b.WriteByte('\n')
		d.w.str(b.String())
		return d.w.err
	})
	d.w.str("\\.\n")
	for _, n := range notes {
		d.note("%s", n)
	}
	for i, n := range bad {
		if n > 3 {
			d.note("table %s, column %s: %d values in all written as NULL", t.name, t.cols[i].name, n)
		}
	}
	if t.identity >= 0 && maxID > 0 {
		d.w.str(fmt.Sprintf("SELECT setval(pg_get_serial_sequence(%s, %s), %d);\n",
			quoteString(pgIdent(t.name)), quoteString(strings.Trim(pgIdent(t.cols[t.identity].name), `"`)), maxID))
	}
	return err
}

var pgKindName = map[pgKind]string{pgText: "text", pgInt: "bigint", pgReal: "double precision", pgNumeric: "numeric",
	pgBool: "boolean", pgDate: "date", pgTimestamp: "timestamp", pgTimestampTZ: "timestamptz", pgTime: "time",
	pgBytea: "bytea", pgJSON: "jsonb"}

// pgCopyValue writes v in COPY's text format for a column of kind k, or
// reports that it does not fit.
func pgCopyValue(v any, k pgKind) (string, bool) {
	if v == nil {
		return `\N`, true
	}
	switch k {
	case pgBool:
		if i, ok := v.(int64); ok && (i == 0 || i == 1) {
			return map[bool]string{true: "t", false: "f"}[i == 1], true
		}
		return "", false
	case pgInt:
		switch x := v.(type) {
		case int64:
			return strconv.FormatInt(x, 10), true
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
				return strconv.FormatInt(int64(x), 10), true
			}
		}
		return "", false
	case pgReal, pgNumeric:
		switch x := v.(type) {
		case int64:
			return strconv.FormatInt(x, 10), true
		case float64:
			switch {
			case math.IsNaN(x):
				return "NaN", true
			case math.IsInf(x, 1):
				return "Infinity", true
			case math.IsInf(x, -1):
				return "-Infinity", true
			}
			return strconv.FormatFloat(x, 'g', -1, 64), true
		case string:
			if _, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
				return strings.TrimSpace(x), true
			}
		}
		return "", false
	case pgDate, pgTimestamp, pgTimestampTZ, pgTime:
		return pgTimeValue(v, k)
	case pgBytea:
		switch x := v.(type) {
		case []byte:
			return `\\x` + hexUpper(x), true
		case string:
			return `\\x` + hexUpper([]byte(x)), true
		}
		return "", false
	case pgJSON:
		if s, ok := v.(string); ok && json.Valid([]byte(s)) {
			return copyEscape(s), true
		}
		return "", false
	}
	switch x := v.(type) {
	case []byte:
		if !utf8.Valid(x) || strings.IndexByte(string(x), 0) >= 0 {
			return "", false
		}
		return copyEscape(string(x)), true
	case string:
		if strings.IndexByte(x, 0) >= 0 {
			return "", false
		}
		return copyEscape(x), true
	}
	return text(v, ""), true
}

// pgTimeValue writes a date or time stored as SQLite does it: ISO text,
// Unix seconds (INTEGER) or a Julian day (REAL).
func pgTimeValue(v any, k pgKind) (string, bool) {
	var t time.Time
	switch x := v.(type) {
	case string:
		if k == pgTime {
			if _, err := time.Parse("15:04:05.999999999", x); err == nil {
				return x, true
			}
			if _, err := time.Parse("15:04", x); err == nil {
				return x, true
			}
			return "", false
		}
		var err error
		if t, err = types.ParseTime(x); err != nil {
			return "", false
		}
		if k == pgDate && (t.Hour() != 0 || t.Minute() != 0 || t.Second() != 0 || t.Nanosecond() != 0) {
			return "", false // a date column holding a time of day: PostgreSQL would drop it
		}
	case int64:
		t = time.Unix(x, 0).UTC()
	case float64:
		t = time.UnixMilli(int64(math.Round((x - 2440587.5) * 86400000))).UTC()
	default:
		return "", false
	}
	switch k {
	case pgDate:
		return t.Format("2006-01-02"), true
	case pgTime:
		return t.Format("15:04:05.999999999"), true
	case pgTimestampTZ:
		return t.Format("2006-01-02 15:04:05.999999999Z07:00"), true
	}
	return t.Format("2006-01-02 15:04:05.999999999"), true
}

// copyEscape escapes text for COPY's text format.
func copyEscape(s string) string {
	if !strings.ContainsAny(s, "\\\t\n\r") {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`).Replace(s)
}

// object writes an index or a view; a trigger has no PostgreSQL form
// (its body would have to become a function) and is reported.
func (d *pgDump) object(o schemaObject) {
	st, err := parseOne(o.sql)
	if err != nil {
		d.note("%s %s does not parse (%s): left out", o.typ, o.name, err)
		return
	}
	switch x := st.(type) {
	case *grammar.CreateIndexStmt:
		s := "CREATE "
		if x.Unique {
			s += "UNIQUE "
		}
		s += "INDEX " + pgIdent(x.Name) + " ON " + pgIdent(x.Table) + " (" + d.pgKeyColumns("index "+x.Name, x.Columns) + ")"
		if x.Where != nil {
			s += " WHERE " + x.Where.String()
		}
		d.w.str(s + ";\n")
	case *grammar.CreateViewStmt:
		s := "CREATE VIEW " + pgIdent(x.Name)
		if len(x.Columns) > 0 {
			s += " (" + pgNames(x.Columns) + ")"
		}
		d.w.str(s + " AS " + x.Select.String() + ";\n")
	default:
		d.note("%s %s has no PostgreSQL equivalent (a trigger's body must become a PL/pgSQL function): left out; its SQL:\n%s", o.typ, o.name, o.sql)
	}
}
