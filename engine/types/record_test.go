package types

import (
	"math/rand"
	"testing"
)

func sameValue(a, b Value) bool {
	return a.Kind() == b.Kind() && a.Int() == b.Int() && a.Str() == b.Str()
}

func TestAppendRecord_RoundTrip_AllKinds(t *testing.T) {
	rec := AppendRecord(nil, interesting)
	var rr RecordReader
	if err := rr.Reset(rec); err != nil {
		t.Fatal(err)
	}
	if rr.NumColumns() != len(interesting) {
		t.Fatalf("NumColumns = %d", rr.NumColumns())
	}
	for i, want := range interesting {
		got, err := DecodeColumn(rec, i)
		if err != nil || !sameValue(got, want) {
			t.Errorf("DecodeColumn %d = %v, %v; want %v", i, render(got), err, render(want))
		}
		if g := rr.Column(i); !sameValue(g, want) {
			t.Errorf("Column %d = %v", i, render(g))
		}
	}
	if v, err := DecodeColumn(rec, len(interesting)+3); err != nil || !v.IsNull() {
		t.Errorf("past end = %v %v", render(v), err)
	}
	all, err := DecodeRecord(nil, rec)
	if err != nil || len(all) != len(interesting) {
		t.Fatalf("DecodeRecord: %d %v", len(all), err)
	}
}

func TestAppendRecord_Random_RoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var rr RecordReader
	buf := []byte("prefix")
	for n := 0; n < 2000; n++ {
		vals := make([]Value, r.Intn(40)) // past the 16 serial types AppendRecord keeps
		for i := range vals {
			vals[i] = randomValue(r)
		}
		rec := AppendRecord(buf[:6], vals)
		if string(rec[:6]) != "prefix" {
			t.Fatal("prefix clobbered")
		}
		if err := rr.Reset(rec[6:]); err != nil {
			t.Fatal(err)
		}
		for i, want := range vals {
			if got := rr.Column(i); !sameValue(got, want) {
				t.Fatalf("seed 1 iter %d col %d: %s != %s", n, i, render(got), render(want))
			}
		}
	}
}

func TestDecodeColumn_Corrupt_ReturnsError(t *testing.T) {
	good := AppendRecord(nil, []Value{NewInt(300), NewText("hello"), NewReal(1.5)})
	cases := map[string][]byte{
		"empty":          {},
		"header too big": {0x7f, 0x01},
		"bad varint":     {0x02, 0xff, 0xff},
		"reserved type":  {0x01, 10},
		"body short":     good[:len(good)-1],
		"text too long":  {0x01, 0x81, 0x01, 'a'},
	}
	for name, rec := range cases {
		var err error
		for i := 0; i < 3 && err == nil; i++ {
			_, err = DecodeColumn(rec, i)
		}
		var rr RecordReader
		if err == nil || rr.Reset(rec) == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzDecodeRecord(f *testing.F) {
	f.Add(AppendRecord(nil, interesting[:10]))
	f.Add(AppendRecord(nil, []Value{NewText("x"), NewBlob([]byte{1, 2})}))
	f.Fuzz(func(t *testing.T, rec []byte) {
		var rr RecordReader
		err := rr.Reset(rec)
		for i := 0; i < 20; i++ {
			v, err2 := DecodeColumn(rec, i)
			if err == nil && (err2 != nil || !sameValue(v, rr.Column(i))) {
				t.Fatalf("reader and DecodeColumn disagree at %d", i)
			}
		}
		if err == nil {
			vals, _ := DecodeRecord(nil, rec)
			again := AppendRecord(nil, vals)
			vals2, err := DecodeRecord(nil, again)
			if err != nil || len(vals2) != len(vals) {
				t.Fatal("re-encode failed")
			}
		}
	})
}

var benchRow = []Value{NewInt(42), NewText("alice@example.com"), NewReal(3.25), Null, NewInt(1 << 40), NewBlob([]byte("0123456789"))}

func BenchmarkAppendRecord(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 128)
	for b.Loop() {
		buf = AppendRecord(buf[:0], benchRow)
	}
}

func BenchmarkDecodeColumn(b *testing.B) {
	rec := AppendRecord(nil, benchRow)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeColumn(rec, 4); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecordReader_AllColumns(b *testing.B) {
	rec := AppendRecord(nil, benchRow)
	var rr RecordReader
	b.ReportAllocs()
	for b.Loop() {
		if err := rr.Reset(rec); err != nil {
			b.Fatal(err)
		}
		for i := 0; i < rr.NumColumns(); i++ {
			_ = rr.Column(i)
		}
	}
}
