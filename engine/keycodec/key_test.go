package keycodec

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// The encodings below are the database file's index and table key format,
// taken from the encoder before it moved here (engine/types/key.go and
// engine/storage/rowid.go). A failure means existing files would no
// longer open or compare the same: fix the encoder, not the table.
func TestKeys_PinnedBytes(t *testing.T) {
	negZero := math.Copysign(0, -1)
	cases := []struct {
		name string
		key  []byte
		hex  string
	}{
		{"int 0", AppendInt(nil, 0), "15800000000000000080"},
		{"int 1", AppendInt(nil, 1), "15bff000000000000080"},
		{"int -1", AppendInt(nil, -1), "15400fffffffffffff80"},
		{"int 5", AppendInt(nil, 5), "15c01400000000000080"},
		{"int 42", AppendInt(nil, 42), "15c04500000000000080"},
		{"int -123456789", AppendInt(nil, -123456789), "153e6290cbabffffff80"},
		{"int max", AppendInt(nil, math.MaxInt64), "15c3e00000000000007f7fff"},
		{"int max-1", AppendInt(nil, math.MaxInt64-1), "15c3e00000000000007f7ffe"},
		{"int min", AppendInt(nil, math.MinInt64), "153c1fffffffffffff80"},
		{"int min+1", AppendInt(nil, math.MinInt64+1), "153c1fffffffffffff810001"},
		{"int 2^53", AppendInt(nil, 1<<53), "15c34000000000000080"},
		{"int 2^53+1", AppendInt(nil, 1<<53+1), "15c340000000000000810001"},
		{"int -(2^53+1)", AppendInt(nil, -(1<<53 + 1)), "153cbfffffffffffff7f7fff"},
		{"int 2^62+3", AppendInt(nil, 1<<62+3), "15c3d0000000000000810003"},
		{"int 2^63-1024", AppendInt(nil, 1<<63-1024), "15c3dfffffffffffff80"},
		{"real 0", AppendReal(nil, 0), "15800000000000000080"},
		{"real -0", AppendReal(nil, negZero), "15800000000000000080"},
		{"real 5", AppendReal(nil, 5), "15c01400000000000080"},
		{"real 3.25", AppendReal(nil, 3.25), "15c00a00000000000080"},
		{"real -3.5", AppendReal(nil, -3.5), "153ff3ffffffffffff80"},
		{"real 0.1", AppendReal(nil, 0.1), "15bfb999999999999a80"},
		{"real 1e300", AppendReal(nil, 1e300), "15fe37e43c8800759c80"},
		{"real -1e-300", AppendReal(nil, -1e-300), "157e5a91e03d070ca680"},
		{"real +inf", AppendReal(nil, math.Inf(1)), "15fff000000000000080"},
		{"real -inf", AppendReal(nil, math.Inf(-1)), "15000fffffffffffff80"},
		{"real NaN", AppendReal(nil, math.NaN()), "15000000000000000080"},
		{"real 2^63", AppendReal(nil, 9.223372036854775807e18), "15c3e000000000000080"},
		{"real -2^63", AppendReal(nil, -9.223372036854775808e18), "153c1fffffffffffff80"},
		{"real min subnormal", AppendReal(nil, 5e-324), "15800000000000000180"},
		{"text ''", AppendText(nil, ""), "250001"},
		{"text a", AppendText(nil, "a"), "25610001"},
		{"text abc", AppendText(nil, "abc"), "256162630001"},
		{"text a\\0b", AppendText(nil, "a\x00b"), "256100ff620001"},
		{"text \\0", AppendText(nil, "\x00"), "2500ff0001"},
		{"text \\0\\1", AppendText(nil, "\x00\x01"), "2500ff010001"},
		{"text ABC", AppendText(nil, "ABC"), "254142430001"},
		{"text 'ab  '", AppendText(nil, "ab  "), "25616220200001"},
		{"text héllo", AppendText(nil, "héllo"), "2568c3a96c6c6f0001"},
		{"text \\xff", AppendText(nil, "\xff"), "25ff0001"},
		{"nocase ABC", AppendTextNoCase(nil, "ABC"), "256162630001"},
		{"nocase a\\0B", AppendTextNoCase(nil, "a\x00B"), "256100ff620001"},
		{"nocase A\\0\\0B", AppendTextNoCase(nil, "A\x00\x00B"), "256100ff00ff620001"},
		{"nocase héLLo", AppendTextNoCase(nil, "héLLo"), "2568c3a96c6c6f0001"},
		{"blob ''", AppendBlob(nil, ""), "350001"},
		{"blob a", AppendBlob(nil, "a"), "35610001"},
		{"blob a\\0b", AppendBlob(nil, "a\x00b"), "356100ff620001"},
		{"blob \\0", AppendBlob(nil, "\x00"), "3500ff0001"},
		{"blob \\xff", AppendBlob(nil, "\xff"), "35ff0001"},
		{"null", AppendNull(nil, false), "05"},
		{"null last", AppendNull(nil, true), "45"},
		{"desc null first", inverted(AppendNull(nil, true)), "ba"},
		{"desc null last", inverted(AppendNull(nil, false)), "fa"},
		{"desc int 42", inverted(AppendInt(nil, 42)), "ea3fbaffffffffffff7f"},
		{"desc int 2^53+1", inverted(AppendInt(nil, 1<<53+1)), "ea3cbfffffffffffff7efffe"},
		{"desc int -(2^53+1)", inverted(AppendInt(nil, -(1<<53 + 1))), "eac340000000000000808000"},
		{"desc real -3.5", inverted(AppendReal(nil, -3.5)), "eac00c0000000000007f"},
		{"desc nocase 'a\\0B '", inverted(AppendTextNoCase(nil, "a\x00B ")), "da9eff009ddffffe"},
		{"desc text 'a\\0B '", inverted(AppendText(nil, "a\x00B ")), "da9eff00bddffffe"},
		{"desc blob 00 01", inverted(AppendBlob(nil, "\x00\x01")), "caff00fefffe"},
		{"rowid 0", RowidKey(0), "8000000000000000"},
		{"rowid 1", RowidKey(1), "8000000000000001"},
		{"rowid -1", RowidKey(-1), "7fffffffffffffff"},
		{"rowid max", RowidKey(math.MaxInt64), "ffffffffffffffff"},
		{"rowid min", RowidKey(math.MinInt64), "0000000000000000"},
		{"rowid 1234567890123", AppendRowid(nil, 1234567890123), "8000011f71fb04cb"},
		{"index key (7, 'x') rowid 9", AppendRowid(AppendText(AppendInt(nil, 7), "x"), 9), "15c01c0000000000008025780001" + "8000000000000009"},
	}
	for _, c := range cases {
		if got := hex.EncodeToString(c.key); got != c.hex {
			t.Errorf("%s: encodes as %s, the file format says %s", c.name, got, c.hex)
		}
	}
}

