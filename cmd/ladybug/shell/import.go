package shell

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// importBatch is how many rows one INSERT statement of .import carries.
const importBatch = 64

// importSample is how many rows decide the column types of a table that
// .import creates.
const importSample = 1000

// recordReader yields the rows of an import file; line is the input line
// of the last record, for errors.
type recordReader interface {
	read() ([]any, error)
	line() int
}

type importOpts struct {
	format string
	skip   int
	path   string
	table  string
}

func parseImportArgs(args []string) (importOpts, error) {
	var o importOpts
	for len(args) > 0 && strings.HasPrefix(args[0], "--") {
		switch a := args[0]; a {
		case "--csv", "--tsv", "--json", "--jsonl":
			o.format = a[2:]
		case "--skip":
			if len(args) < 2 {
				return o, fmt.Errorf("--skip needs a number")
			}
			n, err := strconv.Atoi(args[1])
			if err != nil || n < 0 {
				return o, fmt.Errorf("--skip needs a number, not %q", args[1])
			}
			o.skip, args = n, args[1:]
		default:
			return o, fmt.Errorf("unknown option %s of .import", a)
		}
		args = args[1:]
	}
	if len(args) != 2 {
		return o, fmt.Errorf("usage: .import [--csv|--tsv|--json|--jsonl] [--skip N] FILE TABLE")
	}
	o.path, o.table = args[0], args[1]
	if o.format == "" {
		o.format = modeForFile(o.path, "csv")
		if o.format != "tsv" && o.format != "json" && o.format != "jsonl" {
			o.format = "csv"
		}
	}
	return o, nil
}

func (s *Shell) dotImport(args []string) error {
	o, err := parseImportArgs(args)
	if err != nil {
		return err
	}
	if s.conn == nil {
		return fmt.Errorf("no database is open")
	}
	f, err := os.Open(o.path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, _ := f.Stat()
	cr := &countReader{r: f}
	var p *progress
	if s.Progress && st != nil && st.Size() > 8<<20 {
		p = &progress{w: s.stderr, total: st.Size(), read: &cr.n, start: time.Now()}
	}
	n, err := s.importFrom(cr, o, p)
	if p != nil {
		p.done(n)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", o.path, err)
	}
	return nil
}

// importFrom loads every record of r into the table, creating it from the
// header (or the first JSON object's keys) when it does not exist, all in
// one savepoint: either every row goes in, or none.
func (s *Shell) importFrom(r io.Reader, o importOpts, p *progress) (int64, error) {
	ctx := context.Background()
	cols, err := s.tableColumnNames(o.table)
	if err != nil {
		return 0, err
	}
	var rr recordReader
	var header []string
	switch o.format {
	case "json", "jsonl":
		jr, err := newJSONRecords(r, cols)
		if err != nil {
			return 0, err
		}
		header, rr = jr.keys, jr
	default:
		cr := csv.NewReader(bufio.NewReaderSize(r, 1<<20))
		cr.ReuseRecord, cr.LazyQuotes, cr.FieldsPerRecord = true, true, -1
		if o.format == "tsv" {
			cr.Comma = '\t'
		}
		c := &csvRecords{r: cr}
		rr = c
		for i := 0; i < o.skip; i++ {
			if _, err := c.read(); err != nil {
				return 0, lineErr(c, err)
			}
		}
		if cols == nil {
			rec, err := cr.Read()
			if err != nil {
				return 0, lineErr(c, fmt.Errorf("no header row: %w", err))
			}
			header = append([]string(nil), rec...)
		}
	}
	// One transaction; inside the user's own, a savepoint (which keeps
	// undo records in memory, so a plain transaction is the usual way).
	begin, commit, rollback := "BEGIN", []string{"COMMIT"}, []string{"ROLLBACK"}
	if _, err := s.conn.ExecContext(ctx, begin); err != nil {
		begin, commit, rollback = "SAVEPOINT shell_import", []string{"RELEASE shell_import"}, []string{"ROLLBACK TO shell_import", "RELEASE shell_import"}
		if _, err := s.conn.ExecContext(ctx, begin); err != nil {
			return 0, err
		}
	}
	n, err := s.importRows(ctx, rr, o.table, cols, header, p)
	end := commit
	if err != nil {
		end = rollback
	}
	for _, q := range end {
		if _, eerr := s.conn.ExecContext(ctx, q); err == nil {
			err = eerr
		}
	}
	return n, err
}

func (s *Shell) importRows(ctx context.Context, rr recordReader, table string, cols, header []string, p *progress) (int64, error) {
	var sample [][]any
	var sampleLines []int
	numeric := map[int]bool{}
	if cols == nil {
		if len(header) == 0 {
			return 0, fmt.Errorf("no columns to create %s from", table)
		}
		for len(sample) < importSample {
			rec, err := rr.read()
			if err == io.EOF {
				break
			}
			if err != nil {
				return 0, lineErr(rr, err)
			}
			sample = append(sample, append([]any(nil), rec...))
			sampleLines = append(sampleLines, rr.line())
		}
		types := detectTypes(header, sample)
		defs := make([]string, len(header))
		for i, h := range header {
			defs[i] = quoteIdent(h) + " " + types[i]
			numeric[i] = types[i] != "TEXT"
		}
		if _, err := s.conn.ExecContext(ctx, "CREATE TABLE "+quoteIdent(table)+"("+strings.Join(defs, ", ")+")"); err != nil {
			return 0, err
		}
		cols = header
	}
	ins := &inserter{conn: s.conn, table: table, cols: cols, numeric: numeric}
	defer ins.close()
	var n int64
	for i, rec := range sample {
		if err := ins.add(ctx, rec, sampleLines[i]); err != nil {
			return 0, importErr(rr, err)
		}
		n++
	}
	for {
		rec, err := rr.read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, lineErr(rr, err)
		}
		if err := ins.add(ctx, rec, rr.line()); err != nil {
			return 0, importErr(rr, err)
		}
		n++
		if p != nil && n%4096 == 0 {
			p.tick(n)
		}
	}
	if err := ins.flush(ctx); err != nil {
		return 0, importErr(rr, err)
	}
	return n, nil
}

