package types

import (
	"testing"
)

func TestDecodeRow_NeededColumns_MatchRecordReader(t *testing.T) {
	rec := AppendRecord(nil, []Value{NewInt(7), NewText("abc"), Null, NewReal(2.5), NewInt(1 << 40)})
	dst := make([][]Value, 7)
	for i := range dst {
		dst[i] = make([]Value, 2)
		dst[i][1] = NewInt(-99)
	}
	needed := []bool{true, true, false, true, true, false, true}
	if err := DecodeRow(rec, needed, dst, 1); err != nil {
		t.Fatal(err)
	}
	var rr RecordReader
	if err := rr.Reset(rec); err != nil {
		t.Fatal(err)
	}
	for c, n := range needed {
		want := NewInt(-99)
		if n {
			want = rr.Column(c)
		}
		if got := dst[c][1]; got.Kind() != want.Kind() || got.Text() != want.Text() {
			t.Errorf("column %d: got %v, want %v", c, got, want)
		}
	}
}

func TestDecodeRow_Malformed_ReturnsErrCorruptRecord(t *testing.T) {
	rec := AppendRecord(nil, []Value{NewInt(7), NewText("abcdef")})
	dst := [][]Value{make([]Value, 1), make([]Value, 1)}
	for cut := 0; cut < len(rec); cut++ {
		if err := DecodeRow(rec[:cut], nil, dst, 0); err != ErrCorruptRecord {
			t.Errorf("record cut to %d bytes: err = %v, want ErrCorruptRecord", cut, err)
		}
	}
}

// TestDecodeRowMask_EveryIntegerWidth_RoundTrips decodes each serial type
// (every integer width, both signs, reals, text, blobs) and checks the text
// mask names exactly the text and blob columns.
func TestDecodeRowMask_EveryIntegerWidth_RoundTrips(t *testing.T) {
	vals := []Value{Null, NewInt(0), NewInt(1)}
	for _, i := range []int64{2, 127, 128, 32767, 32768, 1<<23 - 1, 1 << 23, 1<<31 - 1, 1 << 31, 1<<47 - 1, 1 << 47, 1<<63 - 1} {
		vals = append(vals, NewInt(i), NewInt(-i-1))
	}
	vals = append(vals, NewReal(-0.25), NewText(""), NewText("héllo"), NewBlob([]byte{0, 1, 2}))
	rec := AppendRecord(nil, vals)
	dst := make([][]Value, len(vals))
	for i := range dst {
		dst[i] = make([]Value, 1)
	}
	mask, err := DecodeRowMask(rec, nil, dst, 0)
	if err != nil {
		t.Fatal(err)
	}
	var want uint64
	for c, v := range vals {
		got := dst[c][0]
		if got.Kind() != v.Kind() || got.Int() != v.Int() || got.Str() != v.Str() {
			t.Errorf("column %d: got %v, want %v", c, got, v)
		}
		if v.Kind() >= KindText {
			want |= 1 << c
		}
	}
	if mask != want {
		t.Errorf("mask %b, want %b", mask, want)
	}
}

func TestDecodeRowMask_TextPastColumn63_SetsTopBit(t *testing.T) {
	vals := make([]Value, 70)
	vals[65] = NewText("x")
	rec := AppendRecord(nil, vals)
	dst := make([][]Value, 70)
	for i := range dst {
		dst[i] = make([]Value, 1)
	}
	mask, err := DecodeRowMask(rec, nil, dst, 0)
	if err != nil || mask != 1<<63 || dst[65][0].Str() != "x" {
		t.Fatalf("mask %b, err %v, col 65 %v", mask, err, dst[65][0])
	}
}

// BenchmarkDecodeRowMask_Numbers decodes the three numeric columns of a
// scan_agg-shaped record (rowid alias NULL, small int, int, real).
func BenchmarkDecodeRowMask_Numbers(b *testing.B) {
	rec := AppendRecord(nil, []Value{Null, NewInt(42), NewInt(123456), NewReal(30864.25)})
	dst := make([][]Value, 4)
	for i := range dst {
		dst[i] = make([]Value, 1024)
	}
	needed := []bool{false, true, true, true}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := DecodeRowMask(rec, needed, dst, i&1023); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDecodeRowMask_UnusedSerialTypes_ReturnErrCorruptRecord(t *testing.T) {
	dst := [][]Value{make([]Value, 1)}
	for _, st := range []byte{10, 11} {
		if _, err := DecodeRowMask([]byte{2, st, 0}, nil, dst, 0); err != ErrCorruptRecord {
			t.Errorf("serial type %d: err = %v, want ErrCorruptRecord", st, err)
		}
	}
	// A two-byte header varint for a 60-byte text decodes through the slow path.
	rec := AppendRecord(nil, []Value{NewText(string(make([]byte, 60)))})
	if _, err := DecodeRowMask(rec, nil, dst, 0); err != nil || len(dst[0][0].Str()) != 60 {
		t.Fatalf("60-byte text: %v, %d bytes", err, len(dst[0][0].Str()))
	}
}
