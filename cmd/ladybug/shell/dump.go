package shell

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"
)

// schemaObject is one row of sqlite_master.
type schemaObject struct {
	typ, name, table, sql string
}

// column is one column of PRAGMA table_xinfo.
type column struct {
	name, decl string
	notNull    bool
	pk         int
	hidden     int // 2: virtual generated, 3: stored generated
}

// querier is what a dump reads through: the shell's connection, or the
// transaction a dump or a backup runs in.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// schemaObjects lists sqlite_master in creation order, leaving out the
// tables ladybug maintains itself.
func schemaObjects(q querier) ([]schemaObject, error) {
	rows, err := q.QueryContext(context.Background(), `SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []schemaObject
	for rows.Next() {
		var o schemaObject
		if err := rows.Scan(&o.typ, &o.name, &o.table, &o.sql); err != nil {
			return nil, err
		}
		if strings.HasPrefix(strings.ToLower(o.name), "sqlite_") {
			continue
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

func tableColumns(q querier, table string) ([]column, error) {
	rows, err := q.QueryContext(context.Background(), "SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo(?)", table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []column
	for rows.Next() {
		var c column
		if err := rows.Scan(&c.name, &c.decl, &c.notNull, &c.pk, &c.hidden); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// storedColumns are the columns a dump writes values for: all but the
// generated ones.
func storedColumns(cols []column) []column {
	var out []column
	for _, c := range cols {
		if c.hidden != 2 && c.hidden != 3 {
			out = append(out, c)
		}
	}
	return out
}

// eachRow calls fn with every row of the named columns of table.
func eachRow(q querier, table string, cols []column, fn func(vals []any) error) error {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = quoteIdent(c.name)
	}
	rows, err := q.QueryContext(context.Background(), "SELECT "+strings.Join(names, ", ")+" FROM "+quoteIdent(table))
	if err != nil {
		return err
	}
	defer rows.Close()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if err := fn(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}

// sequences reads sqlite_sequence, when the database has one.
func sequences(q querier) (map[string]int64, error) {
	seq := map[string]int64{}
	has, err := queryStrings(q, `SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'`)
	if err != nil || len(has) == 0 {
		return seq, err // no AUTOINCREMENT table
	}
	rows, err := q.QueryContext(context.Background(), `SELECT name, seq FROM sqlite_sequence`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var n string
		var v int64
		if err := rows.Scan(&n, &v); err != nil {
			return nil, err
		}
		seq[n] = v
	}
	return seq, rows.Err()
}

// matchTables reports whether table is selected by the .dump arguments
// (LIKE patterns; none selects all).
func (s *Shell) matchTables(q querier, patterns []string) (func(string) bool, error) {
	if len(patterns) == 0 {
		return func(string) bool { return true }, nil
	}
	keep := map[string]bool{}
	for _, p := range patterns {
		names, err := queryStrings(q, `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?`, p)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			keep[strings.ToLower(n)] = true
		}
	}
	return func(t string) bool { return keep[strings.ToLower(t)] }, nil
}

func queryStrings(q querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(context.Background(), query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// readSnapshot runs fn in a read transaction, so a dump or backup sees one
// state of the database; inside the user's own transaction it reads that.
func (s *Shell) readSnapshot(fn func(q querier) error) error {
	if s.conn == nil {
		return fmt.Errorf("no database is open")
	}
	ctx := context.Background()
	if _, err := s.conn.ExecContext(ctx, "BEGIN"); err != nil {
		return fn(s.conn) // a transaction is already open: read inside it
	}
	err := fn(s.conn)
	if _, cerr := s.conn.ExecContext(ctx, "COMMIT"); err == nil {
		err = cerr
	}
	return err
}

func (s *Shell) dotDump(args []string) error {
	postgres := false
	var patterns []string
	for _, a := range args {
		switch {
		case a == "--postgres":
			postgres = true
		case strings.HasPrefix(a, "-"):
			return fmt.Errorf("unknown option %s of .dump", a)
		default:
			patterns = append(patterns, a)
		}
	}
	return s.readSnapshot(func(q querier) error {
		if postgres {
			return s.dumpPostgres(q, s.out, patterns)
		}
		return s.dumpSQL(q, s.out, patterns)
	})
}

// dumpSource reads what a dump writes: which tables the patterns select,
// the schema objects in creation order, and sqlite_sequence.
func (s *Shell) dumpSource(q querier, patterns []string) (func(string) bool, []schemaObject, map[string]int64, error) {
	match, err := s.matchTables(q, patterns)
	if err != nil {
		return nil, nil, nil, err
	}
	objs, err := schemaObjects(q)
	if err != nil {
		return nil, nil, nil, err
	}
	seq, err := sequences(q)
	return match, objs, seq, err
}

// dumpSQL writes the script that rebuilds the database (or the chosen
// tables) in ladybug and in SQLite: tables with their rows, then
// sqlite_sequence, then indexes, views and triggers, in creation order.
func (s *Shell) dumpSQL(q querier, w io.Writer, patterns []string) error {
	match, objs, seq, err := s.dumpSource(q, patterns)
	if err != nil {
		return err
	}
	bw := &errWriter{w: w}
	bw.str("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n")
	for _, o := range objs {
		if o.typ != "table" || !match(o.name) {
			continue
		}
		bw.str(o.sql + ";\n")
		if strings.HasPrefix(strings.ToUpper(o.sql), "CREATE VIRTUAL") {
			continue
		}
		cols, err := tableColumns(q, o.name)
		if err != nil {
			return err
		}
		if err := dumpRows(q, bw, o.name, cols); err != nil {
			return err
		}
	}
	var seqLines []string
	for _, o := range objs {
		if v, ok := seq[o.name]; ok && o.typ == "table" && match(o.name) {
			seqLines = append(seqLines, fmt.Sprintf("INSERT INTO sqlite_sequence VALUES(%s,%d);\n", quoteString(o.name), v))
		}
	}
	if len(seqLines) > 0 {
		bw.str("DELETE FROM sqlite_sequence;\n" + strings.Join(seqLines, ""))
	}
	for _, o := range objs {
		if o.typ != "table" && match(o.table) {
			bw.str(o.sql + ";\n")
		}
	}
	bw.str("COMMIT;\n")
	return bw.err
}

// dumpRows writes one INSERT per row of table.
func dumpRows(q querier, bw *errWriter, table string, cols []column) error {
	stored := storedColumns(cols)
	head := "INSERT INTO " + quoteIdent(table)
	if len(stored) != len(cols) {
		names := make([]string, len(stored))
		for i, c := range stored {
			names[i] = quoteIdent(c.name)
		}
		head += "(" + strings.Join(names, ",") + ")"
	}
	head += " VALUES("
	var b strings.Builder
	return eachRow(q, table, stored, func(vals []any) error {
		b.Reset()
		b.WriteString(head)
		for i, v := range vals {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(sqlLiteral(v))
		}
		b.WriteString(");\n")
		bw.str(b.String())
		return bw.err
	})
}

// errWriter remembers the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) str(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s)
	}
}
