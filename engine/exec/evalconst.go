package exec

import (
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// EvalConst evaluates a row-independent expression (VACUUM INTO's file
// name) with c's arguments.
func EvalConst(c *Ctx, e plan.Expr) (types.Value, error) {
	ev, err := newBuilder().cp.compile(e)
	if err != nil {
		return types.Value{}, err
	}
	return evalOne(c, ev)
}
