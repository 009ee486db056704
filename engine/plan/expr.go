package plan

import "github.com/ladybugsql/ladybug/engine/types"

// Expr is a bound scalar expression.
type Expr interface{ exprNode() }

// ColRef reads column Idx of the input row.
type ColRef struct {
	Idx      int
	Affinity types.Affinity
	Collate  string // the column's declared collation, "" = BINARY
}

// OuterRef reads column Idx of the row Depth levels up (correlated
// subqueries); Depth 1 is the immediately enclosing query.
type OuterRef struct {
	Depth int
	Idx   int
	Ref   ColRef
}

// Const is a literal.
type Const struct{ V types.Value }

// Param is placeholder number Idx (0-based position in the argument list).
type Param struct{ Idx int }

// Unary is -x, +x, NOT x, ~x.
type Unary struct {
	Op string // "-", "+", "NOT", "~"
	X  Expr
}

// Binary is an arithmetic, comparison, logical, concatenation or bit
// operator.
type Binary struct {
	Op   string // "+", "-", "*", "/", "%", "||", "=", "<>", "<", "<=", ">", ">=", "AND", "OR", "&", "|", "<<", ">>", "IS", "IS NOT"
	L, R Expr
	// Coll is the collation a comparison uses, "" = BINARY.
	Coll string
	// TextAff marks a comparison under TEXT affinity whose operands are
	// converted per row (types.TextAffinityPair) rather than each on its
	// own: set when an operand is a compound scalar subquery, whose value
	// can be a number although its affinity is TEXT.
	TextAff bool
}

// Affinity applies an affinity to X before a comparison, as SQLite does
// when one operand is a column and the other is not; with Read, as
// reading a subquery's column does instead (types.Affinity.ApplyRead).
type Affinity struct {
	X    Expr
	Aff  types.Affinity
	Read bool
}

// Collate is x COLLATE name.
type Collate struct {
	X    Expr
	Name string
}

// Func is a scalar function call.
type Func struct {
	Name string // lower-case
	Args []Expr
}

// AggRef reads aggregate result Idx of the enclosing Aggregate node's
// output (after the group keys).
type AggRef struct{ Idx int }

// Case is CASE [operand] WHEN … THEN … [ELSE …] END.
type Case struct {
	Operand Expr // nil for a searched CASE
	Whens   []When
	Else    Expr // nil = NULL
}

// When is one WHEN … THEN … arm.
type When struct{ Cond, Then Expr }

// Cast is CAST(x AS type).
type Cast struct {
	X        Expr
	Type     string
	Affinity types.Affinity
}

// Like is LIKE, GLOB, REGEXP, ILIKE.
type Like struct {
	Op     string // "LIKE", "GLOB", "REGEXP", "ILIKE"
	X, Pat Expr
	Escape Expr
	Not    bool
}

// Between is x [NOT] BETWEEN lo AND hi.
type Between struct {
	X, Lo, Hi Expr
	Not       bool
}

// IsNull is x IS [NOT] NULL.
type IsNull struct {
	X   Expr
	Not bool
}

// InList is x [NOT] IN (list…).
type InList struct {
	X    Expr
	List []Expr
	Not  bool
}

// InSub is x [NOT] IN (subquery).
type InSub struct {
	X   []Expr // one per subquery column (row values)
	Sub *Subquery
	Not bool
}

// Exists is [NOT] EXISTS (subquery).
type Exists struct {
	Sub *Subquery
	Not bool
}

// CheckedSum is Sum, or sum()'s "integer overflow" error when Overflowed
// is 1: the error of a group pre-aggregated below a join (AggPartialSum,
// AggSumOverflow) that survived the join, raised where the original
// aggregate raised it (eager-aggregate).
type CheckedSum struct {
	Sum, Overflowed Expr
}

// Raise is RAISE(IGNORE | ROLLBACK | ABORT | FAIL, message) in a trigger.
type Raise struct {
	Action string // "IGNORE", "ROLLBACK", "ABORT", "FAIL"
	Msg    Expr   // nil for IGNORE
}

// ScalarSub is a scalar subquery: its first row's column Col, or NULL. A
// row-valued subquery binds to one ScalarSub per column sharing one Sub.
type ScalarSub struct {
	Sub *Subquery
	Col int
}

// Subquery is a nested query. Correlated subqueries read OuterRefs and are
// re-run per outer row; uncorrelated ones run once per execution.
type Subquery struct {
	Plan       Node
	Correlated bool
	ID         int // unique within the statement, for caching results
	optimized  bool
}

func (*ColRef) exprNode()     {}
func (*OuterRef) exprNode()   {}
func (*Const) exprNode()      {}
func (*Param) exprNode()      {}
func (*Unary) exprNode()      {}
func (*Binary) exprNode()     {}
func (*Collate) exprNode()    {}
func (*Affinity) exprNode()   {}
func (*Func) exprNode()       {}
func (*AggRef) exprNode()     {}
func (*Case) exprNode()       {}
func (*Cast) exprNode()       {}
func (*Like) exprNode()       {}
func (*Between) exprNode()    {}
func (*IsNull) exprNode()     {}
func (*InList) exprNode()     {}
func (*InSub) exprNode()      {}
func (*Exists) exprNode()     {}
func (*ScalarSub) exprNode()  {}
func (*Raise) exprNode()      {}
func (*CheckedSum) exprNode() {}