func lineErr(rr recordReader, err error) error {
	return fmt.Errorf("line %d: %s", rr.line(), cleanMessage(err))
}

// importErr names the input line of a failed insert.
func importErr(rr recordReader, err error) error {
	var re *rowError
	if errors.As(err, &re) {
		return err
	}
	return lineErr(rr, err)
}

// detectTypes gives each column INTEGER when every non-empty sampled value
// is an integer, REAL when every one is a number, and TEXT otherwise (a
// number with a leading zero, like a postcode, stays TEXT).
func detectTypes(header []string, sample [][]any) []string {
	out := make([]string, len(header))
	for i := range header {
		kind, seen := "INTEGER", false
		for _, rec := range sample {
			if i >= len(rec) || rec[i] == nil {
				continue
			}
			k := valueKind(rec[i])
			if k == "" {
				continue
			}
			seen = true
			switch {
			case k == "TEXT":
				kind = "TEXT"
			case k == "REAL" && kind == "INTEGER":
				kind = "REAL"
			}
		}
		if !seen {
			kind = "TEXT"
		}
		out[i] = kind
	}
	return out
}

// valueKind classifies one imported value: "" for empty, INTEGER, REAL or
// TEXT.
func valueKind(v any) string {
	switch x := v.(type) {
	case int64, bool:
		return "INTEGER"
	case float64:
		return "REAL"
	case string:
		t := strings.TrimSpace(x)
		if t == "" {
			return ""
		}
		if t != x || len(t) > 1 && (t[0] == '0' && t[1] != '.' || t[0] == '+') {
			return "TEXT"
		}
		if _, err := strconv.ParseInt(t, 10, 64); err == nil {
			return "INTEGER"
		}
		if f, err := strconv.ParseFloat(t, 64); err == nil && f-f == 0 && strings.ContainsAny(t, "0123456789") {
			return "REAL"
		}
	}
	return "TEXT"
}

