package plan

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// sevens folds every expression it is given to 7, counting the calls.
type sevens struct{ calls int }

func (s *sevens) EvalConst(Expr) (types.Value, bool) {
	s.calls++
	return types.NewInt(7), true
}

// TestFold_UsesTheBindersEvaluator: fold-constants evaluates with the
// Evaluator the binder was made with (the engine gives the executor's), and
// a binder made without one refuses to bind a query or a write instead of
// leaving its constants unfolded.
func TestFold_UsesTheBindersEvaluator(t *testing.T) {
	cat := testCatalog(t)
	st, err := grammar.Parse("SELECT a FROM t WHERE a = 1 + 1; DELETE FROM t WHERE a = 2 * 3; CREATE INDEX ta ON t(a)")
	require.NoError(t, err)

	ev := &sevens{}
	p, err := NewBinder(cat, ev).Bind(st[0])
	require.NoError(t, err)
	require.Positive(t, ev.calls, "1 + 1 is evaluated")
	require.Contains(t, Format(p.(*Query).Root), "Filter 1 conjunct(s)")
	var folded bool
	Walk(p.(*Query).Root, func(n Node) bool {
		if f, ok := n.(*Filter); ok {
			if b, ok := f.Pred.(*Binary); ok {
				c, ok := b.R.(*Const)
				folded = ok && c.V.Kind() == types.KindInt && c.V.Int() == 7
			}
		}
		return true
	})
	require.True(t, folded, "the filter compares with the evaluator's value:\n%s", Format(p.(*Query).Root))

	for _, s := range st[:2] {
		_, err = NewBinder(cat, nil).Bind(s)
		require.ErrorIs(t, err, errNoEvaluator)
	}
	_, err = NewBinder(cat, nil).Bind(st[2])
	require.NoError(t, err, "schema statements need no evaluator")
}
