package grammar

// LiteralKind says what a Literal holds.
type LiteralKind int

// Literal kinds.
const (
	LitInt              LiteralKind = iota // 42, 0x1F
	LitReal                                // 1.5, .5, 1e10
	LitString                              // 'text'
	LitBlob                                // X'AB'
	LitNull                                // NULL
	LitTrue                                // TRUE
	LitFalse                               // FALSE
	LitCurrentTime                         // CURRENT_TIME
	LitCurrentDate                         // CURRENT_DATE
	LitCurrentTimestamp                    // CURRENT_TIMESTAMP
)

// Literal is a constant. Numbers are always unsigned; a sign is a UnaryExpr.
type Literal struct {
	Position
	Kind LiteralKind
	// Raw is the literal as written ('it''s', 0x1F, X'AB'); it may be empty
	// in a built tree, in which case Value is printed.
	Raw string
	// Value is the unescaped text of a string, the decoded bytes of a blob,
	// or Raw for numbers and keywords.
	Value string
}

// ParamKind says how a placeholder was written.
type ParamKind int

// Placeholder kinds.
const (
	ParamQuestion   ParamKind = iota // ?
	ParamNumbered                    // ?NNN
	ParamDollar                      // $N
	ParamColon                       // :name
	ParamAt                          // @name
	ParamDollarName                  // $name
)

// Param is a placeholder.
type Param struct {
	Position
	Kind ParamKind
	// Index is the 1-based argument number, given by SQLite's rule in
	// text order (see ParamNumbering): NNN for ?NNN and $N; for a bare ?
	// one more than the largest number before it in the statement; for a
	// name, that at its first appearance and the same number after.
	Index int
	// Name is the name of :name, @name and $name, without the prefix.
	Name string
}

// ColumnRef is a (possibly qualified) column name. Quotes are removed.
type ColumnRef struct {
	Position
	Schema string
	Table  string
	Column string
	// Quoted is set when an unqualified Column was written in double
	// quotes ("x"): SQLite reads such a name as a string literal when no
	// column has it, and the engine may choose to do the same.
	Quoted bool
}

// UnaryOp is a prefix operator.
type UnaryOp int

// Prefix operators.
const (
	OpNeg    UnaryOp = iota // -x
	OpPlus                  // +x
	OpBitNot                // ~x
	OpNot                   // NOT x
)

// UnaryExpr is a prefix operator applied to X.
type UnaryExpr struct {
	Position
	Op UnaryOp
	X  Expr
}

// BinaryOp is an infix operator.
type BinaryOp int

// Infix operators, lowest precedence first (see Precedence).
const (
	OpOr                BinaryOp = iota // OR
	OpAnd                               // AND
	OpEq                                // = and ==
	OpNe                                // != and <>
	OpIs                                // IS
	OpIsNot                             // IS NOT
	OpIsDistinctFrom                    // IS DISTINCT FROM
	OpIsNotDistinctFrom                 // IS NOT DISTINCT FROM
	OpLt                                // <
	OpLe                                // <=
	OpGt                                // >
	OpGe                                // >=
	OpBitAnd                            // &
	OpBitOr                             // |
	OpShl                               // <<
	OpShr                               // >>
	OpAdd                               // +
	OpSub                               // -
	OpMul                               // *
	OpDiv                               // /
	OpMod                               // %
	OpConcat                            // ||
	OpJSONExtract                       // ->
	OpJSONExtractText                   // ->>
)

// BinaryExpr is L Op R.
type BinaryExpr struct {
	Position
	Op BinaryOp
	L  Expr
	R  Expr
}

// LikeOp is a pattern-matching operator.
type LikeOp int

// Pattern-matching operators.
const (
	OpLike   LikeOp = iota // LIKE
	OpGlob                 // GLOB
	OpRegexp               // REGEXP
	OpMatch                // MATCH
	OpILike                // ILIKE
)

