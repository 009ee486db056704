package exec

import (
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// The eager-aggregate rule's internals (see plan.AggPartialSum): a sum
// below a join reports its overflow as a flag column instead of failing,
// and the projection above the join raises it for the groups that joined.

// linkOverflowTwins points each AggSumOverflow at its Twin, the
// AggPartialSum of the same argument, whose accumulator already knows
// whether the sum overflowed: the rows are added once.
func linkOverflowTwins(calls []plan.AggCall, specs []aggSpec) {
	for k := range specs {
		specs[k].twin = -1
		c := calls[k]
		if c.Kind != plan.AggSumOverflow || c.Twin < 0 || c.Twin >= len(calls) {
			continue
		}
		t := calls[c.Twin]
		if t.Kind == plan.AggPartialSum && len(c.Args) == 1 && len(t.Args) == 1 && sameExpr(c.Args[0], t.Args[0]) {
			specs[k].twin = c.Twin
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

// checkedSum compiles plan.CheckedSum: the sum, or sum()'s "integer
// overflow" error for a row whose flag is set.
func (cp *compiler) checkedSum(e *plan.CheckedSum) (evaluator, error) {
	sum, err := cp.compile(e.Sum)
	if err != nil {
		return nil, err
	}
	flag, err := cp.compile(e.Overflowed)
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