// tableColumnNames lists table's columns (nil when there is no such
// table); generated columns are left out, as they take no values.
func (s *Shell) tableColumnNames(table string) ([]string, error) {
	cols, err := tableColumns(s.conn, table)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, c := range storedColumns(cols) {
		names = append(names, c.name)
	}
	return names, nil
}

// inserter adds rows through a prepared multi-row INSERT.
type inserter struct {
	conn    *sql.Conn
	table   string
	cols    []string
	numeric map[int]bool // created columns typed INTEGER/REAL: "" goes in as NULL
	stmt    *sql.Stmt
	args    []any
	rows    int
	lines   []int // input line of each row in args
}

// rowError is an insert that failed, with the input line of its row.
type rowError struct {
	line int
	err  error
}

func (e *rowError) Error() string { return fmt.Sprintf("line %d: %s", e.line, cleanMessage(e.err)) }

func (in *inserter) add(ctx context.Context, rec []any, line int) error {
	n := len(in.cols)
	for i := 0; i < n; i++ {
		var v any
		if i < len(rec) {
			v = rec[i]
		}
		if str, ok := v.(string); ok && str == "" && in.numeric[i] {
			v = nil
		}
		in.args = append(in.args, v)
	}
	in.rows++
	in.lines = append(in.lines, line)
	if in.rows == importBatch {
		return in.flush(ctx)
	}
	return nil
}

func (in *inserter) flush(ctx context.Context) error {
	if in.rows == 0 {
		return nil
	}
	if in.rows == importBatch && in.stmt == nil {
		st, err := in.conn.PrepareContext(ctx, in.insertSQL(importBatch))
		if err != nil {
			return err
		}
		in.stmt = st
	}
	var err error
	if in.rows == importBatch {
		_, err = in.stmt.ExecContext(ctx, in.args...)
	} else {
		_, err = in.conn.ExecContext(ctx, in.insertSQL(in.rows), in.args...)
	}
	if err != nil {
		err = in.locate(ctx, err)
	}
	in.args, in.rows, in.lines = in.args[:0], 0, in.lines[:0]
	return err
}

// locate finds the row of a failed batch that fails alone (the import
// is rolled back whatever happens, so the rows before it may go in).
func (in *inserter) locate(ctx context.Context, batchErr error) error {
	n := len(in.cols)
	one := in.insertSQL(1)
	for r := 0; r < in.rows; r++ {
		if _, err := in.conn.ExecContext(ctx, one, in.args[r*n:(r+1)*n]...); err != nil {
			return &rowError{line: in.lines[r], err: err}
		}
	}
	return batchErr
}

func (in *inserter) insertSQL(rows int) string {
	names := make([]string, len(in.cols))
	for i, c := range in.cols {
		names[i] = quoteIdent(c)
	}
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", len(in.cols)), ",") + ")"
	return "INSERT INTO " + quoteIdent(in.table) + "(" + strings.Join(names, ",") + ") VALUES " +
		strings.TrimSuffix(strings.Repeat(one+",", rows), ",")
}

func (in *inserter) close() {
	if in.stmt != nil {
		in.stmt.Close()
	}
}

// csvRecords reads CSV or TSV records as strings.
type csvRecords struct {
	r   *csv.Reader
	rec []any
	ln  int
}

func (c *csvRecords) read() ([]any, error) {
	rec, err := c.r.Read()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			c.ln = pe.Line
			return nil, pe.Err
		}
		return nil, err
	}
	c.ln, _ = c.r.FieldPos(0)
	c.rec = c.rec[:0]
	for _, f := range rec {
		c.rec = append(c.rec, f)
	}
	return c.rec, nil
}

func (c *csvRecords) line() int { return c.ln }

// countReader counts the bytes read through it, for the progress bar.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
