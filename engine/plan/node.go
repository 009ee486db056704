package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
)

// Node is a logical plan node; it produces rows of Columns() from the rows
// of its Children(). Nodes are not changed once optimized; WithChildren
// returns a copy over other inputs (or an error for a wrong count), so
// Walk and Transform reach every node without listing node types.
type Node interface {
	Columns() []Column
	Children() []Node
	WithChildren(children ...Node) (Node, error)
}

// Column describes one output column of a node.
type Column struct {
	Name     string
	Table    string // qualifier it can be referenced by ("" for none)
	DeclType string
	Affinity types.Affinity
	Collate  string
	NotNull  bool
	Hidden   bool // not expanded by *, e.g. a join's duplicate USING column
	// Nested marks a nested join's column under its own table's name:
	// hidden, but expanded by that table's t.*.
	Nested bool
	// RowKey marks a scan's hidden row key column (see NewScan).
	RowKey RowKey
}

// RowKey tells a scan's hidden row key column from the others.
type RowKey uint8

// Row key kinds.
const (
	NotRowKey RowKey = iota
	// RowidKey is the rowid: rowid, _rowid_ and oid name it when no
	// column takes the name.
	RowidKey
	// NoRowidKey is a WITHOUT ROWID table's row key, which SQL cannot
	// name.
	NoRowidKey
)

// Scan reads a table. Its output is the table's columns in order, and
// Rowid reads the rowid when the table has no alias column. Needed marks
// the output columns the query reads (nil = all; the last entry is the
// rowid), so decoding skips the rest.
type Scan struct {
	Table  *catalog.Table
	Alias  string
	Cols   []Column
	Needed []bool
	// Lookup, when set, restricts the scan to one rowid or a rowid range.
	Lookup *RowidRange
	// Index, when set, scans an index for the key range instead.
	Index *IndexRange
	// RowLimit, when set, is the LIMIT directly above the scan (through
	// projections only): the scan reads at most its limit plus offset
	// rows (see limitIntoScan).
	RowLimit *LimitBound
	// Reverse reads a table scan (no Index) from its highest rowid down,
	// for ORDER BY rowid DESC (see orderByIndex).
	Reverse bool
	// Size is the table's size class when the binder sized it (ANALYZE
	// has not measured it; see Binder.SizeTables), else 0.
	Size SizeClass
}

// LimitBound is a LIMIT's row count and OFFSET (nil = none) as a value, for
// a node that honours a LIMIT above it.
type LimitBound struct {
	Limit, Offset Expr
}

// RowidRange restricts a scan to rowids in [Lo, Hi] (nil bound = open).
type RowidRange struct {
	Eq     Expr // rowid = Eq
	Lo, Hi Expr
	LoIncl bool
	HiIncl bool
	// In and InSub, when set, read the rows whose rowid is one of the
	// values of an IN list or of an uncorrelated IN subquery, in rowid
	// order (no other field is set then; see rowidIn).
	In    []Expr
	InSub *InSub
}

// IndexRange scans index Index for key prefixes: equality on the first
// len(Eq) columns, then an optional range on the next one.
type IndexRange struct {
	Index *catalog.Index
	Eq    []Expr
	// EqNull marks, per Eq position, a "column IS NULL" match: Eq holds a
	// NULL constant that seeks the NULL entries instead of matching none.
	EqNull []bool
	Lo, Hi Expr
	LoIncl bool
	HiIncl bool
	// NotNull skips the entries whose column after the equality prefix is
	// NULL (for min/max, minMaxFromIndex); Reverse reads the range from
	// its last entry backwards (max, and ORDER BY … DESC via orderByIndex;
	// not with In or Like).
	NotNull bool
	Reverse bool
	// In, when set, seeks each distinct value of an IN list on the column
	// after the equality prefix, in key order (no Lo/Hi then).
	In []Expr
	// InSub, when set, seeks like In for each distinct value of an
	// uncorrelated IN subquery's column (see findInSub).
	InSub *InSub
	// Like, when set, narrows the column after the equality prefix to the
	// keys a LIKE/GLOB pattern's literal prefix allows; the predicate
	// stays as a filter.
	Like *LikePrefix
}

// LikePrefix is a prefix LIKE or GLOB on an index column: LIKE on a
// NOCASE column, GLOB on a BINARY one, both of TEXT affinity.
type LikePrefix struct {
	Pat  Expr
	Glob bool
}

// Columns implements Node.
func (s *Scan) Columns() []Column { return s.Cols }

// RowidIdx is the pseudo-column index of the rowid in a Scan's output: it
// comes after the table's columns.
func (s *Scan) RowidIdx() int { return len(s.Table.Columns) }

// Single produces one row of no columns (FROM-less SELECT).
type Single struct{}