func inverted(b []byte) []byte { Invert(b); return b }

// value is a SQL value for the reference order: class 0 NULL, 1 number
// (exact: an integer or a real), 2 text, 3 blob.
type value struct {
	class int
	isInt bool
	i     int64
	f     float64
	s     string
}

func (v value) encode(dst []byte) []byte {
	switch {
	case v.class == 0:
		return AppendNull(dst, false)
	case v.class == 1 && v.isInt:
		return AppendInt(dst, v.i)
	case v.class == 1:
		return AppendReal(dst, v.f)
	case v.class == 2:
		return AppendText(dst, v.s)
	}
	return AppendBlob(dst, v.s)
}

func (v value) exact() *big.Float {
	if v.isInt {
		return new(big.Float).SetInt64(v.i)
	}
	return big.NewFloat(v.f)
}

// sqliteCompare is SQLite's order (sqlite3MemCompare with BINARY),
// computed exactly: NULL < numbers < TEXT < BLOB, numbers by value
// whatever their class, strings bytewise.
func sqliteCompare(a, b value) int {
	switch {
	case a.class != b.class:
		return sign(a.class - b.class)
	case a.class == 0:
		return 0
	case a.class == 1:
		return a.exact().Cmp(b.exact())
	}
	return strings.Compare(a.s, b.s)
}

func sign(x int) int { return max(-1, min(1, x)) }

