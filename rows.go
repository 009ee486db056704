package ladybug

import (
	"database/sql/driver"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/ladybugsql/ladybug/engine"
)

// rows streams one or more result sets. Values are converted by each
// column's declared type (see fromValue).
type rows struct {
	r         *engine.Rows
	c         *conn // takes the rows back for reuse once closed
	cfg       *Config
	cols      []engine.Column
	names     []string
	kinds     []declKind
	buf       []engine.Value
	closeStmt *engine.Stmt // a statement prepared for this query alone
	closed    bool
	// Room for the column metadata of a narrow result, so describing it
	// allocates nothing.
	namesArr [4]string
	kindsArr [4]declKind
	bufArr   [4]engine.Value
}

var (
	_ driver.Rows                           = (*rows)(nil)
	_ driver.RowsNextResultSet              = (*rows)(nil)
	_ driver.RowsColumnTypeDatabaseTypeName = (*rows)(nil)
	_ driver.RowsColumnTypeNullable         = (*rows)(nil)
	_ driver.RowsColumnTypeScanType         = (*rows)(nil)
	_ driver.RowsColumnTypeLength           = (*rows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*rows)(nil)
)

// newRows wraps r, reusing the connection's last closed rows (database/sql
// never touches driver rows after closing them): a query loop on one
// connection allocates no rows, and when the columns are those of the
// previous query (the same statement again) describes nothing.
func newRows(r *engine.Rows, c *conn) *rows {
	rs := c.spareRows
	if rs == nil {
		rs = &rows{r: r, c: c, cfg: c.cfg}
		rs.describe()
		return rs
	}
	c.spareRows = nil
	rs.r, rs.closeStmt, rs.closed = r, nil, false
	if cols := r.Columns(); len(cols) > 0 && len(cols) == len(rs.cols) && &cols[0] == &rs.cols[0] {
		return rs // the same result columns: names and kinds stand
	}
	// A caller may still hold the names of the previous query, so the
	// arrays are not reused for new ones.
	rs.names = rs.names[:0:0]
	rs.describe()
	return rs
}

// describe caches the current result set's columns.
func (rs *rows) describe() {
	rs.cols = rs.r.Columns()
	// Only the first result set uses the arrays: a caller may still hold
	// the names slice of an earlier one (database/sql does not copy it).
	if n := len(rs.cols); rs.names == nil && n <= len(rs.namesArr) {
		rs.names, rs.kinds = rs.namesArr[:n:n], rs.kindsArr[:n:n]
		rs.buf = rs.bufArr[:0]
	} else {
		rs.names = make([]string, n)
		rs.kinds = make([]declKind, n)
	}
	for i, c := range rs.cols {
		rs.names[i] = c.Name
		rs.kinds[i] = classifyDecl(c.DeclType)
		if rs.cfg != nil && rs.cfg.StoredValues {
			rs.kinds[i] = declAny
		}
	}
	if cap(rs.buf) < len(rs.cols) {
		rs.buf = make([]engine.Value, len(rs.cols))
	}
	rs.buf = rs.buf[:len(rs.cols)]
}

// Columns names the current result set's columns.
func (rs *rows) Columns() []string { return rs.names }

// Close releases the rows (and a statement prepared just for them).
func (rs *rows) Close() error {
	if rs.closed {
		return nil
	}
	rs.closed = true
	err := rs.r.Release()
	rs.r = nil
	if rs.closeStmt != nil {
		if cerr := rs.c.closeOnce(rs.closeStmt); err == nil {
			err = cerr
		}
		rs.closeStmt = nil
	}
	if rs.c.spareRows == nil {
		rs.c.spareRows = rs
	}
	return err
}

// Next fills dest with the next row, or returns io.EOF.
func (rs *rows) Next(dest []driver.Value) (err error) {
	defer recoverErr(&err)
	if rs.closed {
		return io.EOF
	}
	if err := rs.r.Next(rs.buf); err != nil {
		return err
	}
	var loc *time.Location
	if rs.cfg != nil {
		loc = rs.cfg.Location
	}
	for i := range dest {
		dest[i] = fromValue(rs.buf[i], rs.kinds[i], loc)
	}
	return nil
}

// HasNextResultSet reports whether another statement's rows follow.
func (rs *rows) HasNextResultSet() bool { return !rs.closed && rs.r.HasNextResultSet() }

// NextResultSet advances to the next statement's rows.
func (rs *rows) NextResultSet() error {
	if rs.closed {
		return io.EOF
	}
	if err := rs.r.NextResultSet(); err != nil {
		return err
	}
	rs.describe()
	return nil
}

