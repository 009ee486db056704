package plan

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// OuterReads counts a reference from the subquery's depth: Depth 1 in the
// subquery itself is the row it runs for (Up 1), Depth 2 in a subquery
// nested in it is that row too, and Depth 1 there is the subquery's own
// row (not an outer read). An index join's right side reads its left
// keys as Depth 1, one level down.
func TestOuterReads_LevelsAndPurity(t *testing.T) {
	outer := func(d, i int) Expr { return &OuterRef{Depth: d, Idx: i} }
	nested := &Subquery{Plan: &Project{Input: &Single{}, Exprs: []Expr{outer(2, 5), outer(1, 0), outer(3, 1)}}, Correlated: true}
	probe := &Filter{Input: &Single{}, Pred: &Binary{Op: "=", L: outer(1, 0), R: outer(2, 7)}}
	s := &Subquery{Correlated: true, Plan: &Filter{
		Input: &Join{Kind: JoinInner, Method: JoinIndex, Left: &Single{}, Right: probe},
		Pred:  &Binary{Op: "=", L: outer(1, 2), R: &ScalarSub{Sub: nested}},
	}}
	reads, pure := OuterReads(s)
	require.ElementsMatch(t, []OuterRead{{Up: 1, Idx: 2}, {Up: 1, Idx: 5}, {Up: 2, Idx: 1}, {Up: 1, Idx: 7}}, reads)
	require.True(t, pure)

	random := &Subquery{Correlated: true, Plan: &Project{Input: &Single{}, Exprs: []Expr{
		&Binary{Op: "+", L: outer(1, 0), R: &Func{Name: "random"}}}}}
	reads, pure = OuterReads(random)
	require.Equal(t, []OuterRead{{Up: 1, Idx: 0}}, reads)
	require.False(t, pure)
}
