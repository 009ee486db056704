package exec

import (
	"unsafe"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// builder turns a plan tree into an operator tree. Operators are built per
// execution (they hold per-run buffers); plans are shared.
type builder struct {
	cp *compiler
	// ctes holds materialised recursive CTEs by ID for this execution.
	ctes map[int]*cteStore
	// profile, when set, receives the stats of every operator built (see
	// BuildProfiled); bare makes the next build skip the wrapping once.
	profile Profile
	bare    bool
	cpv     compiler // cp's memory: a builder is one allocation
	// scr lends the tree's evaluators their intermediate buffers.
	scr scratchStack
	// writes marks a write's builder (NewCompiler): its statement changes
	// tables while its subqueries run, so they are not memoised.
	writes bool
}

// newBuilder returns a builder and its compiler, allocated together (a
// constant fold builds one per folded expression); ctes is made by the
// first recursive CTE.
func newBuilder() *builder {
	b := &builder{}
	b.init()
	return b
}

// init points b at its compiler.
func (b *builder) init() {
	b.cpv.b = b
	b.cp = &b.cpv
}

// reset readies a builder for another tree, keeping its scratch stack's
// room (a fold's, reused: see ConstEvaluator).
func (b *builder) reset() {
	b.ctes, b.profile, b.bare = nil, nil, false
	b.cpv.aggBase = 0
	b.scr.top, b.scr.stop = 0, 0
}

// Build returns the operator tree of a query plan.
func Build(n plan.Node) (Operator, error) { return newBuilder().build(n) }

// filter builds a filter of pred over in. The conjuncts that read no row
// of in (plan.RunIndependent: literals, parameters, the outer row of a
// correlated run) become a constFilterOp, tested once per run before in
// is read; a correlated subquery whose outer-only condition fails then
// reads no row at all.
func (b *builder) filter(pred plan.Expr, in Operator) (Operator, error) {
	once, rest := splitRunIndependent(pred)
	if rest != nil {
		ev, err := b.cp.predicate(rest)
		if err != nil {
			return nil, err
		}
		in = &filterOp{in: in, pred: ev, buf: scratch()}
	}
	if once == nil {
		return in, nil
	}
	ev, err := b.cp.predicate(once)
	if err != nil {
		return nil, err
	}
	return &constFilterOp{in: in, pred: ev}, nil
}

// splitRunIndependent splits pred's conjuncts into those that read no row
// (plan.RunIndependent) and the rest, each nil when empty. A condition
// whose conjuncts all go one way is returned whole, not rebuilt.
func splitRunIndependent(pred plan.Expr) (once, rest plan.Expr) {
	if pred == nil {
		return nil, nil
	}
	switch conjunctsIndependent(pred) {
	case allIndependent:
		return pred, nil
	case noneIndependent:
		return nil, pred
	}
	for _, c := range plan.Conjuncts(pred) {
		if plan.RunIndependent(c) {
			once = andOf(once, c)
		} else {
			rest = andOf(rest, c)
		}
	}
	return once, rest
}

const (
	noneIndependent = 1 << iota
	allIndependent
	someIndependent = noneIndependent | allIndependent
)

// conjunctsIndependent reports whether none, all or some of e's
// conjuncts are plan.RunIndependent.
func conjunctsIndependent(e plan.Expr) int {
	if bin, ok := e.(*plan.Binary); ok && bin.Op == "AND" {
		l, r := conjunctsIndependent(bin.L), conjunctsIndependent(bin.R)
		if l != r {
			return someIndependent
		}
		return l
	}
	if plan.RunIndependent(e) {
		return allIndependent
	}
	return noneIndependent
}

// andOf is a AND b, or b alone when a is nil.
func andOf(a, b plan.Expr) plan.Expr {
	if a == nil {
		return b
	}
	return &plan.Binary{Op: "AND", L: a, R: b}
}

func (b *builder) build(n plan.Node) (Operator, error) {
	if b.profile != nil && !b.bare {
		return b.buildProfiled(n)
	}
	b.bare = false
	switch n := n.(type) {
	case *plan.Scan:
		if n.Table.Virtual {
			return b.newMasterScan(n)
		}
		if n.Index != nil {
			return b.cp.newIndexScan(n)
		}
		if n.Lookup != nil && (n.Lookup.In != nil || n.Lookup.InSub != nil) {
			return b.cp.newRowidIn(n)
		}
		return b.cp.newScan(n)
	case *plan.TableCount:
		return newTableCount(n), nil
	case *plan.Single:
		return &singleOp{}, nil
	case *plan.Values:
		return b.values(n)
	case *plan.Filter:
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		return b.filter(n.Pred, in)
	case *plan.Project:
		return b.project(n)
	case *plan.Limit:
		return b.limit(n)
	case *plan.Sort:
		return b.sort(n)
	case *plan.Aggregate:
		if op, err := b.scanAgg(n); op != nil || err != nil {
			return op, err
		}
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		if len(n.Group) == 0 {
			drainedBy(in) // a plain aggregate reads all its input
		}
		return b.cp.newAggregate(n, in)
	case *plan.Distinct:
		in, err := b.build(n.Input)
		if err != nil {
			return nil, err
		}
		colls := make([]string, len(n.Columns()))
		for i, c := range n.Columns() {
			colls[i] = c.Collate
		}
		return &distinctOp{in: in, colls: colls, sorted: n.Sorted}, nil
	case *plan.Join:
		return b.join(n)
	case *plan.SetOp:
		return b.setOp(n)
	case *plan.CTERef:
		return b.cteRef(n)
	case *plan.Window:
		return b.window(n)
	case *plan.TableFunc:
		return b.tableFunc(n)
	case *plan.Lateral:
		return b.lateral(n)
	case *plan.GraphExpand:
		return b.graphExpand(n)
	}
	return nil, notSupportedErr("plan node " + typeName(n))
}

func typeName(v any) string { return fmtType(v) }

func (b *builder) values(n *plan.Values) (Operator, error) {
	// A batch only as wide as the rows: an INSERT's one-row VALUES is
	// rebuilt whenever its pooled program is lost, and a full batch would
	// be 32 KiB a column of garbage each time.
	op := &valuesOp{out: newBatchCap(len(n.Cols), min(max(len(n.Rows), 1), BatchSize)), tmp: scratch()}
	// All rows' evaluators share one allocation.
	total := 0
	for _, row := range n.Rows {
		total += len(row)
	}
	all, rows := make([]evaluator, total), make([][]evaluator, 0, len(n.Rows))
	for _, row := range n.Rows {
		evs := all[:len(row):len(row)]
		all = all[len(row):]
		for i, e := range row {
			ev, err := b.cp.compile(e)
			if err != nil {
				return nil, err
			}
			evs[i] = ev
		}
		rows = append(rows, evs)
	}
	op.rows = rows
	return op, nil
}

func (b *builder) project(n *plan.Project) (Operator, error) {
	in, err := b.build(n.Input)
	if err != nil {
		return nil, err
	}
	op := newProjectOp(in, len(n.Exprs))
	op.plain = n.Plain
	for i, e := range n.Exprs {
		op.pass[i] = -1
		if cr, ok := e.(*plan.ColRef); ok {
			op.pass[i] = cr.Idx
			continue
		}
		if op.exprs[i], err = b.cp.compile(e); err != nil {
			return nil, err
		}
		op.out.Cols[i] = scratch()
	}
	return op, nil
}

// projectMem is a narrow projection's operator, output batch and column
// slices, allocated together; the arrays come in three widths so a
// narrow projection does not pay for a wide one's room.
type projectMem[C colHeaders, P interface{ [2]int | [4]int | [8]int }, E interface {
	[2]evaluator | [4]evaluator | [8]evaluator
}] struct {
	op    projectOp
	out   Batch
	cols  C
	pass  P
	exprs E
}

func newProjectOp(in Operator, n int) *projectOp {
	var op *projectOp
	switch {
	case n <= 2:
		op = newProjectMem[[2][]types.Value, [2]int, [2]evaluator](n)
	case n <= 4:
		op = newProjectMem[[4][]types.Value, [4]int, [4]evaluator](n)
	case n <= 8:
		op = newProjectMem[[8][]types.Value, [8]int, [8]evaluator](n)
	default:
		op = &projectOp{out: &Batch{Cols: make([][]types.Value, n)}, pass: make([]int, n), exprs: make([]evaluator, n)}
	}
	op.in = in
	return op
}

// newProjectMem returns a projection of n columns (at most the arrays'
// length) in one allocation.
func newProjectMem[C colHeaders, P interface{ [2]int | [4]int | [8]int }, E interface {
	[2]evaluator | [4]evaluator | [8]evaluator
}](n int) *projectOp {
	m := &projectMem[C, P, E]{}
	m.op.out = &m.out
	m.out.Cols = unsafe.Slice(&m.cols[0], len(m.cols))[:n:n]
	m.op.pass = unsafe.Slice(&m.pass[0], len(m.pass))[:n:n]
	m.op.exprs = unsafe.Slice(&m.exprs[0], len(m.exprs))[:n:n]
	return &m.op
}

func (b *builder) limit(n *plan.Limit) (Operator, error) {
	in, err := b.build(n.Input)
	if err != nil {
		return nil, err
	}
	op := &limitOp{in: in}
	if n.Limit != nil {
		if op.limE, err = b.cp.compile(n.Limit); err != nil {
			return nil, err
		}
	}
	if n.Offset != nil {
		if op.offE, err = b.cp.compile(n.Offset); err != nil {
			return nil, err
		}
	}
	return op, nil
}

func (b *builder) sort(n *plan.Sort) (Operator, error) {
	in, err := b.build(n.Input)
	if err != nil {
		return nil, err
	}
	keyer, err := b.cp.newSortKeyer(n.Keys)
	if err != nil {
		return nil, err
	}
	drainedBy(in) // a sort reads all its input
	ncol := len(n.Columns())
	op := &sortOp{in: in, ncol: ncol, keyer: keyer, out: emptyBatch(ncol)}
	if n.Limit != nil {
		if op.limE, err = b.cp.compile(n.Limit); err != nil {
			return nil, err
		}
		if n.Offset != nil {
			if op.offE, err = b.cp.compile(n.Offset); err != nil {
				return nil, err
			}
		}
	}
	return op, nil
}