// LikeExpr is X [NOT] LIKE Pattern [ESCAPE Escape] and its relatives.
type LikeExpr struct {
	Position
	Not     bool
	Op      LikeOp
	X       Expr
	Pattern Expr
	Escape  Expr // nil when absent
}

// BetweenExpr is X [NOT] BETWEEN Lo AND Hi.
type BetweenExpr struct {
	Position
	Not bool
	X   Expr
	Lo  Expr
	Hi  Expr
}

// InExpr is X [NOT] IN (...). Exactly one of List (possibly empty: "IN ()"),
// Select, Table and Func describes the right-hand side.
type InExpr struct {
	Position
	Not    bool
	X      Expr
	List   []Expr
	Select *SelectStmt
	Table  *TableName // x IN t
	Func   *TableFunc // x IN json_each(...)
}

// ExistsExpr is [NOT] EXISTS (select).
type ExistsExpr struct {
	Position
	Not    bool
	Select *SelectStmt
}

// SubqueryExpr is a scalar subquery "(SELECT ...)".
type SubqueryExpr struct {
	Position
	Select *SelectStmt
}

// CaseExpr is CASE [Operand] WHEN ... THEN ... [ELSE ...] END.
type CaseExpr struct {
	Position
	Operand Expr // nil for the searched form
	Whens   []*When
	Else    Expr // nil when absent
}

// When is one WHEN Cond THEN Result arm of a CaseExpr.
type When struct {
	Position
	Cond   Expr
	Result Expr
}

// CastExpr is CAST(X AS Type), or X::Type when Postfix is set.
type CastExpr struct {
	Position
	X       Expr
	Type    *TypeName
	Postfix bool
}

// CollateExpr is X COLLATE Collation.
type CollateExpr struct {
	Position
	X         Expr
	Collation string
}

// FuncCall is a call of a scalar, aggregate or window function.
type FuncCall struct {
	Position
	Name     string // as written, unquoted
	Distinct bool   // f(DISTINCT x)
	Star     bool   // f(*)
	Args     []Expr
	OrderBy  []*OrderingTerm // aggregate ORDER BY inside the parentheses
	Filter   Expr            // FILTER (WHERE ...), nil when absent
	Over     *WindowSpec     // OVER (...), nil when absent
	OverName string          // OVER name
}

// IsNullExpr is the postfix X ISNULL (Not false) or X NOTNULL / X NOT NULL
// (Not true). "X IS NULL" is a BinaryExpr with OpIs.
type IsNullExpr struct {
	Position
	Not bool
	X   Expr
}

// TupleExpr is a parenthesised list of two or more expressions (a row
// value). A single parenthesised expression is just that expression.
type TupleExpr struct {
	Position
	Exprs []Expr
}

// RaiseAction is the action of RAISE(...) in a trigger.
type RaiseAction int

// RAISE actions.
const (
	RaiseIgnore RaiseAction = iota
	RaiseRollback
	RaiseAbort
	RaiseFail
)

// RaiseExpr is RAISE(IGNORE) or RAISE(action, message), used in triggers.
type RaiseExpr struct {
	Position
	Action  RaiseAction
	Message Expr // nil for IGNORE
}

func (*Literal) exprNode()      {}
func (*Param) exprNode()        {}
func (*ColumnRef) exprNode()    {}
func (*UnaryExpr) exprNode()    {}
func (*BinaryExpr) exprNode()   {}
func (*LikeExpr) exprNode()     {}
func (*BetweenExpr) exprNode()  {}
func (*InExpr) exprNode()       {}
func (*ExistsExpr) exprNode()   {}
func (*SubqueryExpr) exprNode() {}
func (*CaseExpr) exprNode()     {}
func (*CastExpr) exprNode()     {}
func (*CollateExpr) exprNode()  {}
func (*FuncCall) exprNode()     {}
func (*IsNullExpr) exprNode()   {}
func (*TupleExpr) exprNode()    {}
func (*RaiseExpr) exprNode()    {}