func randomValue(rng *rand.Rand) value {
	ints := []int64{0, 1, -1, 3, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1 << 53, 1<<53 + 1, -(1<<53 + 1), 1<<62 + 3, 1<<63 - 1024}
	reals := []float64{0, math.Copysign(0, -1), 3, -3.5, 1 << 53, 1<<53 + 2, math.Inf(1), math.Inf(-1), 9.223372036854775807e18, -9.223372036854775808e18, 0.1, 5e-324, -math.MaxFloat64}
	switch rng.IntN(6) {
	case 0:
		return value{}
	case 1:
		if rng.IntN(2) == 0 {
			return value{class: 1, isInt: true, i: ints[rng.IntN(len(ints))]}
		}
		return value{class: 1, isInt: true, i: int64(rng.Uint64()) >> rng.IntN(64)}
	case 2:
		if rng.IntN(2) == 0 {
			return value{class: 1, f: reals[rng.IntN(len(reals))]}
		}
		if rng.IntN(2) == 0 {
			return value{class: 1, f: math.Float64frombits(rng.Uint64())}
		}
		return value{class: 1, f: rng.NormFloat64() * 1e6}
	}
	b := make([]byte, rng.IntN(5))
	for i := range b {
		b[i] = []byte{0, 1, 'a', 0xFF}[rng.IntN(4)]
	}
	return value{class: 2 + rng.IntN(2), s: string(b)}
}

// TestValueKey_OrderIsSQLiteOrder is the property every user relies on:
// bytes.Compare of two keys is SQLite's comparison of the values, for
// single values, for composite keys (column by column) and for descending
// columns (Invert), and equal values have equal keys.
func TestValueKey_OrderIsSQLiteOrder(t *testing.T) {
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, 17))
	for n := 0; n < 200000; n++ {
		a, b := randomValue(rng), randomValue(rng)
		if math.IsNaN(a.f) || math.IsNaN(b.f) {
			continue // not a SQL value: SQLite stores NaN as NULL
		}
		if rng.IntN(4) == 0 {
			b = a
		}
		want := sqliteCompare(a, b)
		if got := sign(bytes.Compare(a.encode(nil), b.encode(nil))); got != want {
			t.Fatalf("seed %d: %+v vs %+v: key order %d, SQLite %d", seed, a, b, got, want)
		}
		// Composite (a, a2) vs (b, b2), the first column descending.
		a2, b2 := randomValue(rng), randomValue(rng)
		if math.IsNaN(a2.f) || math.IsNaN(b2.f) {
			continue
		}
		ka := a.encode(nil)
		Invert(ka)
		kb := b.encode(nil)
		Invert(kb)
		ka, kb = a2.encode(ka), b2.encode(kb)
		want2 := -want
		if want == 0 {
			want2 = sqliteCompare(a2, b2)
		}
		if got := sign(bytes.Compare(ka, kb)); got != want2 {
			t.Fatalf("seed %d: (%+v desc, %+v) vs (%+v desc, %+v): key order %d, SQLite %d", seed, a, a2, b, b2, got, want2)
		}
	}
}

// TestAppendTextNoCase_IsTextOfFolded: a NOCASE key is the BINARY key of
// the text with ASCII A-Z lowered, zero bytes and all.
func TestAppendTextNoCase_IsTextOfFolded(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for n := 0; n < 20000; n++ {
		b := make([]byte, rng.IntN(40))
		lower := make([]byte, len(b))
		for i := range b {
			b[i] = "\x00aAzZ@[`\x01\xff"[rng.IntN(10)]
			lower[i] = b[i]
			if 'A' <= b[i] && b[i] <= 'Z' {
				lower[i] += 'a' - 'A'
			}
		}
		if got, want := AppendTextNoCase([]byte{7}, string(b)), AppendText([]byte{7}, string(lower)); !bytes.Equal(got, want) {
			t.Fatalf("NOCASE %q: %x, want %x", b, got, want)
		}
	}
}

