package grammar

// TxMode is the locking mode of BEGIN.
type TxMode int

// Transaction modes.
const (
	TxDeferred TxMode = iota // BEGIN, BEGIN DEFERRED, START TRANSACTION
	TxImmediate
	TxExclusive
)

// BeginStmt is BEGIN [DEFERRED|IMMEDIATE|EXCLUSIVE] [TRANSACTION] or START TRANSACTION.
type BeginStmt struct {
	Position
	source
	Mode TxMode
}

// CommitStmt is COMMIT [TRANSACTION] or END [TRANSACTION].
type CommitStmt struct {
	Position
	source
}

// RollbackStmt is ROLLBACK [TRANSACTION] [TO [SAVEPOINT] name].
type RollbackStmt struct {
	Position
	source
	Savepoint string // "" for a full rollback
}

// SavepointStmt is SAVEPOINT name.
type SavepointStmt struct {
	Position
	source
	Name string
}

// ReleaseStmt is RELEASE [SAVEPOINT] name.
type ReleaseStmt struct {
	Position
	source
	Name string
}

// PragmaStmt is PRAGMA [schema.]name [= value | (value)]. A value written
// as a bare word (ON, WAL, NORMAL) is a ColumnRef with that Column.
type PragmaStmt struct {
	Position
	source
	Schema string
	Name   string
	Value  Expr // nil when absent
	Call   bool // written name(value) rather than name = value
}

// ExplainStmt is EXPLAIN [QUERY PLAN] statement.
type ExplainStmt struct {
	Position
	source
	QueryPlan bool
	Analyze   bool // EXPLAIN ANALYZE (PostgreSQL spelling)
	Stmt      Statement
}

// AnalyzeStmt is ANALYZE [[schema.]name].
type AnalyzeStmt struct {
	Position
	source
	Schema string
	Name   string
}

// ReindexStmt is REINDEX [[schema.]name]: every index, the indexes using
// collation name, table name's indexes, or index name.
type ReindexStmt struct {
	Position
	source
	Schema string
	Name   string
}

// CreateVirtualTableStmt is CREATE VIRTUAL TABLE [IF NOT EXISTS]
// [schema.]name USING module [(args)]; ladybug parses it only to refuse it
// by name. Args is the argument text as written, parentheses included.
type CreateVirtualTableStmt struct {
	Position
	source
	IfNotExists bool
	Schema      string
	Name        string
	Module      string
	Args        string
}

// VacuumStmt is VACUUM [schema] [INTO file].
type VacuumStmt struct {
	Position
	source
	Schema string
	Into   Expr
}

// AttachStmt is ATTACH [DATABASE] expr AS schema.
type AttachStmt struct {
	Position
	source
	File   Expr
	Schema string
}

// DetachStmt is DETACH [DATABASE] schema.
type DetachStmt struct {
	Position
	source
	Schema string
}

func (*BeginStmt) statementNode()     {}
func (*CommitStmt) statementNode()    {}
func (*RollbackStmt) statementNode()  {}
func (*SavepointStmt) statementNode() {}
func (*ReleaseStmt) statementNode()   {}
func (*PragmaStmt) statementNode()    {}
func (*ExplainStmt) statementNode()   {}
func (*AnalyzeStmt) statementNode()   {}
func (*VacuumStmt) statementNode()    {}
func (*ReindexStmt) statementNode()   {}

func (*CreateVirtualTableStmt) statementNode() {}
func (*AttachStmt) statementNode()             {}
func (*DetachStmt) statementNode()             {}
