package grammar

// SelectStmt is a query: [WITH ...] body [ORDER BY ...] [LIMIT ... [OFFSET ...]].
// "LIMIT m, n" and "OFFSET m ROWS FETCH FIRST n ROWS ONLY" are stored as
// Limit n, Offset m.
type SelectStmt struct {
	Position
	source
	With    *With // nil when absent
	Body    SelectBody
	OrderBy []*OrderingTerm
	Limit   Expr // nil when absent
	Offset  Expr // nil when absent
}

// With is a WITH [RECURSIVE] clause.
type With struct {
	Position
	Recursive bool
	CTEs      []*CTE
}

// Materialization is the [NOT] MATERIALIZED hint of a CTE.
type Materialization int

// CTE materialization hints.
const (
	MaterializeDefault Materialization = iota
	Materialized
	NotMaterialized
)

// CTE is one common table expression: Name [(Columns)] AS [hint] (Select).
type CTE struct {
	Position
	Name         string
	Columns      []string
	Materialized Materialization
	Select       *SelectStmt
}

// SelectCore is SELECT [DISTINCT] columns [FROM] [WHERE] [GROUP BY [HAVING]] [WINDOW].
type SelectCore struct {
	Position
	Distinct bool
	Columns  []*ResultColumn
	From     TableExpr // nil when absent
	Where    Expr
	GroupBy  []Expr
	Having   Expr
	Windows  []*NamedWindow
}

// ResultColumn is one item of a select list or RETURNING clause: "*",
// "t.*" (TableStar) or Expr [AS Alias].
type ResultColumn struct {
	Position
	Expr      Expr
	Alias     string
	Star      bool   // *
	TableStar string // t.*
	// Text is the exact source text of Expr; SQLite names an unaliased
	// result column by it. Empty in a built tree.
	Text string
}

// ValuesClause is VALUES (...), (...) used as a query.
type ValuesClause struct {
	Position
	Rows [][]Expr
}

// CompoundOp is a set operator between two select bodies.
type CompoundOp int

// Set operators.
const (
	Union CompoundOp = iota
	UnionAll
	Intersect
	Except
)

// CompoundSelect is Left Op Right. Chains are left-associative: a UNION b
// EXCEPT c is (a UNION b) EXCEPT c.
type CompoundSelect struct {
	Position
	Op    CompoundOp
	Left  SelectBody
	Right SelectBody
}

// ParenSelect is a parenthesised query used as an operand of a compound:
// (SELECT ... ORDER BY ... LIMIT ...) UNION ...
type ParenSelect struct {
	Position
	Select *SelectStmt
}

// SortOrder is ASC, DESC or unspecified.
type SortOrder int

// Sort orders.
const (
	SortDefault SortOrder = iota
	SortAsc
	SortDesc
)

// NullsOrder is NULLS FIRST, NULLS LAST or unspecified.
type NullsOrder int

// NULLS placements.
const (
	NullsDefault NullsOrder = iota
	NullsFirst
	NullsLast
)

// OrderingTerm is one ORDER BY item. A COLLATE is a CollateExpr in Expr;
// an ordinal ("ORDER BY 2") is an integer Literal.
type OrderingTerm struct {
	Position
	Expr  Expr
	Order SortOrder
	Nulls NullsOrder
}

// NamedWindow is one "name AS (spec)" of a WINDOW clause.
type NamedWindow struct {
	Position
	Name string
	Spec *WindowSpec
}

// WindowSpec is the window of OVER (...) or of a WINDOW clause.
type WindowSpec struct {
	Position
	Base        string // an existing window name the spec extends
	PartitionBy []Expr
	OrderBy     []*OrderingTerm
	Frame       *FrameSpec // nil when absent
}

// FrameUnit is ROWS, RANGE or GROUPS.
type FrameUnit int

// Frame units.
const (
	FrameRows FrameUnit = iota
	FrameRange
	FrameGroups
)

// FrameExclude is the EXCLUDE clause of a frame.
type FrameExclude int

// Frame exclusions.
const (
	ExcludeDefault FrameExclude = iota // absent (EXCLUDE NO OTHERS)
	ExcludeNoOthers
	ExcludeCurrentRow
	ExcludeGroup
	ExcludeTies
)

// FrameSpec is "unit start" or "unit BETWEEN start AND end" [EXCLUDE ...].
type FrameSpec struct {
	Position
	Unit    FrameUnit
	Start   *FrameBound
	End     *FrameBound // nil without BETWEEN
	Exclude FrameExclude
}

// BoundKind is the kind of a frame boundary.
type BoundKind int

// Frame boundaries.
const (
	UnboundedPreceding BoundKind = iota
	Preceding                    // expr PRECEDING
	CurrentRow
	Following // expr FOLLOWING
	UnboundedFollowing
)

// FrameBound is one end of a frame; Offset is set for Preceding and Following.
type FrameBound struct {
	Position
	Kind   BoundKind
	Offset Expr
}

// TableName is a named table in FROM (or the target of a DML statement),
// with an optional alias and INDEXED BY / NOT INDEXED hint.
type TableName struct {
	Position
	Schema     string
	Name       string
	Alias      string
	Indexed    string // INDEXED BY name
	NotIndexed bool   // NOT INDEXED
}

// TableFunc is a table-valued function in FROM: json_each(x) AS j.
type TableFunc struct {
	Position
	Schema string
	Name   string
	Args   []Expr
	Alias  string
}

// SubqueryTable is "(SELECT ...) [AS] alias" in FROM.
type SubqueryTable struct {
	Position
	Select *SelectStmt
	Alias  string
}

// JoinKind is the kind of a join.
type JoinKind int

// Join kinds. A comma join is JoinCross with Join.Comma set.
const (
	JoinInner JoinKind = iota
	JoinLeft
	JoinRight
	JoinFull
	JoinCross
)

// Join is Left JOIN Right. Chains are left-associative: a JOIN b JOIN c is
// (a JOIN b) JOIN c.
type Join struct {
	Position
	Kind    JoinKind
	Natural bool
	Comma   bool // written "a, b"
	Left    TableExpr
	Right   TableExpr
	On      Expr     // nil when absent
	Using   []string // nil when absent
	// Paren is set for a join written in parentheses as one FROM item,
	// "(a JOIN b ON …) [AS alias]"; Alias names it then.
	Paren bool
	Alias string
}

func (*SelectCore) selectBodyNode()     {}
func (*ValuesClause) selectBodyNode()   {}
func (*CompoundSelect) selectBodyNode() {}
func (*ParenSelect) selectBodyNode()    {}

func (*TableName) tableExprNode()     {}
func (*TableFunc) tableExprNode()     {}
func (*SubqueryTable) tableExprNode() {}
func (*Join) tableExprNode()          {}
