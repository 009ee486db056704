package types

import (
	"math/rand/v2"
	"testing"
)

// randomPickValue is a value of a random serial type, weighted towards
// the narrow integers whose widths vary row to row.
func randomPickValue(r *rand.Rand) Value {
	switch r.IntN(9) {
	case 0:
		return Null
	case 1:
		return NewInt(int64(r.IntN(2)))
	case 2:
		return NewInt(int64(r.IntN(300)) - 150)
	case 3:
		return NewInt(r.Int64N(1<<24) - 1<<23)
	case 4:
		return NewInt(int64(r.Uint64()))
	case 5:
		return NewInt(r.Int64N(1<<48) - 1<<47)
	case 6:
		return NewReal(r.NormFloat64())
	case 7:
		return NewText(string(make([]byte, r.IntN(70))))
	}
	return NewBlob([]byte{byte(r.IntN(256)), 2})
}

// TestColumnPicker_Pick_MatchesDecodeRowMask picks column subsets of
// random records, whose header shapes repeat often enough to hit the
// layout cache, and checks every value against DecodeRowMask.
func TestColumnPicker_Pick_MatchesDecodeRowMask(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, cols := range [][]int{{0}, {2, 3}, {1, 4, 9}, {0, 5, 17, 20}, {3, 30}} {
		p := NewColumnPicker(cols)
		needed := make([]bool, cols[len(cols)-1]+1)
		for _, c := range cols {
			needed[c] = true
		}
		want := make([][]Value, len(needed))
		for c := range want {
			want[c] = make([]Value, 1)
		}
		shapes := make([][]Value, 6) // a few row shapes, reused with varying values
		for i := range shapes {
			shapes[i] = make([]Value, 1+r.IntN(25))
			for c := range shapes[i] {
				shapes[i][c] = randomPickValue(r)
			}
		}
		got := make([]Value, len(cols))
		for n := 0; n < 3000; n++ {
			row := shapes[r.IntN(len(shapes))]
			if c := r.IntN(len(row)); r.IntN(3) == 0 {
				row[c] = randomPickValue(r)
			}
			rec := AppendRecord(nil, row)
			if err := p.Pick(rec, got); err != nil {
				t.Fatalf("cols %v row %v: %v", cols, row, err)
			}
			if _, err := DecodeRowMask(rec, needed, want, 0); err != nil {
				t.Fatal(err)
			}
			for j, c := range cols {
				w := want[c][0]
				if g := got[j]; g.Kind() != w.Kind() || g.Int() != w.Int() || g.Str() != w.Str() {
					t.Fatalf("cols %v row %v: column %d = %v, want %v", cols, row, c, g, w)
				}
			}
		}
	}
}

// TestColumnPicker_Pick_Malformed_ReturnsErrCorruptRecord cuts records
// short and damages serial types, after a layout of the intact record is
// cached: never a panic, and an error wherever DecodeRowMask has one.
func TestColumnPicker_Pick_Malformed_ReturnsErrCorruptRecord(t *testing.T) {
	rec := AppendRecord(nil, []Value{NewInt(7), NewInt(1 << 20), NewReal(2.5), NewText("abcdef")})
	p := NewColumnPicker([]int{1, 2, 3})
	got := make([]Value, 3)
	want := [][]Value{make([]Value, 1), make([]Value, 1), make([]Value, 1), make([]Value, 1)}
	if err := p.Pick(rec, got); err != nil {
		t.Fatal(err)
	}
	for cut := 0; cut < len(rec); cut++ {
		if err := p.Pick(rec[:cut], got); err != ErrCorruptRecord {
			t.Errorf("record cut to %d bytes: err = %v, want ErrCorruptRecord", cut, err)
		}
	}
	for i := 1; i < 5; i++ {
		for _, st := range []byte{10, 11, 0x7F, 0x80} {
			bad := append([]byte(nil), rec...)
			bad[i] = st
			_, werr := DecodeRowMask(bad, nil, want, 0)
			if err := p.Pick(bad, got); (err != nil) != (werr != nil) {
				t.Errorf("serial byte %d = %#x: err %v, DecodeRowMask err %v", i, st, err, werr)
			}
		}
	}
}

// TestColumnPicker_Pick_ColumnPastEnd_IsNull reads a column a short
// record (written before the column was added) does not hold.
func TestColumnPicker_Pick_ColumnPastEnd_IsNull(t *testing.T) {
	p := NewColumnPicker([]int{1, 6})
	got := make([]Value, 2)
	for _, rec := range [][]byte{
		AppendRecord(nil, []Value{NewInt(1), NewInt(1 << 30), NewInt(3)}),
		AppendRecord(nil, []Value{NewInt(1), NewInt(1 << 30), NewInt(3), Null, Null, Null, NewInt(9)}),
		AppendRecord(nil, []Value{NewInt(1), NewInt(1 << 30), NewInt(3)}),
	} {
		if err := p.Pick(rec, got); err != nil {
			t.Fatal(err)
		}
		var rr RecordReader
		if err := rr.Reset(rec); err != nil {
			t.Fatal(err)
		}
		if got[0].Int() != 1<<30 || got[1].Kind() != rr.Column(6).Kind() || got[1].Int() != rr.Column(6).Int() {
			t.Errorf("record of %d columns: got %v", rr.NumColumns(), got)
		}
	}
}

// BenchmarkColumnPicker_Pick picks the two aggregated columns of scan_agg
// records (rowid alias NULL, small int, int, real); every 16th row's int
// is narrower, so the cache holds two layouts.
func BenchmarkColumnPicker_Pick(b *testing.B) {
	recs := make([][]byte, 64)
	for i := range recs {
		v := int64(123456 + i)
		if i%16 == 0 {
			v = 1234
		}
		recs[i] = AppendRecord(nil, []Value{Null, NewInt(42), NewInt(v), NewReal(30864.25)})
	}
	p := NewColumnPicker([]int{2, 3})
	dst := make([]Value, 2)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := p.Pick(recs[i&63], dst); err != nil {
			b.Fatal(err)
		}
	}
}
