package catalog

// Table is one table. A Table is immutable once in a published Catalog.
type Table struct {
	Name    string
	Root    uint32 // root page of the rowid-keyed B+tree
	Columns []Column
	// RowidCol is the index of the INTEGER PRIMARY KEY column that aliases
	// the rowid, -1 when the table has none.
	RowidCol int
	// PK lists the primary-key columns (empty when none is declared).
	PK            []int
	Autoincrement bool
	// PKConflict is the ON CONFLICT clause of an INTEGER PRIMARY KEY
	// ("" = ABORT).
	PKConflict   string
	WithoutRowid bool
	Strict       bool
	Checks       []Check
	// Uniques are the UNIQUE and non-rowid PRIMARY KEY constraints, each
	// backed by an automatic index named in Index.
	Uniques     []Unique
	ForeignKeys []ForeignKey
	SQL         string // original CREATE TABLE text
	// Virtual marks a catalog-provided table (sqlite_master) with no tree.
	Virtual bool
	// Temp marks a table of the session's temp schema: its trees are in the
	// session's temp store.
	Temp bool
	// Stat is the row count ANALYZE measured (from sqlite_stat1), nil
	// when the table has no statistics.
	Stat *TableStat
}

// TableStat is a table's ANALYZE statistics.
type TableStat struct{ Rows int64 }

// Check is one CHECK constraint.
type Check struct {
	Name string // constraint name or ""
	Expr string // SQL text of the expression
}

// Unique is one UNIQUE or PRIMARY KEY constraint over Cols, enforced
// through the index named Index.
type Unique struct {
	Cols    []int
	Index   string
	Primary bool
	// OnConflict is the constraint's conflict clause ("" = ABORT).
	OnConflict string
}

// ForeignKey is one FOREIGN KEY constraint.
type ForeignKey struct {
	Cols     []int
	RefTable string
	RefCols  []string
	OnDelete string
	OnUpdate string
	Deferred bool
}

// ColumnIndex returns the index of the column named name (case-insensitive),
// or -1. The names "rowid", "oid" and "_rowid_" resolve to RowidCol when no
// real column has that name, which callers detect with IsRowidName.
func (t *Table) ColumnIndex(name string) int {
	for i := range t.Columns {
		if equalFold(t.Columns[i].Name, name) {
			return i
		}
	}
	return -1
}

// IsRowidName reports whether name is one of SQLite's rowid spellings.
func IsRowidName(name string) bool {
	l := Lower(name)
	return l == "rowid" || l == "oid" || l == "_rowid_"
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x >= 'A' && x <= 'Z' {
			x += 'a' - 'A'
		}
		if y >= 'A' && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// ColumnName returns the name of column i, or "<expr>" for -1 (an
// expression key).
func (t *Table) ColumnName(i int) string {
	if i < 0 || i >= len(t.Columns) {
		return "<expr>"
	}
	return t.Columns[i].Name
}
