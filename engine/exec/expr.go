package exec

import (
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// evaluator computes an expression for every live row of b, writing the
// result for physical row i to out[i].
type evaluator func(c *Ctx, b *Batch, out []types.Value) error

// scratch returns an empty column buffer for an intermediate result; fit
// sizes it to each batch before use, so an expression node over a few rows
// holds a few values rather than BatchSize of them, and a statement run
// once allocates for the rows it met.
func scratch() []types.Value { return nil }

// fit returns *buf with room for the physical rows of b (an evaluator
// writes out[i] for i < b.N), growing it to the next power of two, at most
// BatchSize, when it is shorter. The buffer then stays for later batches
// and executions.
func fit(buf *[]types.Value, b *Batch) []types.Value {
	if len(*buf) < b.N {
		*buf = make([]types.Value, roomFor(b.N))
		countGrown(len(*buf))
	}
	return *buf
}

// roomFor rounds n up to a power of two of at least 8, at most BatchSize.
func roomFor(n int) int {
	size := 8
	for size < n {
		size *= 2
	}
	return min(size, max(n, BatchSize))
}

// compiler turns bound expressions into evaluators; one per operator tree.
type compiler struct {
	// aggBase is the column index of the first aggregate in the input of an
	// expression above an Aggregate node (AggRef i reads aggBase+i).
	aggBase int
	b       *builder
}

// stack is the scratch stack the tree's evaluators borrow from.
func (cp *compiler) stack() *scratchStack { return &cp.b.scr }

func (cp *compiler) compile(e plan.Expr) (evaluator, error) {
	switch e := e.(type) {
	case *plan.ColRef:
		return colEval(e.Idx), nil
	case *plan.AggRef:
		return colEval(cp.aggBase + e.Idx), nil
	case *plan.Const:
		return constEval(e.V), nil
	case *plan.Param:
		return paramEval(e.Idx), nil
	case *plan.OuterRef:
		return outerEval(e.Depth, e.Idx), nil
	case *plan.Unary:
		return cp.unary(e)
	case *plan.Binary:
		return cp.binary(e)
	case *plan.Affinity:
		return cp.affinity(e)
	case *plan.Collate:
		return cp.compile(e.X)
	case *plan.Case:
		return cp.caseExpr(e)
	case *plan.Cast:
		return cp.cast(e)
	case *plan.IsNull:
		return cp.isNull(e)
	case *plan.Between:
		return cp.between(e)
	case *plan.InList:
		return cp.inList(e)
	case *plan.Like:
		return cp.like(e)
	case *plan.Func:
		return cp.funcCall(e)
	case *plan.ScalarSub:
		return cp.scalarSub(e)
	case *plan.Exists:
		return cp.exists(e)
	case *plan.InSub:
		return cp.inSub(e)
	case *plan.Raise:
		return cp.raise(e)
	case *plan.CheckedSum:
		return cp.checkedSum(e)
	}
	return nil, errs.New(errs.CodeNotSupported, "not supported: expression %T", e)
}

// colEvals are the evaluators of the first columns, made once.
var colEvals = func() (evs [32]evaluator) {
	for i := range evs {
		evs[i] = newColEval(i)
	}
	return evs
}()

// colEval copies column idx of the batch.
func colEval(idx int) evaluator {
	if idx >= 0 && idx < len(colEvals) {
		return colEvals[idx]
	}
	return newColEval(idx)
}

func newColEval(idx int) evaluator {
	return func(c *Ctx, b *Batch, out []types.Value) error {
		col := b.Cols[idx]
		if b.Sel == nil {
			copy(out[:b.N], col[:b.N])
			return nil
		}
		for _, i := range b.Sel {
			out[i] = col[i]
		}
		return nil
	}
}

// nullEval is constEval(types.Null), made once.
var nullEval = newConstEval(types.Null)

// constEval yields v for every row.
func constEval(v types.Value) evaluator {
	if v.Kind() == types.KindNull && v == types.Null {
		return nullEval
	}
	return newConstEval(v)
}

func newConstEval(v types.Value) evaluator {
	return func(c *Ctx, b *Batch, out []types.Value) error {
		fill(b, out, v)
		return nil
	}
}

func fill(b *Batch, out []types.Value, v types.Value) {
	if b.Sel == nil {
		for i := 0; i < b.N; i++ {
			out[i] = v
		}
		return
	}
	for _, i := range b.Sel {
		out[i] = v
	}
}

func paramEval(idx int) evaluator {
	return func(c *Ctx, b *Batch, out []types.Value) error {
		if idx >= len(c.Args) {
			return errs.New(errs.CodeRange, "missing argument for parameter %d", idx+1)
		}
		fill(b, out, c.Args[idx])
		return nil
	}
}

func outerEval(depth, idx int) evaluator {
	return func(c *Ctx, b *Batch, out []types.Value) error {
		n := len(c.outer) - depth
		if n < 0 || idx >= len(c.outer[n]) {
			return errs.New(errs.CodeGeneric, "internal: outer reference out of range")
		}
		fill(b, out, c.outer[n][idx])
		return nil
	}
}

// mapEval evaluates x into out then applies fn in place per live row.
func mapEval(x evaluator, fn func(types.Value) types.Value) evaluator {
	return func(c *Ctx, b *Batch, out []types.Value) error {
		if err := x(c, b, out); err != nil {
			return err
		}
		if b.Sel == nil {
			for i := 0; i < b.N; i++ {
				out[i] = fn(out[i])
			}
			return nil
		}
		for _, i := range b.Sel {
			out[i] = fn(out[i])
		}
		return nil
	}
}

// mapArgEval is mapEval of fn(arg, v): one closure, where mapEval would
// take a second binding fn to arg.
func mapArgEval[A any](x evaluator, arg A, fn func(A, types.Value) types.Value) evaluator {
	return func(c *Ctx, b *Batch, out []types.Value) error {
		if err := x(c, b, out); err != nil {
			return err
		}
		if b.Sel == nil {
			for i := 0; i < b.N; i++ {
				out[i] = fn(arg, out[i])
			}
			return nil
		}
		for _, i := range b.Sel {
			out[i] = fn(arg, out[i])
		}
		return nil
	}
}

// evalBoth evaluates l over b into out and r into a buffer borrowed from
// st, which it returns; the caller gives it back by releasing to a mark
// taken before the call, on error too.
func evalBoth(c *Ctx, b *Batch, l, r evaluator, st *scratchStack, out []types.Value) ([]types.Value, error) {
	if err := l(c, b, out); err != nil {
		return nil, err
	}
	rb := st.values(b)
	return rb, r(c, b, rb)
}

// pairFn combines two operands' values: a function (fnPair) or a
// comparison (cmpPair). zipEval and zipConstEval take it as a type
// parameter so that a comparison's table and collation ride in the
// evaluator's one closure.
type pairFn interface {
	apply(a, b types.Value) types.Value
}

// fnPair is a pairFn calling a function.
type fnPair func(a, b types.Value) types.Value

func (f fnPair) apply(a, b types.Value) types.Value { return f(a, b) }

// zipEval evaluates l into out and r into a buffer borrowed from st, then
// combines them with f per live row.
func zipEval[F pairFn](st *scratchStack, l, r evaluator, f F) evaluator {
	return func(c *Ctx, b *Batch, out []types.Value) error {
		m := st.mark()
		rb, err := evalBoth(c, b, l, r, st, out)
		if err != nil {
			st.release(m)
			return err
		}
		if b.Sel == nil {
			for i := 0; i < b.N; i++ {
				out[i] = f.apply(out[i], rb[i])
			}
		} else {
			for _, i := range b.Sel {
				out[i] = f.apply(out[i], rb[i])
			}
		}
		st.release(m)
		return nil
	}
}

// zipConstEval is zipEval with one operand the constant v (the left one
// when constLeft): x's values go to out, and f combines each with v, with
// no evaluator and no buffer for the constant.
func zipConstEval[F pairFn](x evaluator, v types.Value, constLeft bool, f F) evaluator {
	return func(c *Ctx, b *Batch, out []types.Value) error {
		if err := x(c, b, out); err != nil {
			return err
		}
		for k, n := 0, b.Len(); k < n; k++ {
			i := b.Phys(k)
			if constLeft {
				out[i] = f.apply(v, out[i])
			} else {
				out[i] = f.apply(out[i], v)
			}
		}
		return nil
	}
}

func (cp *compiler) unary(e *plan.Unary) (evaluator, error) {
	x, err := cp.compile(e.X)
	if err != nil {
		return nil, err
	}
	switch e.Op {
	case "-":
		return mapEval(x, types.Neg), nil
	case "+":
		return x, nil
	case "NOT":
		return mapEval(x, func(v types.Value) types.Value { return types.TruthOf(v).Not().Value() }), nil
	case "~":
		return mapEval(x, types.BitNot), nil
	}
	return nil, errs.New(errs.CodeNotSupported, "not supported: unary operator %s", e.Op)
}

func (cp *compiler) affinity(e *plan.Affinity) (evaluator, error) {
	x, err := cp.compile(e.X)
	if err != nil {
		return nil, err
	}
	if e.Read {
		return mapArgEval(x, e.Aff, types.Affinity.ApplyRead), nil
	}
	return mapArgEval(x, e.Aff, types.Affinity.ApplyCompare), nil
}

func (cp *compiler) isNull(e *plan.IsNull) (evaluator, error) {
	x, err := cp.compile(e.X)
	if err != nil {
		return nil, err
	}
	return mapArgEval(x, e.Not, func(not bool, v types.Value) types.Value { return types.NewBool(v.IsNull() != not) }), nil
}
