package exec

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// A correlated scalar subquery runs once per distinct outer value of an
// execution: later rows with a value seen before take the kept result.
func TestSubquery_Memo_RunsOncePerOuterValue(t *testing.T) {
	sub := &plan.Subquery{Correlated: true, ID: 1, Plan: &plan.Project{Input: &plan.Single{},
		Exprs: []plan.Expr{&plan.Binary{Op: "+", L: &plan.OuterRef{Depth: 1, Idx: 0}, R: &plan.Const{V: types.NewInt(1)}}},
		Cols:  []plan.Column{{Name: "x"}}}}
	ev, err := newBuilder().cp.compile(&plan.ScalarSub{Sub: sub})
	require.NoError(t, err)
	i := types.NewInt
	b := &Batch{N: 6, Cols: [][]types.Value{{i(1), i(2), i(1), types.NewReal(1), i(1), i(3)}}}
	c := &Ctx{}
	out := make([]types.Value, 6)
	require.NoError(t, ev(c, b, out))
	require.Equal(t, []types.Value{i(2), i(3), i(2), types.NewReal(2), i(2), i(4)}, out)
	memo := c.subs[sub.ID].memo
	require.NotNil(t, memo)
	require.Len(t, memo.results, 4, "one run per distinct value: 1, 2, 1.0, 3")
	// Outer values that seldom repeat: the memo is given up after
	// memoProbe runs, and the next execution keeps none.
	many := &Batch{N: 200, Cols: [][]types.Value{make([]types.Value, 200)}}
	for k := range many.N {
		many.Cols[0][k] = i(int64(k)) // no value repeats
	}
	out = make([]types.Value, many.N)
	c = &Ctx{}
	require.NoError(t, ev(c, many, out))
	require.Equal(t, i(1), out[0])
	require.Equal(t, i(200), out[199])
	require.True(t, c.subs[sub.ID].memo.off)
	require.Nil(t, c.subs[sub.ID].memo.results)
	c = &Ctx{}
	require.NoError(t, ev(c, b, out))
	require.Nil(t, c.subs[sub.ID], "given up for the program's later executions")
	// A write built by NewCompiler never memoises.
	wev, err := NewCompiler().Compile(&plan.ScalarSub{Sub: sub})
	require.NoError(t, err)
	c = &Ctx{}
	require.NoError(t, wev(c, b, out))
	require.Nil(t, c.subs[sub.ID])
}