// ColumnTypeDatabaseTypeName is the declared type's name without its
// arguments, upper-cased ("VARCHAR" for VARCHAR(255)), or "" for an
// expression.
func (rs *rows) ColumnTypeDatabaseTypeName(i int) string {
	name, _ := splitDecl(rs.cols[i].DeclType)
	return name
}

// ColumnTypeNullable reports whether the column may hold NULL, when known.
func (rs *rows) ColumnTypeNullable(i int) (nullable, ok bool) {
	switch rs.cols[i].Nullable {
	case 0:
		return false, true
	case 1:
		return true, true
	}
	return true, false
}

var (
	scanInt64   = reflect.TypeOf(int64(0))
	scanFloat64 = reflect.TypeOf(float64(0))
	scanString  = reflect.TypeOf("")
	scanBytes   = reflect.TypeOf([]byte(nil))
	scanBool    = reflect.TypeOf(false)
	scanTime    = reflect.TypeOf(time.Time{})
	scanAny     = reflect.TypeOf((*any)(nil)).Elem()
)

// ColumnTypeScanType is the Go type the column's values arrive as.
func (rs *rows) ColumnTypeScanType(i int) reflect.Type {
	switch rs.kinds[i] {
	case declBool:
		return scanBool
	case declTime:
		return scanTime
	case declInt:
		return scanInt64
	case declReal:
		return scanFloat64
	case declText:
		return scanString
	case declBlob:
		return scanBytes
	}
	return scanAny
}

// ColumnTypeLength is the declared length of a text or blob column
// (VARCHAR(255) gives 255). A column declared without a length reports
// none: ORM migrators (gorm's) compare a reported length with the model's
// size and would rebuild a TEXT column on every run if it were unbounded.
func (rs *rows) ColumnTypeLength(i int) (int64, bool) {
	if k := rs.kinds[i]; k != declText && k != declBlob {
		return 0, false
	}
	if _, args := splitDecl(rs.cols[i].DeclType); len(args) >= 1 {
		if n, err := strconv.ParseInt(args[0], 10, 64); err == nil {
			return n, true
		}
	}
	return 0, false
}

// ColumnTypePrecisionScale is DECIMAL(p,s)'s precision and scale.
func (rs *rows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	name, args := splitDecl(rs.cols[i].DeclType)
	if name != "DECIMAL" && name != "NUMERIC" || len(args) == 0 {
		return 0, 0, false
	}
	p, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil {
		return 0, 0, false
	}
	if len(args) > 1 {
		if scale, err = strconv.ParseInt(args[1], 10, 64); err != nil {
			return 0, 0, false
		}
	}
	return p, scale, true
}

// declKind is how a declared type maps to Go.
type declKind uint8

const (
	declAny declKind = iota
	declInt
	declReal
	declText
	declBlob
	declNumeric
	declBool
	declTime
)

// classifyDecl applies SQLite's affinity rules to a declared type, with
// ladybug's Go-friendly classes for booleans and times first.
func classifyDecl(decl string) declKind {
	if decl == "" {
		return declAny
	}
	name, _ := splitDecl(decl)
	switch name {
	case "BOOLEAN", "BOOL":
		return declBool
	case "DATE", "DATETIME", "TIMESTAMP", "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE", "TIMESTAMP WITHOUT TIME ZONE":
		return declTime
	}
	u := strings.ToUpper(decl)
	switch {
	case strings.Contains(u, "INT"):
		return declInt
	case strings.Contains(u, "CHAR"), strings.Contains(u, "CLOB"), strings.Contains(u, "TEXT"):
		return declText
	case strings.Contains(u, "BLOB"):
		return declBlob
	case strings.Contains(u, "REAL"), strings.Contains(u, "FLOA"), strings.Contains(u, "DOUB"):
		return declReal
	}
	return declNumeric
}

// splitDecl splits "DECIMAL(10, 2)" into "DECIMAL" and ["10" "2"].
func splitDecl(decl string) (string, []string) {
	name, rest, ok := strings.Cut(decl, "(")
	if strings.ContainsAny(name, " \t\r\n") {
		name = strings.Join(strings.Fields(name), " ")
	}
	// Upper-casing an upper-case name returns it without allocating, so a
	// plain INTEGER or TEXT column costs nothing per query.
	name = strings.ToUpper(name)
	if !ok {
		return name, nil
	}
	rest = strings.TrimSuffix(strings.TrimSpace(rest), ")")
	parts := strings.Split(rest, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return name, parts
}
