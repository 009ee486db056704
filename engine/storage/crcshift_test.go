package storage

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

func TestFrameCRC_MatchesDirectChecksum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, ps := range []int{512, 1024, 4096, 32768} {
		m := newCRCShift(ps - trailerSize)
		shift := m.table()
		for range 20 {
			page := make([]byte, ps)
			for i := range page {
				page[i] = byte(r.Uint32())
			}
			pg := r.Uint32()
			sealPage(page, pg)
			hdr := make([]byte, 20)
			for i := range hdr {
				hdr[i] = byte(r.Uint32())
			}
			prev := r.Uint32()
			want := crc32.Update(crc32.Update(prev, castagnoli, hdr), castagnoli, page)
			if got := frameCRC(prev, hdr, page, pg, shift); got != want {
				t.Fatalf("page size %d: frameCRC %08x, direct %08x", ps, got, want)
			}
		}
	}
}

func TestCRCShift_Combine(t *testing.T) {
	a, b := []byte("the first part, "), []byte("and the second part of the input")
	m := newCRCShift(len(b))
	want := crc32.Checksum(append(append([]byte{}, a...), b...), castagnoli)
	if got := m.table().combine(crc32.Checksum(a, castagnoli), crc32.Checksum(b, castagnoli)); got != want {
		t.Fatalf("combine %08x, want %08x", got, want)
	}
}

func BenchmarkFrameCRC(b *testing.B) {
	page := make([]byte, 4096)
	sealPage(page, 7)
	hdr := make([]byte, 20)
	m := newCRCShift(len(page) - trailerSize)
	shift := m.table()
	b.ReportAllocs()
	for b.Loop() {
		frameCRC(1, hdr, page, 7, shift)
	}
}
