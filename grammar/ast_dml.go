package grammar

// ConflictAction is the conflict resolution of INSERT OR ..., UPDATE OR ...
// and of constraint ON CONFLICT clauses.
type ConflictAction int

// Conflict resolutions.
const (
	ConflictDefault ConflictAction = iota // none given (ABORT)
	ConflictRollback
	ConflictAbort
	ConflictFail
	ConflictIgnore
	ConflictReplace
)

// InsertStmt is INSERT [OR action] INTO table [(columns)] source [upserts]
// [RETURNING ...], or REPLACE INTO ... (Replace set, Or ConflictReplace).
// Exactly one of Values, Select and DefaultValues gives the source.
type InsertStmt struct {
	Position
	source
	With          *With
	Or            ConflictAction
	Replace       bool
	Table         *TableName // Alias from "INTO t AS a"
	Columns       []string
	Values        [][]Expr
	Select        *SelectStmt
	DefaultValues bool
	Upserts       []*Upsert
	Returning     []*ResultColumn
}

// Upsert is one ON CONFLICT [(target) [WHERE ...]] DO NOTHING | DO UPDATE
// SET ... [WHERE ...] clause.
type Upsert struct {
	Position
	Target      []*IndexedColumn
	TargetWhere Expr
	DoNothing   bool
	Set         []*SetClause
	Where       Expr
}

// SetClause is "column = value" or "(c1, c2) = value" of UPDATE and upsert.
type SetClause struct {
	Position
	Columns []string
	Value   Expr
}

// UpdateStmt is UPDATE [OR action] table SET ... [FROM ...] [WHERE ...]
// [RETURNING ...].
type UpdateStmt struct {
	Position
	source
	With      *With
	Or        ConflictAction
	Table     *TableName
	Set       []*SetClause
	From      TableExpr
	Where     Expr
	Returning []*ResultColumn
}

// DeleteStmt is DELETE FROM table [WHERE ...] [RETURNING ...].
type DeleteStmt struct {
	Position
	source
	With      *With
	Table     *TableName
	Where     Expr
	Returning []*ResultColumn
}

func (*SelectStmt) statementNode() {}
func (*InsertStmt) statementNode() {}
func (*UpdateStmt) statementNode() {}
func (*DeleteStmt) statementNode() {}