// Columns implements Node.
func (*Single) Columns() []Column { return nil }

// Values produces literal rows.
type Values struct {
	Rows [][]Expr
	Cols []Column
}

// Columns implements Node.
func (v *Values) Columns() []Column { return v.Cols }

// Filter keeps rows where Pred is true.
type Filter struct {
	Input Node
	Pred  Expr
}

// Columns implements Node.
func (f *Filter) Columns() []Column { return f.Input.Columns() }

// Project computes Exprs over each input row.
type Project struct {
	Input Node
	Exprs []Expr
	Cols  []Column
	// Plain marks the output of a derived table or CTE: its values leave
	// without a JSON subtype, as in SQLite.
	Plain bool
}

// Columns implements Node.
func (p *Project) Columns() []Column { return p.Cols }

// Limit skips Offset rows then passes at most Limit (nil = no limit).
type Limit struct {
	Input         Node
	Limit, Offset Expr
}

// Columns implements Node.
func (l *Limit) Columns() []Column { return l.Input.Columns() }

// SortKey is one ORDER BY key over the input's columns.
type SortKey struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool // SQLite default: NULLs first ascending, last descending
	Collate    string
}

// Sort orders its input; TopN > 0 keeps only the first TopN rows.
type Sort struct {
	Input Node
	Keys  []SortKey
	// Limit and Offset, when set, let the sort keep only the top rows.
	Limit, Offset Expr
}

// Columns implements Node.
func (s *Sort) Columns() []Column { return s.Input.Columns() }

// AggCall is one aggregate function call: a SQL aggregate by Name, or one
// the planner plants (Kind).
type AggCall struct {
	Kind     AggKind
	Name     string // lower-case; "" unless Kind is AggNamed
	Args     []Expr
	Star     bool
	Distinct bool
	Filter   Expr
	OrderBy  []SortKey
	// Twin, for AggSumOverflow, is the position in the same Aggregate's
	// Aggs of the AggPartialSum over the same argument, whose accumulator
	// already knows whether the sum overflowed (-1: add the rows again).
	Twin int
}

// AggKind tells a SQL aggregate from the ones the planner plants.
type AggKind uint8

// Aggregate kinds.
const (
	// AggNamed is the SQL aggregate function Name.
	AggNamed AggKind = iota
	// AggBare yields a bare column's value: the row of a min() or max()
	// beside it, else an arbitrary row of the group, as in SQLite.
	AggBare
	// AggFirst yields the first value of its argument in the group
	// (group-by-rowid's functionally dependent columns).
	AggFirst
	// AggPartialSum is sum() yielding NULL instead of failing when its
	// integers overflow: a group pre-aggregated below a join may be
	// dropped by the join, and then its overflow must not fail the query
	// (eager-aggregate).
	AggPartialSum
	// AggSumOverflow yields 1 when sum() over its argument overflows,
	// else 0 (see Twin).
	AggSumOverflow
)

// Aggregate groups its input by Group and computes Aggs per group. Its
// output is the group keys followed by the aggregates.
type Aggregate struct {
	Input Node
	Group []Expr
	Aggs  []AggCall
	Cols  []Column
	// Stream, with Sorted, emits each group as soon as the next begins,
	// so a LIMIT above stops the input early (group-limit).
	Stream bool
	// Sorted marks input ordered by the group keys (group-by-index): a
	// group ends where the key changes, no hash table is built, and groups
	// come out in key order.
	Sorted bool
	// Eager marks a pre-aggregation below a join (eager-aggregate): one
	// side grouped by its join column before the join.
	Eager bool
}

// Columns implements Node.
func (a *Aggregate) Columns() []Column { return a.Cols }

// Distinct removes duplicate rows.
type Distinct struct {
	Input Node
	// Sorted marks input ordered by all its columns (distinct-by-index):
	// duplicates are adjacent, so a row is kept when it differs from the
	// one before, with no hash table.
	Sorted bool
}

// Columns implements Node.
func (d *Distinct) Columns() []Column { return d.Input.Columns() }

// JoinKind is the kind of a join.
type JoinKind uint8

// Join kinds.
const (
	JoinInner JoinKind = iota
	JoinLeft
	JoinRight
	JoinFull
	JoinCross
	// JoinSemi keeps each left row that has at least one match, once;
	// JoinAnti keeps each left row that has none. Both output the left
	// columns only (decorrelated IN and EXISTS subqueries).
	JoinSemi
	JoinAnti
)

// JoinMethod is how a Join finds the right rows matching a left row.
type JoinMethod uint8

