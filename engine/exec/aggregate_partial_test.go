package exec

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// eagerPreAggregate is the shape the eager-aggregate rule builds below a
// join, over rows (k, x): GROUP BY k of a partial sum of x, count(*), and
// the sum's overflow flag whose Twin is twin.
func eagerPreAggregate(rows [][2]int64, twin int) *plan.Aggregate {
	vals := &plan.Values{Cols: []plan.Column{{Name: "k"}, {Name: "x"}}}
	for _, r := range rows {
		vals.Rows = append(vals.Rows, []plan.Expr{&plan.Const{V: types.NewInt(r[0])}, &plan.Const{V: types.NewInt(r[1])}})
	}
	x := []plan.Expr{&plan.ColRef{Idx: 1}}
	return &plan.Aggregate{Input: vals, Eager: true,
		Group: []plan.Expr{&plan.ColRef{Idx: 0}},
		Aggs: []plan.AggCall{
			{Kind: plan.AggPartialSum, Args: x},
			{Name: "count", Star: true},
			{Kind: plan.AggSumOverflow, Args: x, Twin: twin},
		},
		Cols: []plan.Column{{Name: "k"}, {Name: "s"}, {Name: "n"}, {Name: "s overflowed", Hidden: true}}}
}

// TestAggregate_SumOverflowTwin_AddsRowsOnce checks that the overflow flag
// of an eager pre-aggregate keeps no state of its own: it reads its Twin's
// accumulator, so the operator adds each row to one sum, not two. With a
// Twin that names another aggregate the flag must not read that one (it
// adds the rows itself), and the answers are the same either way.
func TestAggregate_SumOverflowTwin_AddsRowsOnce(t *testing.T) {
	rows := [][2]int64{{1, math.MaxInt64}, {1, 1}, {2, 5}, {2, 7}}
	want := [][]types.Value{
		{types.NewInt(1), types.Null, types.NewInt(2), types.NewInt(1)},
		{types.NewInt(2), types.NewInt(12), types.NewInt(2), types.NewInt(0)},
	}
	run := func(twin int) *aggregateOp {
		op, err := Build(eagerPreAggregate(rows, twin))
		require.NoError(t, err)
		a, ok := op.(*aggregateOp)
		require.True(t, ok, "built %T", op)
		got, err := CollectRows(&Ctx{}, a, 4, nil, nil)
		require.NoError(t, err)
		require.Equal(t, want, got, "twin %d", twin)
		return a
	}

	a := run(0)
	require.Equal(t, 0, a.aggs[2].twin, "the flag reads the partial sum's accumulator")
	require.Equal(t, -1, a.aggs[2].slot, "the flag has no state of its own")
	require.False(t, a.aggs[2].fast)
	require.Equal(t, 2, len(a.nums)+a.ngen, "states per group: the sum and the count only")

	for _, wrong := range []int{-1, 1, 2, 3} {
		a := run(wrong)
		require.Equal(t, -1, a.aggs[2].twin, "Twin %d names no partial sum of x", wrong)
		require.Equal(t, 3, len(a.nums)+a.ngen, "Twin %d: the flag adds the rows itself", wrong)
	}
}

// TestAggregate_Ungrouped_RerunKeepsNoState runs an ungrouped aggregate
// (sum, count(*), group_concat) several times, as a correlated subquery
// does once per outer row: every run answers alone, though the operator
// keeps its accumulators' room from the run before instead of allocating
// it again.
func TestAggregate_Ungrouped_RerunKeepsNoState(t *testing.T) {
	vals := &plan.Values{Cols: []plan.Column{{Name: "x"}}}
	for _, v := range []int64{3, 4, 5} {
		vals.Rows = append(vals.Rows, []plan.Expr{&plan.Const{V: types.NewInt(v)}})
	}
	x := []plan.Expr{&plan.ColRef{Idx: 0}}
	op, err := Build(&plan.Aggregate{Input: vals,
		Aggs: []plan.AggCall{{Name: "sum", Args: x}, {Name: "count", Star: true}, {Name: "group_concat", Args: x}},
		Cols: []plan.Column{{Name: "s"}, {Name: "n"}, {Name: "g"}}})
	require.NoError(t, err)
	a, ok := op.(*aggregateOp)
	require.True(t, ok, "built %T", op)
	want := [][]types.Value{{types.NewInt(12), types.NewInt(3), types.NewText("3,4,5")}}
	var first *accum
	for run := 0; run < 3; run++ {
		got, err := CollectRows(&Ctx{}, a, 3, nil, nil)
		require.NoError(t, err)
		require.Equal(t, want, got, "run %d", run)
		if run == 0 {
			first = &a.accs[0]
		} else {
			require.Same(t, first, &a.accs[0], "run %d: the accumulators' room is reused", run)
		}
		a.Close()
		require.Len(t, a.accs, 0)
	}
}
