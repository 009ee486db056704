package factorized

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

type sqlValue struct {
	kind uint8
	bits uint64
	b    []byte
}

// classRank is SQLite's cross-class order.
func classRank(k uint8) int {
	switch k {
	case KindInt, KindReal:
		return 1
	case KindText:
		return 2
	case KindBlob:
		return 3
	}
	return 0
}

func toBig(v sqlValue) *big.Float {
	if v.kind == KindInt {
		return new(big.Float).SetInt64(int64(v.bits))
	}
	return big.NewFloat(math.Float64frombits(v.bits))
}

// sqliteCompare is the reference order, computed exactly.
func sqliteCompare(a, b sqlValue) int {
	ra, rb := classRank(a.kind), classRank(b.kind)
	switch {
	case ra != rb:
		return ra - rb
	case ra == 0:
		return 0
	case ra == 1:
		return toBig(a).Cmp(toBig(b))
	}
	return bytes.Compare(a.b, b.b)
}

func randomValue(rng *rand.Rand) sqlValue {
	ints := []int64{0, 1, -1, 3, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, 1 << 53, 1<<53 + 1, -(1<<53 + 1), 1<<62 + 3}
	reals := []float64{0, math.Copysign(0, -1), 3, -3.5, 1 << 53, 1<<53 + 2, math.Inf(1), math.Inf(-1), 9.223372036854775807e18, -9.223372036854775808e18, 0.1}
	switch rng.IntN(6) {
	case 0:
		return sqlValue{kind: KindNull}
	case 1:
		if rng.IntN(2) == 0 {
			return sqlValue{kind: KindInt, bits: uint64(ints[rng.IntN(len(ints))])}
		}
		return sqlValue{kind: KindInt, bits: rng.Uint64() >> rng.IntN(64)}
	case 2:
		if rng.IntN(2) == 0 {
			return sqlValue{kind: KindReal, bits: math.Float64bits(reals[rng.IntN(len(reals))])}
		}
		return sqlValue{kind: KindReal, bits: math.Float64bits(rng.NormFloat64() * 1e6)}
	}
	b := make([]byte, rng.IntN(4))
	for i := range b {
		b[i] = byte(rng.IntN(3))
	}
	return sqlValue{kind: KindText + uint8(rng.IntN(2)), b: b}
}

func sign(x int) int { return max(-1, min(1, x)) }

func TestAppendKeyValue_OrderMatchesSQLite(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 4))
	for range stress(30000, 3000000) {
		a, b := randomValue(rng), randomValue(rng)
		a2, b2 := randomValue(rng), randomValue(rng)
		ka := AppendKeyValue(AppendKeyValue(nil, a.kind, a.bits, a.b), a2.kind, a2.bits, a2.b)
		kb := AppendKeyValue(AppendKeyValue(nil, b.kind, b.bits, b.b), b2.kind, b2.bits, b2.b)
		want := sqliteCompare(a, b)
		if want == 0 {
			want = sqliteCompare(a2, b2)
		}
		require.Equal(t, sign(want), bytes.Compare(ka, kb), "%+v,%+v vs %+v,%+v", a, a2, b, b2)
	}
}

func TestInvertKey_ReversesOneColumn(t *testing.T) {
	enc := func(s string, n int64) []byte {
		k := AppendKeyText(nil, []byte(s))
		InvertKey(k)
		return AppendKeyInt(k, n)
	}
	require.Equal(t, 1, bytes.Compare(enc("a", 5), enc("ab", 1)), "DESC: the longer text first")
	require.Equal(t, -1, bytes.Compare(enc("a", 1), enc("a", 2)), "the ASC column still breaks ties")
	require.Equal(t, AppendKeyReal(nil, math.NaN()), AppendKeyNull(nil, false))
	require.Equal(t, AppendKeyText(nil, []byte("a\x00b")), AppendKeyString(nil, "a\x00b"))
	require.Equal(t, 1, bytes.Compare(AppendKeyNull(nil, true), AppendKeyBlob(nil, []byte{0xFF})))
}
