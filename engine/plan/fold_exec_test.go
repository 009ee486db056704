package plan_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// TestFoldValue_MatchesTheExecutor: the operators fold-constants computes
// itself (unary operators, affinities, CAST, IS NULL over a literal) give
// the value the executor's evaluator computes for the same node, for
// literals of every storage class and their edge cases.
func TestFoldValue_MatchesTheExecutor(t *testing.T) {
	values := []types.Value{
		types.Null, types.NewInt(0), types.NewInt(1), types.NewInt(-7),
		types.NewInt(math.MaxInt64), types.NewInt(math.MinInt64),
		types.NewReal(0), types.NewReal(math.Copysign(0, -1)), types.NewReal(2.5), types.NewReal(-0.25),
		types.NewReal(1e300), types.NewReal(math.Inf(1)), types.NewReal(9.223372036854775807e18),
		types.NewText(""), types.NewText("10"), types.NewText(" x "), types.NewText("-5"), types.NewText("1e3"),
		types.NewText("0x10"), types.NewText("2.5abc"), types.NewText(" 12 "), types.NewText("9223372036854775808"),
		types.NewJSON(`{"a":1}`), types.NewBlob([]byte("12")), types.NewBlob(nil),
	}
	affs := []types.Affinity{types.AffinityNone, types.AffinityBlob, types.AffinityText,
		types.AffinityNumeric, types.AffinityInteger, types.AffinityReal}
	for _, v := range values {
		lit := &plan.Const{V: v}
		nodes := []plan.Expr{&plan.IsNull{X: lit}, &plan.IsNull{X: lit, Not: true}}
		for _, op := range []string{"-", "+", "NOT", "~"} {
			nodes = append(nodes, &plan.Unary{Op: op, X: lit})
		}
		for _, a := range affs {
			nodes = append(nodes, &plan.Affinity{X: lit, Aff: a}, &plan.Affinity{X: lit, Aff: a, Read: true},
				&plan.Cast{X: lit, Type: a.String(), Affinity: a})
		}
		for _, x := range nodes {
			got, ok := plan.FoldValue(x)
			require.True(t, ok, "%#v folds", x)
			want, ok := exec.ConstEvaluator{}.EvalConst(x)
			require.True(t, ok, "%#v evaluates", x)
			require.Equal(t, want, got, "%#v of %v", x, v)
		}
	}
	_, ok := plan.FoldValue(&plan.Unary{Op: "-", X: &plan.ColRef{}})
	require.False(t, ok, "an operand that is not a literal is left to the evaluator")
	_, ok = plan.FoldValue(&plan.Binary{Op: "+", L: &plan.Const{V: types.NewInt(1)}, R: &plan.Const{V: types.NewInt(1)}})
	require.False(t, ok, "a binary operator is left to the evaluator")
}
