package exec

import (
	"context"
	"sync"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// ConstEvaluator is the plan.Evaluator the engine gives the binder: the
// planner folds constant expressions with the executor's own evaluators,
// so a folded value is the one execution would compute. LengthLimit and
// LikeLimit are the connection's lowered limits (Ctx's fields of the same
// names), so a fold fails, and the expression is left to fail when it
// runs, where execution would.
type ConstEvaluator struct {
	LengthLimit, LikeLimit int32
}

var _ plan.Evaluator = ConstEvaluator{}

// EvalConst compiles and evaluates a row-independent expression once;
// false on any error (or a panic), leaving the expression to run as
// written.
func (ce ConstEvaluator) EvalConst(e plan.Expr) (v types.Value, ok bool) {
	f := foldPool.Get().(*folder)
	defer func() {
		if recover() != nil {
			v, ok = types.Null, false
		}
		foldPool.Put(f)
	}()
	f.b.reset()
	ev, err := f.b.cp.compile(e)
	if err != nil {
		return types.Null, false
	}
	fc := &f.ctx
	fc.Reset()
	fc.budget = foldBudget{Context: context.Background(), polls: foldPolls}
	fc.Go, fc.MemoryLimit = &fc.budget, foldMemory
	fc.LengthLimit, fc.LikeLimit = ce.LengthLimit, ce.LikeLimit
	v, err = fc.once.eval(&fc.Ctx, ev)
	if err != nil {
		return types.Null, false
	}
	return v, true
}

// folder is a fold's builder and context, reused across folds (the
// binder folds many constants per statement): the evaluators a fold
// compiles are dropped when it returns, the value it computed is the
// caller's.
type folder struct {
	b   builder
	ctx foldCtx
}

var foldPool = sync.Pool{New: func() any {
	f := &folder{}
	f.b.init()
	return f
}}

// foldPolls bounds the work of folding one expression: loops that poll
// the context (a long LIKE, a big printf) give up after this many polls,
// and the expression then runs at execution time under the statement's
// own context, where a deadline can stop it. Preparing has no deadline of
// its own to honour.
const foldPolls = 16

// foldMemory bounds the values a fold builds: a constant that would build
// a larger one (zeroblob(1e8), a wide printf) runs at execution time,
// under the statement's memory limit, instead of at prepare time under
// none (and a plan does not keep a huge value).
const foldMemory = 1 << 20

// foldCtx is the execution context of a fold, its budget and its one-row
// batch, allocated together.
type foldCtx struct {
	Ctx
	budget foldBudget
	once   oneShot
}

// foldBudget is a context that reports itself done after polls polls.
type foldBudget struct {
	context.Context
	polls int
}

func (f *foldBudget) Err() error {
	if f.polls--; f.polls < 0 {
		return context.DeadlineExceeded
	}
	return nil
}
