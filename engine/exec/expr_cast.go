package exec

import (
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

func (cp *compiler) cast(e *plan.Cast) (evaluator, error) {
	x, err := cp.compile(e.X)
	if err != nil {
		return nil, err
	}
	return mapArgEval(x, e.Affinity, func(aff types.Affinity, v types.Value) types.Value { return types.Cast(v, aff) }), nil
}
