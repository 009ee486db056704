package exec

import (
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/factorized"
)

// benchKeyValues are sort, group and hash-set key values as operators see
// them: integers, reals, short and longer text, a blob and NULL.
var benchKeyValues = []types.Value{
	types.NewInt(42), types.NewInt(-123456789), types.NewReal(3.25), types.NewReal(-1e300),
	types.NewText("alice"), types.NewText("Bob@Example.com, a longer text value"),
	types.NewBlob([]byte{1, 0, 2, 3}), types.Null,
}

func benchAppendKey(b *testing.B, coll string, desc bool) {
	b.ReportAllocs()
	key := make([]byte, 0, 256)
	for b.Loop() {
		key = key[:0]
		for _, v := range benchKeyValues {
			key = appendKey(key, v, coll, desc, !desc)
		}
	}
}

// BenchmarkAppendKey_GroupKey builds one composite key of every kind of
// value, as GROUP BY, DISTINCT and hash joins do.
func BenchmarkAppendKey_GroupKey(b *testing.B) { benchAppendKey(b, "", false) }

// BenchmarkAppendKey_SortKeyDescNoCase is ORDER BY … COLLATE NOCASE DESC.
func BenchmarkAppendKey_SortKeyDescNoCase(b *testing.B) { benchAppendKey(b, "NOCASE", true) }

// BenchmarkAppendKey_IntGroupKey is the one-integer group key of
// aggregate_intkey.go's fallback.
func BenchmarkAppendKey_IntGroupKey(b *testing.B) {
	b.ReportAllocs()
	key := make([]byte, 0, 16)
	for i := int64(0); b.Loop(); i++ {
		key = appendKey(key[:0], types.NewInt(i), "", false, true)
	}
}

// TestFactorizedKinds_AreTypesKinds: factorized numbers a TypeValue cell's
// storage class as engine/types does (its doc says types.Kind(kind)
// converts); factParts and factValue must agree with both.
func TestFactorizedKinds_AreTypesKinds(t *testing.T) {
	for _, v := range benchKeyValues {
		kind, _, _ := factParts(v)
		if types.Kind(kind) != v.Kind() {
			t.Errorf("%v: factorized kind %d, types kind %d", v, kind, v.Kind())
		}
	}
	pairs := [][2]uint8{
		{factorized.KindNull, uint8(types.KindNull)}, {factorized.KindInt, uint8(types.KindInt)},
		{factorized.KindReal, uint8(types.KindReal)}, {factorized.KindText, uint8(types.KindText)},
		{factorized.KindBlob, uint8(types.KindBlob)},
	}
	for _, p := range pairs {
		if p[0] != p[1] {
			t.Errorf("factorized kind %d is types kind %d", p[0], p[1])
		}
	}
}
