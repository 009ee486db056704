package exec

import (
	"context"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// The planner folds constant expressions with the executor's own
// evaluators, so a folded value is the one execution would compute.
func init() { plan.EvalConst = evalConst }

// evalConst compiles and evaluates a row-independent expression once;
// false on any error (or a panic), leaving the expression to run as
// written.
func evalConst(e plan.Expr) (v types.Value, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = types.Null, false
		}
	}()
	ev, err := newBuilder().cp.compile(e)
	if err != nil {
		return types.Null, false
	}
	v, err = evalOne(&Ctx{Go: context.Background()}, ev)
	if err != nil {
		return types.Null, false
	}
	return v, true
}
