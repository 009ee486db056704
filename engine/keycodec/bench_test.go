package keycodec

import "testing"

func BenchmarkAppendInt_IndexKey(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 32)
	for i := int64(0); b.Loop(); i++ {
		buf = AppendRowid(AppendInt(buf[:0], 123456789+i), i)
	}
}

func BenchmarkAppendText_Short(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 64)
	for b.Loop() {
		buf = AppendText(buf[:0], "alice")
	}
}

func BenchmarkAppendText_Long(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 256)
	s := "a text value of some length, as a long name or an address line would be"
	for b.Loop() {
		buf = AppendText(buf[:0], s)
	}
}

func BenchmarkAppendTextNoCase(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 64)
	for b.Loop() {
		buf = AppendTextNoCase(buf[:0], "Alice@Example.com")
	}
}

func BenchmarkDecodeNumber(b *testing.B) {
	key := AppendInt(nil, 1<<53+1)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, _, err := DecodeNumber(key, false); err != nil {
			b.Fatal(err)
		}
	}
}
