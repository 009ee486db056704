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
