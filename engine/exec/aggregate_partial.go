package exec

import (
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// The eager-aggregate rule's internals (see plan.PartialSumAgg): a sum
// below a join reports its overflow as a flag column instead of failing,
// and the projection above the join raises it for the groups that joined.

// linkOverflowTwins points each SumOverflowAgg that directly follows a
// PartialSumAgg of the same argument at that aggregate, whose accumulator
// already knows whether the sum overflowed: the rows are added once.
func linkOverflowTwins(calls []plan.AggCall, specs []aggSpec) {
	for k := range specs {
		specs[k].twin = -1
		if k == 0 || calls[k].Name != plan.SumOverflowAgg || calls[k-1].Name != plan.PartialSumAgg {
			continue
		}
		if len(calls[k].Args) == 1 && len(calls[k-1].Args) == 1 && sameExpr(calls[k].Args[0], calls[k-1].Args[0]) {
			specs[k].twin = k - 1
		}
	}
}

// sameExpr reports whether a and b are the same bound expression: the
// rule hands both aggregates one argument, so identity is enough; plain
// columns compare by index.
func sameExpr(a, b plan.Expr) bool {
	if a == b {
		return true
	}
	ca, ok1 := a.(*plan.ColRef)
	cb, ok2 := b.(*plan.ColRef)
	return ok1 && ok2 && *ca == *cb
}

// checkedSum compiles plan.CheckedSumFunc(sum, overflowed): sum, or
// sum()'s "integer overflow" error for a row whose flag is set.
func (cp *compiler) checkedSum(e *plan.Func) (evaluator, error) {
	if len(e.Args) != 2 {
		return nil, errs.New(errs.CodeGeneric, "internal: checked sum takes 2 arguments")
	}
	sum, err := cp.compile(e.Args[0])
	if err != nil {
		return nil, err
	}
	flag, err := cp.compile(e.Args[1])
	if err != nil {
		return nil, err
	}
	buf := scratch()
	return func(c *Ctx, b *Batch, out []types.Value) error {
		if err := flag(c, b, fit(&buf, b)); err != nil {
			return err
		}
		for k, n := 0, b.Len(); k < n; k++ {
			if v := buf[b.Phys(k)]; v.Kind() == types.KindInt && v.Int() != 0 {
				return sumOverflowErr()
			}
		}
		return sum(c, b, out)
	}, nil
}

// sumOverflowErr is sum()'s error when its integers overflow, as SQLite's.
func sumOverflowErr() error { return errs.New(errs.CodeGeneric, "integer overflow") }
