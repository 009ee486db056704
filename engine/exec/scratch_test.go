package exec

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// TestScratchStack_GivenBackOnEveryPath evaluates nested expressions that
// borrow from their tree's scratch stack (operands, IN items, CASE arms,
// function arguments, LIKE operands, AND/OR spines), with and without a
// selection, and checks both the answers and that every buffer was given
// back, after an error too: a buffer kept would shift every later
// borrower's, and a statement's stack would grow per batch.
func TestScratchStack_GivenBackOnEveryPath(t *testing.T) {
	col := func(i int) plan.Expr { return &plan.ColRef{Idx: i} }
	k := func(v int64) plan.Expr { return &plan.Const{V: types.NewInt(v)} }
	bin := func(op string, l, r plan.Expr) plan.Expr { return &plan.Binary{Op: op, L: l, R: r} }
	i, null := types.NewInt, types.Null
	// Rows (c0, c1): (1, 2), (2, 2), (3, NULL).
	batch := func(sel []int32) *Batch {
		return &Batch{N: 3, Sel: sel, Cols: [][]types.Value{{i(1), i(2), i(3)}, {i(2), i(2), null}}}
	}
	cases := []struct {
		name      string
		e         plan.Expr
		predicate bool
		want      []types.Value // per physical row
		err       string
	}{
		{name: "arith", e: bin("+", col(0), bin("*", col(1), k(2))), want: []types.Value{i(5), i(6), null}},
		{name: "const left", e: bin("-", k(5), col(0)), want: []types.Value{i(4), i(3), i(2)}},
		{name: "compare", e: bin("=", col(0), col(1)), want: []types.Value{i(0), i(1), null}},
		{name: "case", e: &plan.Case{Whens: []plan.When{{Cond: bin(">", col(0), k(1)), Then: bin("*", col(0), k(10))}}, Else: col(1)},
			want: []types.Value{i(2), i(20), i(30)}},
		{name: "not in", e: &plan.InList{X: col(0), List: []plan.Expr{col(1), k(5)}, Not: true}, want: []types.Value{i(1), i(0), null}},
		{name: "between", e: &plan.Between{X: col(0), Lo: col(1), Hi: &plan.Func{Name: "abs", Args: []plan.Expr{k(-3)}}},
			want: []types.Value{i(0), i(1), null}},
		{name: "coalesce", e: &plan.Func{Name: "coalesce", Args: []plan.Expr{col(1), bin("+", col(0), k(100))}},
			want: []types.Value{i(2), i(2), i(103)}},
		{name: "predicate", predicate: true, e: bin("OR", bin("AND", bin(">", col(0), k(1)), bin("=", col(1), k(2))), bin("=", col(0), k(1))),
			want: []types.Value{i(1), i(1), null}},
		{name: "like", e: &plan.Like{Op: "LIKE", X: col(0), Pat: &plan.Const{V: types.NewText("%2%")}}, want: []types.Value{i(0), i(1), i(0)}},
		{name: "like escape", e: &plan.Like{Op: "LIKE", X: col(0), Pat: &plan.Const{V: types.NewText("3")}, Escape: &plan.Const{V: types.NewText("!")}},
			want: []types.Value{i(0), i(0), i(1)}},
		{name: "like column", e: &plan.Like{Op: "LIKE", X: col(0), Pat: col(1)}, want: []types.Value{i(0), i(1), null}},
		{name: "glob", e: &plan.Like{Op: "GLOB", X: bin("+", col(0), col(1)), Pat: &plan.Const{V: types.NewText("[34]")}}, want: []types.Value{i(1), i(1), null}},
		{name: "function error", e: &plan.Func{Name: "abs", Args: []plan.Expr{bin("-", k(-math.MaxInt64), col(0))}}, err: "integer overflow"},
		{name: "like error", e: &plan.Like{Op: "LIKE", X: col(0), Pat: col(1), Escape: &plan.Const{V: types.NewText("ab")}},
			err: "ESCAPE expression must be a single character"},
		{name: "nested error", e: bin("+", k(1), &plan.Case{Whens: []plan.When{{Cond: col(0),
			Then: &plan.Func{Name: "abs", Args: []plan.Expr{bin("*", col(0), k(math.MinInt64))}}}}}),
			err: "integer overflow"},
	}
	for _, tc := range cases {
		for _, sel := range [][]int32{nil, {0, 1, 2}} {
			b := newBuilder()
			var ev evaluator
			var err error
			if tc.predicate {
				ev, err = b.cp.predicate(tc.e)
			} else {
				ev, err = b.cp.compile(tc.e)
			}
			require.NoError(t, err, tc.name)
			for run := 0; run < 2; run++ { // a program runs again with what it kept
				out := make([]types.Value, 3)
				err = ev(&Ctx{}, batch(sel), out)
				if tc.err != "" {
					require.ErrorContains(t, err, tc.err, tc.name)
				} else {
					require.NoError(t, err, tc.name)
					require.Equal(t, tc.want, out, "%s, selection %v", tc.name, sel)
				}
				require.Zero(t, b.scr.top, "%s: values still lent", tc.name)
				require.Zero(t, b.scr.stop, "%s: rows still lent", tc.name)
			}
		}
	}
}

