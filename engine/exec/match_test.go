package exec

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
)

func TestLikeMatch_SQLiteRules(t *testing.T) {
	cases := []struct {
		pat, s string
		esc    rune
		want   bool
	}{
		{"a%", "ABC", 0, true},
		{"%b_", "abc", 0, true},
		{"a_c", "ac", 0, false},
		{"100\\%", "100%", '\\', true},
		{"100\\%", "1000", '\\', false},
		{"%", "", 0, true},
		{"é%", "é!", 0, true},
	}
	var pc patternCache
	for _, c := range cases {
		m, err := pc.match(&Ctx{}, c.pat, c.s, c.esc)
		require.NoError(t, err)
		require.Equal(t, c.want, m, "%q LIKE %q", c.s, c.pat)
	}
}

func TestGlobMatch_Classes(t *testing.T) {
	var pc patternCache
	for _, c := range []struct {
		pat, s string
		want   bool
	}{{"a*[0-9]?", "abc5x", true}, {"A*", "abc", false}, {"[^x]b", "ab", true}, {"[^a]b", "ab", false}} {
		m, err := pc.match(&Ctx{}, c.pat, c.s, -1)
		require.NoError(t, err)
		require.Equal(t, c.want, m, "%q GLOB %q", c.s, c.pat)
	}
}

func TestAccum_Sum_OverflowIsError(t *testing.T) {
	var a accum
	require.NoError(t, a.add(aggSum, types.NewInt(1<<62), types.Null, types.CollBinary))
	require.NoError(t, a.add(aggSum, types.NewInt(1<<62), types.Null, types.CollBinary))
	_, err := a.result(aggSum)
	require.ErrorContains(t, err, "integer overflow")
	var b accum
	require.NoError(t, b.add(aggTotal, types.NewText("2.5"), types.Null, types.CollBinary))
	v, err := b.result(aggTotal)
	require.NoError(t, err)
	require.Equal(t, 2.5, v.Real())
}

func TestLimitValue_RejectsNonIntegers(t *testing.T) {
	n, err := limitValue(types.NewText("7"), "LIMIT")
	require.NoError(t, err)
	require.Equal(t, int64(7), n)
	_, err = limitValue(types.NewReal(1.5), "LIMIT")
	require.ErrorContains(t, err, "datatype mismatch")
}

func TestRowidBounds_RealsAndText(t *testing.T) {
	lo, ok := lowerRowid(types.NewReal(2.5), true)
	require.True(t, ok)
	require.Equal(t, int64(3), lo)
	hi, ok := upperRowid(types.NewReal(2.0), false)
	require.True(t, ok)
	require.Equal(t, int64(1), hi)
	_, ok = lowerRowid(types.NewText("x"), true)
	require.False(t, ok)
	_, ok = exactRowid(types.NewReal(1.5))
	require.False(t, ok)
}