// Join methods.
const (
	// JoinHash materialises the right side, in a hash table on the keys
	// when there are any (nested loops over all right rows otherwise).
	JoinHash JoinMethod = iota
	// JoinIndex re-runs the right side once per left row: the right plan is
	// a rowid or index lookup whose key expressions read the left row's
	// evaluated LeftKeys as OuterRef{Depth: 1, Idx: key number}. RightKeys
	// still describe the keys; the ones the lookup does not cover are
	// checked as part of On.
	JoinIndex
)

// Join combines Left and Right; output is left columns then right columns
// (left columns only for JoinSemi and JoinAnti). LeftKeys/RightKeys are
// equi-join keys (hash join) and On the residual condition.
type Join struct {
	Kind        JoinKind
	Method      JoinMethod
	Left, Right Node
	On          Expr
	LeftKeys    []Expr
	RightKeys   []Expr
	Cols        []Column
	// Needed marks the output columns the plan above or the ON reads
	// (set by column pruning; nil: all): the executor fills only those
	// in the rows it emits.
	Needed []bool
}

// SemiLike reports whether the join outputs only its left columns.
func (k JoinKind) SemiLike() bool { return k == JoinSemi || k == JoinAnti }

// String is the kind's lower-case SQL name ("semi", "anti" for the
// decorrelation joins).
func (k JoinKind) String() string {
	if int(k) < len(joinKindNames) {
		return joinKindNames[k]
	}
	return "?"
}

var joinKindNames = [...]string{"inner", "left", "right", "full", "cross", "semi", "anti"}

// Columns implements Node.
func (j *Join) Columns() []Column { return j.Cols }

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind uint8

// Set operation kinds.
const (
	Union SetOpKind = iota
	Intersect
	Except
)

// SetOp combines two queries with the same column count.
type SetOp struct {
	Op          SetOpKind
	All         bool
	Left, Right Node
	// Cols are the leftmost arm's columns with the compound's affinity
	// (see compoundColumns); nil means the left input's.
	Cols []Column
}

// Columns implements Node.
func (s *SetOp) Columns() []Column {
	if s.Cols != nil {
		return s.Cols
	}
	return s.Left.Columns()
}

// CTERef reads the rows of a materialised common table expression.
type CTERef struct {
	CTE  *CTE
	Cols []Column
	// Current is set for a reference inside the CTE's own recursive
	// terms: it reads the row just taken from the queue.
	Current bool
}

// Columns implements Node.
func (c *CTERef) Columns() []Column { return c.Cols }

// CTE is a recursive common table expression: Plan gives the setup rows,
// each of Steps runs over one row taken from the queue (read through
// CTERef nodes) and adds its rows to the queue.
type CTE struct {
	Name     string
	Plan     Node   // the setup terms
	Steps    []Node // the recursive terms, in order
	UnionAll bool   // false: a row already queued once is dropped (UNION)
	Cols     []Column
	ID       int
	// Order, when set, makes the queue a priority queue (ties in FIFO
	// order); its keys index the CTE's columns.
	Order []SortKey
	// Limit and Offset, when set, bound the rows the recursion outputs.
	Limit, Offset Expr
	optimized     bool
}

// Window computes window functions over its input; output is the input's
// columns followed by one column per function.
type Window struct {
	Input Node
	Funcs []WindowFunc
	Cols  []Column
}

// WindowFunc is one window function call with its window.
type WindowFunc struct {
	Name      string
	Args      []Expr
	Star      bool
	Distinct  bool
	Filter    Expr
	Partition []Expr
	Order     []SortKey
	Frame     Frame
}

// Frame is a window frame; the zero value is SQLite's default (RANGE
// BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, or the whole partition when
// there is no ORDER BY).
type Frame struct {
	Set       bool
	Unit      string // "ROWS", "RANGE", "GROUPS"
	StartKind string // "UNBOUNDED PRECEDING", "PRECEDING", "CURRENT ROW", "FOLLOWING"
	Start     Expr
	EndKind   string // same kinds plus "UNBOUNDED FOLLOWING"
	End       Expr
	Exclude   string
}

// Columns implements Node.
func (w *Window) Columns() []Column { return w.Cols }

// TableFunc is a table-valued function (pragma_table_info, json_each…).
type TableFunc struct {
	Name string
	Args []Expr
	Cols []Column
}

// Lateral joins each row of Left with the rows of a table-valued function
// whose arguments read that row (FROM t JOIN pragma_table_info(t.name)).
// Output is Left's columns then the function's; On filters the pairs.
type Lateral struct {
	Left Node
	Func *TableFunc // Args bound against Left's columns
	On   Expr
	Kind JoinKind // JoinInner, JoinCross or JoinLeft
	Cols []Column
}

// Columns implements Node.
func (l *Lateral) Columns() []Column { return l.Cols }

// Columns implements Node.
func (t *TableFunc) Columns() []Column { return t.Cols }