func TestValueKey_NullPlacementAndNaN(t *testing.T) {
	others := [][]byte{AppendReal(nil, math.Inf(-1)), AppendInt(nil, math.MaxInt64), AppendText(nil, "\xff\xff"), AppendBlob(nil, "\xff\xff")}
	for _, k := range others {
		if bytes.Compare(AppendNull(nil, false), k) >= 0 || bytes.Compare(AppendNull(nil, true), k) <= 0 {
			t.Errorf("NULL first / last misplaced around %x", k)
		}
	}
	if bytes.Compare(AppendReal(nil, math.NaN()), AppendReal(nil, math.Inf(-1))) >= 0 {
		t.Error("NaN does not sort before -inf")
	}
	if bytes.Compare(AppendReal(nil, math.NaN()), AppendNull(nil, false)) <= 0 {
		t.Error("NaN sorts with NULL")
	}
}

func TestValueKey_DecodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for n := 0; n < 50000; n++ {
		v := randomValue(rng)
		desc := rng.IntN(2) == 0
		key := v.encode(nil)
		if desc {
			Invert(key)
		}
		key = AppendRowid(key, int64(n)-100)
		tag, err := Tag(key, desc)
		if err != nil {
			t.Fatalf("%+v: tag: %v", v, err)
		}
		var rest []byte
		switch tag {
		case TagNull:
			if v.class != 0 {
				t.Fatalf("%+v decodes as NULL", v)
			}
			rest = key[1:]
		case TagNumber:
			i, f, isInt, r, err := DecodeNumber(key, desc)
			got := value{class: 1, isInt: isInt, i: i, f: f}
			if err != nil || v.class != 1 || (!math.IsNaN(v.f) && sqliteCompare(got, v) != 0) || (v.isInt && (!isInt || i != v.i)) {
				t.Fatalf("%+v decodes as %+v, %v", v, got, err)
			}
			rest = r
		case TagText, TagBlob:
			s, r, err := DecodeString(key, desc)
			if err != nil || v.class != int(tag-TagText)/0x10+2 || s != v.s {
				t.Fatalf("%+v decodes as %q (tag %x), %v", v, s, tag, err)
			}
			rest = r
		}
		if id, err := TrailingRowid(rest); err != nil || id != int64(n)-100 || len(rest) != RowidLen {
			t.Fatalf("rowid suffix %d, %v (rest %x)", id, err, rest)
		}
	}
}

func TestDecode_CorruptKeys_ReturnErrCorrupt(t *testing.T) {
	for _, k := range [][]byte{{}, {0x99}, {TagNumber, 1, 2}, {TagNumber, 0, 0, 0, 0, 0, 0, 0, 0, 0x42}, {TagNumber, 0xC0, 0, 0, 0, 0, 0, 0, 1, deltaPos, 0, 1}, {TagNumber, 0, 0, 0, 0, 0, 0, 0, 0, deltaPos, 1}} {
		tag, err := Tag(k, false)
		if err == nil {
			_, _, _, _, err = DecodeNumber(k, false)
		}
		if err != ErrCorrupt {
			t.Errorf("%x (tag %x): %v, want ErrCorrupt", k, tag, err)
		}
	}
	for _, k := range [][]byte{{TagText, 'a'}, {TagText, 0, 7}, {TagBlob, 0}, {TagNumber, 0, 1}} {
		if _, _, err := DecodeString(k, false); err != ErrCorrupt {
			t.Errorf("DecodeString(%x): %v, want ErrCorrupt", k, err)
		}
	}
	if _, err := TrailingRowid([]byte{1, 2, 3}); err != ErrCorrupt {
		t.Errorf("short rowid suffix: %v", err)
	}
	if DecodeRowid([]byte{1}) != 0 {
		t.Error("DecodeRowid of a short key is not 0")
	}
}

func TestRowidKey_OrderIsIntegerOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for n := 0; n < 20000; n++ {
		a, b := int64(rng.Uint64()), int64(rng.Uint64())>>rng.IntN(64)
		if n%3 == 0 {
			b = -b
		}
		if got, want := sign(bytes.Compare(RowidKey(a), RowidKey(b))), cmp.Compare(a, b); got != want {
			t.Fatalf("%d vs %d: key order %d", a, b, got)
		}
		if DecodeRowid(RowidKey(a)) != a || RowidBits(a) != uint64(a)^(1<<63) {
			t.Fatalf("%d does not round-trip", a)
		}
	}
}
