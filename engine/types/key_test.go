package types

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/ladybugsql/ladybug/engine/keycodec"
)

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

var allColls = []Collation{CollBinary, CollNoCase, CollRTrim}

// TestAppendKey_Order_MatchesCompare is the property the index relies on:
// bytes.Compare of keys equals Compare of values, for every collation and
// both directions.
func TestAppendKey_Order_MatchesCompare(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	check := func(a, b Value) {
		for _, coll := range allColls {
			want := sign(Compare(a, b, coll))
			ka, kb := AppendKey(nil, a, false, coll), AppendKey(nil, b, false, coll)
			if got := sign(bytes.Compare(ka, kb)); got != want {
				t.Fatalf("%s vs %s (%v): key order %d, Compare %d", render(a), render(b), coll, got, want)
			}
			da, db := AppendKey(nil, a, true, coll), AppendKey(nil, b, true, coll)
			if got := sign(bytes.Compare(da, db)); got != -want {
				t.Fatalf("%s vs %s desc (%v): key order %d, want %d", render(a), render(b), coll, got, -want)
			}
		}
	}
	for _, a := range interesting {
		for _, b := range interesting {
			check(a, b)
		}
	}
	for i := 0; i < 50000; i++ {
		check(randomValue(r), randomValue(r))
	}
}

// TestAppendKey_Composite_OrdersLexicographically checks that concatenated
// column keys with a rowid suffix sort column by column.
func TestAppendKey_Composite_OrdersLexicographically(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 20000; i++ {
		a := []Value{randomValue(r), randomValue(r)}
		b := []Value{randomValue(r), randomValue(r)}
		if r.Intn(2) == 0 {
			b[0] = a[0]
		}
		desc := []bool{false, true}
		want := sign(Compare(a[0], b[0], CollNoCase))
		if want == 0 {
			want = -sign(Compare(a[1], b[1], CollBinary))
		}
		ka := AppendKey(AppendKey(nil, a[0], desc[0], CollNoCase), a[1], desc[1], CollBinary)
		kb := AppendKey(AppendKey(nil, b[0], desc[0], CollNoCase), b[1], desc[1], CollBinary)
		if want == 0 {
			ka, kb = keycodec.AppendRowid(ka, -5), keycodec.AppendRowid(kb, 7)
			want = -1
		}
		if got := sign(bytes.Compare(ka, kb)); got != want {
			t.Fatalf("composite %v %v vs %v %v: %d want %d", render(a[0]), render(a[1]), render(b[0]), render(b[1]), got, want)
		}
	}
}

func TestDecodeKey_RoundTrip_Binary(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for i := 0; i < 20000; i++ {
		v := randomValue(r)
		desc := r.Intn(2) == 0
		key := keycodec.AppendRowid(AppendKey(nil, v, desc, CollBinary), int64(i)-100)
		got, rest, err := DecodeKey(key, desc)
		if err != nil {
			t.Fatalf("decode %s: %v", render(v), err)
		}
		if Compare(got, v, CollBinary) != 0 {
			t.Fatalf("decode %s = %s", render(v), render(got))
		}
		if v.Kind() == KindInt && !sameValue(got, v) {
			t.Fatalf("int %s decoded as %s", render(v), render(got))
		}
		if rowid, err := keycodec.TrailingRowid(rest); err != nil || rowid != int64(i)-100 || len(rest) != 8 {
			t.Fatalf("rowid = %d %v (rest %d)", rowid, err, len(rest))
		}
	}
}

func TestDecodeKey_Folded_Collations(t *testing.T) {
	k := AppendKey(nil, NewText("AbC  "), false, CollNoCase)
	if v, _, _ := DecodeKey(k, false); v.Str() != "abc  " {
		t.Errorf("NOCASE decodes %q", v.Str())
	}
	k = AppendKey(nil, NewText("AbC  "), true, CollRTrim)
	if v, _, _ := DecodeKey(k, true); v.Str() != "AbC" {
		t.Errorf("RTRIM decodes %q", v.Str())
	}
}

func TestDecodeKey_Corrupt_ReturnsError(t *testing.T) {
	for _, k := range [][]byte{{}, {0x99}, {keycodec.TagNumber, 1, 2}, {keycodec.TagText, 'a'}, {keycodec.TagText, 0, 7}, {keycodec.TagNumber, 0, 0, 0, 0, 0, 0, 0, 0, 0x42}} {
		if _, _, err := DecodeKey(k, false); err == nil {
			t.Errorf("DecodeKey(%x) no error", k)
		}
	}
	if _, err := keycodec.TrailingRowid([]byte{1}); err == nil {
		t.Error("short rowid")
	}
}

func FuzzDecodeKey(f *testing.F) {
	f.Add(AppendKey(nil, NewInt(1<<60+3), false, CollBinary), false)
	f.Add(AppendKey(nil, NewText("a\x00b"), true, CollBinary), true)
	f.Fuzz(func(t *testing.T, key []byte, desc bool) {
		v, rest, err := DecodeKey(key, desc)
		if err != nil {
			return
		}
		if len(rest) > len(key) {
			t.Fatal("rest grew")
		}
		re := AppendKey(nil, v, desc, CollBinary)
		v2, _, err := DecodeKey(re, desc)
		if err != nil || Compare(v, v2, CollBinary) != 0 {
			t.Fatalf("re-encode of %s failed", render(v))
		}
	})
}

func BenchmarkAppendKey_Int(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 64)
	for b.Loop() {
		buf = keycodec.AppendRowid(AppendKey(buf[:0], NewInt(123456789), false, CollBinary), 42)
	}
}

func BenchmarkAppendKey_TextNoCase(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 64)
	v := NewText("Alice@Example.com")
	for b.Loop() {
		buf = AppendKey(buf[:0], v, false, CollNoCase)
	}
}

func BenchmarkDecodeKey_Text(b *testing.B) {
	key := AppendKey(nil, NewText("alice@example.com"), false, CollBinary)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := DecodeKey(key, false); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAppendKeyNulls_Placement(t *testing.T) {
	vals := []Value{NewInt(-5), NewText("a"), NewBlob([]byte{1}), NewReal(1e300)}
	for _, desc := range []bool{false, true} {
		for _, first := range []bool{false, true} {
			kn := AppendKeyNulls(nil, Null, desc, first, CollBinary)
			for _, v := range vals {
				kv := AppendKeyNulls(nil, v, desc, first, CollBinary)
				if got := bytes.Compare(kn, kv) < 0; got != first {
					t.Errorf("desc=%v nullsFirst=%v: NULL before %s = %v", desc, first, render(v), got)
				}
			}
			if v, _, err := DecodeKey(kn, desc); err != nil || !v.IsNull() {
				t.Errorf("decode NULL key: %v %v", v, err)
			}
		}
	}
}