// TestScratchStack_GrowKeepsLentBuffers checks that growing the stack
// leaves the buffers already lent intact and distinct from the new ones,
// and that what is given back is lent again without growing.
func TestScratchStack_GrowKeepsLentBuffers(t *testing.T) {
	var st scratchStack
	m := st.mark()
	small := st.values(&Batch{N: 4})
	for i := range small {
		small[i] = types.NewInt(int64(i))
	}
	big := st.values(&Batch{N: BatchSize}) // grows
	for i := range big {
		big[i] = types.NewInt(-1)
	}
	require.Equal(t, []types.Value{types.NewInt(0), types.NewInt(1), types.NewInt(2), types.NewInt(3)}, small)
	require.Equal(t, 4+BatchSize, st.top)
	st.release(m)
	size := len(st.vals)
	again := st.values(&Batch{N: 4})
	st.values(&Batch{N: BatchSize})
	require.Equal(t, size, len(st.vals), "given back, then lent again without growing")
	again[0] = types.NewInt(7)
	require.Equal(t, types.NewInt(0), small[0], "the old array is no longer lent")
	st.release(m)
	require.Zero(t, st.top)
}

// TestEmptyBatch_OneAllocation checks that an empty batch of up to eight
// columns comes with its column headers in one allocation, and that every
// width has exactly its columns.
func TestEmptyBatch_OneAllocation(t *testing.T) {
	for ncol := 0; ncol <= 10; ncol++ {
		b := emptyBatch(ncol)
		require.Len(t, b.Cols, ncol)
		require.Equal(t, ncol, cap(b.Cols), "a column appended must not write into another batch")
		want := 1.0
		if ncol > 8 {
			want = 2
		}
		require.Equal(t, want, testing.AllocsPerRun(10, func() { emptyBatch(ncol) }), "%d columns", ncol)
	}
}

// TestConstEvaluator_ReusedFolderAnswersAlone folds a run of constants
// through the pooled builders and contexts: a fold's value stays as it was
// after later folds, a failed fold leaves nothing behind, and the limits
// of one evaluator do not carry over to the next.
func TestConstEvaluator_ReusedFolderAnswersAlone(t *testing.T) {
	text := func(s string) plan.Expr { return &plan.Const{V: types.NewText(s)} }
	call := func(name string, args ...plan.Expr) plan.Expr { return &plan.Func{Name: name, Args: args} }
	concat := &plan.Binary{Op: "||", L: call("upper", text("abc")), R: text("x")}
	v1, ok := ConstEvaluator{}.EvalConst(concat)
	require.True(t, ok)
	require.Equal(t, types.NewText("ABCx"), v1)

	_, ok = ConstEvaluator{}.EvalConst(call("abs", &plan.Const{V: types.NewInt(math.MinInt64)}))
	require.False(t, ok, "integer overflow")
	_, ok = ConstEvaluator{LengthLimit: 3}.EvalConst(concat)
	require.False(t, ok, "past the lowered length limit")

	for i := 0; i < 3; i++ {
		v, ok := ConstEvaluator{}.EvalConst(concat)
		require.True(t, ok, "the default limits again")
		require.Equal(t, types.NewText("ABCx"), v)
		v, ok = ConstEvaluator{}.EvalConst(call("lower", text("QQ")))
		require.True(t, ok)
		require.Equal(t, types.NewText("qq"), v)
	}
	require.Equal(t, types.NewText("ABCx"), v1)
}

// TestNewProjectOp_OneAllocation checks that a projection of up to eight
// columns is one allocation with its batch and column slices, each slice
// exactly as long as the projection is wide.
func TestNewProjectOp_OneAllocation(t *testing.T) {
	for n := 0; n <= 10; n++ {
		op := newProjectOp(nil, n)
		require.Len(t, op.out.Cols, n)
		require.Equal(t, n, cap(op.out.Cols))
		require.Equal(t, n, cap(op.pass))
		require.Equal(t, n, cap(op.exprs))
		if n <= 8 {
			require.Equal(t, 1.0, testing.AllocsPerRun(10, func() { newProjectOp(nil, n) }), "%d columns", n)
		}
	}
}
