package exec

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
)

// buildIntKeys runs one build of x over keys (nil = NULL).
func buildIntKeys(t *testing.T, x *intKeyIndex, keys ...any) {
	t.Helper()
	x.reset()
	for _, k := range keys {
		if k == nil {
			x.add(types.Null)
			continue
		}
		x.add(types.NewInt(k.(int64)))
	}
	require.True(t, x.finish())
}

func TestIntKeyIndex_AppendRows_DenseAndMap(t *testing.T) {
	var x intKeyIndex
	// A narrow range: the dense heads; chains keep build order.
	buildIntKeys(t, &x, int64(5), int64(-2), nil, int64(5), int64(7))
	require.NotEmpty(t, x.dense)
	require.Equal(t, []int32{0, 3}, x.appendRows(nil, 5))
	require.Equal(t, []int32{1}, x.appendRows(nil, -2))
	require.Empty(t, x.appendRows(nil, 6))
	require.Empty(t, x.appendRows(nil, -3))
	require.Empty(t, x.appendRows(nil, 8))
	require.Empty(t, x.appendRows(nil, math.MaxInt64))
	require.Empty(t, x.appendRows(nil, math.MinInt64))

	// Reused for a wide range: the map, and no stale dense heads.
	buildIntKeys(t, &x, int64(math.MinInt64), int64(math.MaxInt64), int64(1), int64(1))
	require.Empty(t, x.dense)
	require.Equal(t, []int32{0}, x.appendRows(nil, math.MinInt64))
	require.Equal(t, []int32{1}, x.appendRows(nil, math.MaxInt64))
	require.Equal(t, []int32{2, 3}, x.appendRows(nil, 1))
	require.Empty(t, x.appendRows(nil, 5))

	// Only NULL keys: nothing matches.
	buildIntKeys(t, &x, nil, nil)
	require.Empty(t, x.appendRows(nil, 0))
}

func TestIntKeyIndex_Finish_NonIntegerKey(t *testing.T) {
	var x intKeyIndex
	x.reset()
	x.add(types.NewInt(1))
	x.add(types.NewReal(1.5))
	require.False(t, x.finish())
}
