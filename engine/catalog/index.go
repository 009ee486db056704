package catalog

// Index is one secondary index: a B+tree keyed by the encoded key columns
// followed by the rowid.
type Index struct {
	Name    string
	Table   string
	Root    uint32
	Columns []IndexColumn
	Unique  bool
	// Auto marks an index created for a UNIQUE or PRIMARY KEY constraint
	// (named sqlite_autoindex_<table>_<n>); it has no SQL text.
	Auto bool
	// Where is the partial-index predicate's SQL text, "" for a full index.
	Where string
	SQL   string // original CREATE INDEX text, "" for automatic indexes
	// Temp marks an index of the session's temp schema (its tree is in the
	// session's temp store).
	Temp bool
	// Stat is sqlite_stat1's numbers for the index, nil when it has no
	// statistics: Stat[0] entries, then Stat[i] the average number of
	// entries sharing one value of the first i key columns.
	Stat []int64
}

// IndexColumn is one key column of an index: a table column or, when Col is
// -1, an expression given by Expr.
type IndexColumn struct {
	Col     int
	Expr    string
	Desc    bool
	Collate string
}

// View is one view.
type View struct {
	Name    string
	Columns []string // explicit column names, nil when none
	SQL     string   // original CREATE VIEW text
	// Temp marks a view of the session's temp schema; a view that is not
	// temp resolves the names in its body in main only.
	Temp bool
}

// Trigger is one trigger; its behaviour is rebuilt from SQL when used.
type Trigger struct {
	Name  string
	Table string
	SQL   string // original CREATE TRIGGER text
	// Temp marks a trigger of the session's temp schema. OnMain marks a
	// temp trigger whose table (or view) is main's, not temp's.
	Temp, OnMain bool
}
