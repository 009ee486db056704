package grammar

// The SQL/PGQ part of the tree: property graph DDL and GRAPH_TABLE.

// CreatePropertyGraphStmt is CREATE PROPERTY GRAPH [IF NOT EXISTS] name
// VERTEX TABLES (…) [EDGE TABLES (…)].
type CreatePropertyGraphStmt struct {
	Position
	source
	IfNotExists bool
	Schema      string
	Name        string
	Vertices    []*ElementTable
	Edges       []*ElementTable
}

// ElementTable is one vertex or edge table of a property graph. Source
// and Dest are set for an edge table only.
type ElementTable struct {
	Position
	Table  string
	Alias  string   // "" when not written: the element table is named Table
	Key    []string // nil when not written (the primary key)
	Source *ElementRef
	Dest   *ElementRef
	Labels []*LabelDef // empty: one default label with all columns
}

// Name returns the element table's name in the graph: its alias, or the
// table's name.
func (e *ElementTable) Name() string {
	if e.Alias != "" {
		return e.Alias
	}
	return e.Table
}

// ElementRef is an edge's SOURCE or DESTINATION: [KEY (cols)] REFERENCES
// vertex [(cols)]. Nil Key and Columns were not written.
type ElementRef struct {
	Position
	Key     []string
	Vertex  string
	Columns []string
}

// PropsKind says how a label lists its properties.
type PropsKind int

// Property list kinds.
const (
	PropsDefault PropsKind = iota // not written: all columns
	PropsAll                      // PROPERTIES [ARE] ALL COLUMNS
	PropsNone                     // NO PROPERTIES
	PropsList                     // PROPERTIES (…)
)

// LabelDef is LABEL name [properties], or the element table's default
// label (Name "") with its properties.
type LabelDef struct {
	Position
	Name    string
	Default bool // written DEFAULT LABEL
	Props   PropsKind
	List    []*PropertyDef
}

// PropertyDef is "expr [AS name]" in a PROPERTIES list.
type PropertyDef struct {
	Position
	Expr Expr
	Name string // "" when not written (the expression is a column)
}

// DropPropertyGraphStmt is DROP PROPERTY GRAPH [IF EXISTS] name.
type DropPropertyGraphStmt struct {
	Position
	source
	IfExists bool
	Schema   string
	Name     string
}

// AlterPropertyGraphStmt is ALTER PROPERTY GRAPH name followed by one or
// more ADD|DROP VERTEX|EDGE TABLES (…).
type AlterPropertyGraphStmt struct {
	Position
	source
	Schema  string
	Name    string
	Actions []*AlterGraphAction
}

// AlterGraphAction adds or drops element tables; a drop names them only.
type AlterGraphAction struct {
	Position
	Drop   bool
	Edge   bool
	Tables []*ElementTable
}

// GraphTable is GRAPH_TABLE (graph MATCH paths [WHERE …] COLUMNS (…))
// [AS alias] in FROM.
type GraphTable struct {
	Position
	Schema  string
	Graph   string
	Paths   []*PathPattern
	Where   Expr
	Columns []*ResultColumn
	Alias   string
}

// PathSearch is a path pattern's search prefix.
type PathSearch int

// Search prefixes.
const (
	SearchAll         PathSearch = iota // none: every matching path
	SearchAny                           // ANY [k]
	SearchAnyShortest                   // ANY SHORTEST
	SearchAllShortest                   // ALL SHORTEST
)

// PathMode is a path pattern's restrictor.
type PathMode int

// Path modes.
const (
	ModeDefault PathMode = iota // not written (WALK)
	ModeWalk
	ModeTrail
	ModeAcyclic
	ModeSimple
)

// PathPattern is one comma-separated path pattern of MATCH.
type PathPattern struct {
	Position
	Var    string // path variable, "" when none
	Search PathSearch
	Count  int // k of ANY k, 0 when not written
	Mode   PathMode
	Elems  []PathElem
}

// PathElem is *VertexPattern, *EdgePattern or *ParenPath.
type PathElem interface {
	Node
	pathElemNode()
}

// VertexPattern is (var IS label WHERE cond); every part is optional.
type VertexPattern struct {
	Position
	Var   string
	Label LabelExpr // nil when not written
	Where Expr
}

// EdgeDir is the direction an edge pattern matches.
type EdgeDir int

// Edge directions.
const (
	EdgeRight     EdgeDir = iota // -[e]-> or ->
	EdgeLeft                     // <-[e]- or <-
	EdgeAny                      // -[e]- or -
	EdgeLeftRight                // <-[e]-> or <->
)

// EdgePattern is -[var IS label WHERE cond]-> (in any direction),
// Abbrev when written without brackets, with an optional quantifier.
type EdgePattern struct {
	Position
	Dir    EdgeDir
	Abbrev bool
	Var    string
	Label  LabelExpr
	Where  Expr
	Quant  *Quantifier
}

// ParenPath is a parenthesised path pattern: ( [mode] path [WHERE …] )
// with an optional quantifier.
type ParenPath struct {
	Position
	Mode  PathMode
	Elems []PathElem
	Where Expr
	Quant *Quantifier
}

// QuantKind is how a quantifier is written.
type QuantKind int

// Quantifier spellings.
const (
	QuantBraces QuantKind = iota // {n}, {n,m}, {n,}, {,m}
	QuantStar                    // *
	QuantPlus                    // +
)

// Quantifier repeats an edge or a parenthesised path Min to Max times;
// Max is -1 when unbounded. Single is set for {n} (Min = Max).
type Quantifier struct {
	Position
	Kind   QuantKind
	Min    int
	Max    int
	Single bool
}

// LabelExpr is a label expression: *LabelName, *LabelAny, *LabelNot,
// *LabelAnd or *LabelOr.
type LabelExpr interface {
	Node
	labelExprNode()
}

// LabelName is one label.
type LabelName struct {
	Position
	Name string
}

// LabelAny is %, any label.
type LabelAny struct{ Position }

// LabelNot is !X.
type LabelNot struct {
	Position
	X LabelExpr
}

// LabelAnd is L & R.
type LabelAnd struct {
	Position
	L, R LabelExpr
}

// LabelOr is L | R.
type LabelOr struct {
	Position
	L, R LabelExpr
}

func (*CreatePropertyGraphStmt) statementNode() {}
func (*DropPropertyGraphStmt) statementNode()   {}
func (*AlterPropertyGraphStmt) statementNode()  {}
func (*GraphTable) tableExprNode()              {}
func (*VertexPattern) pathElemNode()            {}
func (*EdgePattern) pathElemNode()              {}
func (*ParenPath) pathElemNode()                {}
func (*LabelName) labelExprNode()               {}
func (*LabelAny) labelExprNode()                {}
func (*LabelNot) labelExprNode()                {}
func (*LabelAnd) labelExprNode()                {}
func (*LabelOr) labelExprNode()                 {}
