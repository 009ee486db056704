package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// Statement is a bound statement ready for execution.
type Statement interface{ stmtNode() }

// Query is a statement that returns rows.
type Query struct {
	Root Node
	// Cols are the result columns (Root's columns minus hidden ones are
	// the first len(Cols) columns of Root).
	Cols []ResultColumn
	// ReadOnly is true when executing the query writes nothing.
	ReadOnly bool
	// NoTables is true when the query reads no table, view or catalog
	// (SELECT 1, VALUES …): it needs no transaction.
	NoTables bool
}

// ResultColumn names one column of a result set.
type ResultColumn struct {
	Name     string
	DeclType string
	NotNull  bool
}

// Insert is INSERT/REPLACE.
type Insert struct {
	Table *catalog.Table
	// Targets maps each source column to a table column index, or -1 for
	// the rowid.
	Targets []int
	Source  Node // nil for DEFAULT VALUES
	// Defaults holds, per table column, the bound DEFAULT expression (nil =
	// NULL).
	Defaults  []Expr
	Or        Conflict
	Upserts   []*Upsert
	Returning []Expr // bound against the new row (columns then rowid)
	RetCols   []ResultColumn
	Checks    []Expr // bound against the new row
	Indexes   []*IndexKeys
	// Generated holds, per column, its generation expression bound
	// against the row (nil for stored data).
	Generated []Expr
	// Referencing are the foreign keys referencing Table (nil for a view).
	Referencing *Referencing
	// InsteadOf marks an INSERT into a view: each row fires the view's
	// INSTEAD OF INSERT trigger and nothing is stored.
	InsteadOf bool
}

// IndexKeys is one index of a written table with its key expressions bound
// against the table's row (columns, then rowid).
type IndexKeys struct {
	Index *catalog.Index
	Keys  []Expr
	Where Expr // partial index predicate, nil for a full index
}

// Upsert is one ON CONFLICT clause. Set expressions are bound against the
// existing row (columns, then rowid) followed by the excluded row
// (columns, then rowid).
type Upsert struct {
	Target    []int // column indexes of the conflict target (nil = any)
	DoNothing bool
	SetCols   []int // -1 = rowid
	SetExprs  []Expr
	Where     Expr
}

// Update is UPDATE. Input produces the old rows: the table's columns, then
// the rowid (then any FROM columns); Set expressions are bound against it.
type Update struct {
	Table *catalog.Table
	// Defaults are the columns' DEFAULT expressions (nil = none), which a
	// REPLACE resolution of NOT NULL stores in place of a NULL.
	Defaults  []Expr
	Input     Node
	SetCols   []int // -1 = rowid
	SetExprs  []Expr
	Or        Conflict
	Returning []Expr // bound against the new row (columns then rowid)
	RetCols   []ResultColumn
	Checks    []Expr
	Indexes   []*IndexKeys
	Generated []Expr
	// Referencing are the foreign keys referencing Table (nil for a view).
	Referencing *Referencing
	// InsteadOf marks an UPDATE of a view: each selected row fires the
	// view's INSTEAD OF UPDATE trigger and nothing is stored.
	InsteadOf bool
}

// Delete is DELETE. Input produces the rows to delete: the table's
// columns, then the rowid.
type Delete struct {
	Table     *catalog.Table
	Input     Node
	Returning []Expr
	RetCols   []ResultColumn
	Indexes   []*IndexKeys
	// Referencing are the foreign keys referencing Table (nil for a view).
	Referencing *Referencing
	// InsteadOf marks a DELETE from a view: each selected row fires the
	// view's INSTEAD OF DELETE trigger and nothing is stored.
	InsteadOf bool
}

// CreateTable is CREATE TABLE; Table.Root is assigned at execution.
type CreateTable struct {
	Table       *catalog.Table
	IfNotExists bool
	AsSelect    *Query
	// Indexes are the automatic indexes of UNIQUE/PRIMARY KEY constraints.
	Indexes []*catalog.Index
}

// CreateIndex is CREATE INDEX.
type CreateIndex struct {
	Index       *catalog.Index
	IfNotExists bool
	Table       *catalog.Table
	// Keys are the key expressions bound against the table's row
	// (columns, then rowid).
	Keys  []Expr
	Where Expr
}

// AlterTable is ALTER TABLE; the engine applies Stmt to Table's CREATE
// text and data.
type AlterTable struct {
	Table *catalog.Table
	Stmt  *grammar.AlterTableStmt
	// Check is ADD CONSTRAINT … CHECK's expression bound over the
	// table's row, for the engine to test the rows already there.
	Check Expr
}

// CreateTrigger is CREATE TRIGGER.
type CreateTrigger struct {
	Trigger     *catalog.Trigger
	IfNotExists bool
}

// CreateView is CREATE VIEW.
type CreateView struct {
	View        *catalog.View
	IfNotExists bool
}

// Drop is DROP TABLE/INDEX/VIEW/TRIGGER.
type Drop struct {
	Kind grammar.ObjectKind
	// Schema is "", "main" or "temp"; with none the object is looked up
	// in temp first, then in main.
	Schema   string
	Name     string
	IfExists bool
}

// TxControl is BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE, ROLLBACK TO.
type TxControl struct {
	Op        string // "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "ROLLBACK TO"
	Name      string
	Immediate bool
}

// Pragma is PRAGMA name [= value].
type Pragma struct {
	Name string // lower-case
	// Schema is the qualifier, lower-case ("" when none).
	Schema string
	Arg    string // the value as text ("" when absent)
	HasArg bool
	// Query, for pragmas that return rows, produces them.
	Query *Query
}

// Explain is EXPLAIN QUERY PLAN: it returns the plan of Stmt as rows. With
// Analyze (EXPLAIN ANALYZE) it runs the query and reports each operator's
// actual rows and time.
type Explain struct {
	Stmt    Statement
	Analyze bool
}

// Analyze is ANALYZE [schema | [schema.]name]: gather statistics into
// sqlite_stat1 for every table (Name ""), one table, or one index; Schema
// ("main", "temp" or "" for both) limits where they are looked for.
type Analyze struct{ Schema, Name string }

// Reindex is REINDEX [[Schema.]Name]: the engine resolves Name as SQLite
// does (a collation when unqualified, else a table, else an index).
type Reindex struct{ Schema, Name string }

// Nop is a statement the engine runs outside the plan machinery: VACUUM,
// and VACUUM INTO with Into, the row-independent expression naming the
// file to write.
type Nop struct {
	What string
	Into Expr
}

func (*Query) stmtNode()         {}
func (*Insert) stmtNode()        {}
func (*Update) stmtNode()        {}
func (*Delete) stmtNode()        {}
func (*CreateTable) stmtNode()   {}
func (*CreateIndex) stmtNode()   {}
func (*CreateView) stmtNode()    {}
func (*AlterTable) stmtNode()    {}
func (*CreateTrigger) stmtNode() {}
func (*Drop) stmtNode()          {}
func (*TxControl) stmtNode()     {}
func (*Pragma) stmtNode()        {}
func (*Explain) stmtNode()       {}
func (*Nop) stmtNode()           {}
func (*Analyze) stmtNode()       {}
func (*Reindex) stmtNode()       {}
