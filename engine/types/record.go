package types

import (
	"encoding/binary"
	"math"
)

// A record is one table row as bytes, SQLite's design in outline:
//
//	uvarint H            length in bytes of the serial types that follow
//	uvarint × ncol       one serial type per column
//	body                 the columns' payloads, in order
//
// Serial types: 0 NULL; 1,2,3,4,5,6 a big-endian two's-complement integer
// of 1,2,3,4,6,8 bytes; 7 a big-endian IEEE float64; 8 the integer 0; 9
// the integer 1; 10 and 11 unused (corrupt); even N ≥ 12 a blob of
// (N-12)/2 bytes; odd N ≥ 13 text of (N-13)/2 bytes.
//
// Decoded TEXT and BLOB values alias the record's bytes: they stay valid
// while the record does.

const (
	stNull  = 0
	stReal  = 7
	stZero  = 8
	stOne   = 9
	stBlob0 = 12
	stText0 = 13
)

// serialType is the serial type of v.
func serialType(v Value) uint64 {
	switch v.k {
	case KindNull:
		return stNull
	case KindInt:
		return intSerialType(v.i)
	case KindReal:
		return stReal
	case KindText:
		return stText0 + 2*uint64(len(v.s))
	}
	return stBlob0 + 2*uint64(len(v.s))
}

func intSerialType(i int64) uint64 {
	switch {
	case i == 0:
		return stZero
	case i == 1:
		return stOne
	case i >= math.MinInt8 && i <= math.MaxInt8:
		return 1
	case i >= math.MinInt16 && i <= math.MaxInt16:
		return 2
	case i >= -1<<23 && i < 1<<23:
		return 3
	case i >= math.MinInt32 && i <= math.MaxInt32:
		return 4
	case i >= -1<<47 && i < 1<<47:
		return 5
	}
	return 6
}

// intWidth[t] is the byte width of integer serial type t.
var intWidth = [7]int{0, 1, 2, 3, 4, 6, 8}

// serialSize is the body size of serial type t; ok is false for the
// unused types 10 and 11.
func serialSize(t uint64) (uint64, bool) {
	switch {
	case t >= stBlob0:
		return (t - stBlob0) / 2, true
	case t <= 6:
		return uint64(intWidth[t]), true
	case t == stReal:
		return 8, true
	case t == stZero || t == stOne:
		return 0, true
	}
	return 0, false
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// AppendRecord appends the record of vals to dst and returns the extended
// slice. It allocates only when dst lacks capacity.
func AppendRecord(dst []byte, vals []Value) []byte {
	// The serial types of the first columns are kept for the header, so
	// a narrow row's types are worked out once (a wider row's rest twice,
	// still without allocating).
	var sts [16]uint64
	hdr, body := 0, 0
	for i, v := range vals {
		t := serialType(v)
		if i < len(sts) {
			sts[i] = t
		}
		hdr += uvarintLen(t)
		n, _ := serialSize(t)
		body += int(n)
	}
	if need := uvarintLen(uint64(hdr)) + hdr + body; cap(dst)-len(dst) < need {
		grown := make([]byte, len(dst), len(dst)+need)
		copy(grown, dst)
		dst = grown
	}
	dst = binary.AppendUvarint(dst, uint64(hdr))
	for i, v := range vals {
		t := uint64(0)
		if i < len(sts) {
			t = sts[i]
		} else {
			t = serialType(v)
		}
		dst = binary.AppendUvarint(dst, t)
	}
	for _, v := range vals {
		dst = appendPayload(dst, v)
	}
	return dst
}

func appendPayload(dst []byte, v Value) []byte {
	switch v.k {
	case KindInt:
		t := intSerialType(v.i)
		if t >= stZero {
			return dst
		}
		w := intWidth[t]
		u := uint64(v.i)
		for s := (w - 1) * 8; s >= 0; s -= 8 {
			dst = append(dst, byte(u>>uint(s)))
		}
		return dst
	case KindReal:
		return binary.BigEndian.AppendUint64(dst, uint64(v.i))
	case KindText, KindBlob:
		return append(dst, v.s...)
	}
	return dst
}

// decodePayload decodes a value of serial type t from b, which holds at
// least serialSize(t) bytes.
func decodePayload(t uint64, b []byte) Value {
	switch {
	case t == stNull:
		return Null
	case t <= 6:
		w := intWidth[t]
		var u uint64
		for _, c := range b[:w] {
			u = u<<8 | uint64(c)
		}
		shift := uint(64 - 8*w)
		return NewInt(int64(u<<shift) >> shift)
	case t == stReal:
		return Value{i: int64(binary.BigEndian.Uint64(b)), k: KindReal}
	case t == stZero:
		return NewInt(0)
	case t == stOne:
		return NewInt(1)
	}
	n := (t - stBlob0) / 2
	k := KindBlob
	if t&1 == 1 {
		k = KindText
	}
	return Value{s: unsafeString(b[:n]), k: k}
}

// recordHeader reads the header length and returns the header bounds.
func recordHeader(rec []byte) (start, end int, err error) {
	h, n := binary.Uvarint(rec)
	if n <= 0 || h > uint64(len(rec)-n) {
		return 0, 0, ErrCorruptRecord
	}
	return n, n + int(h), nil
}

// DecodeColumn decodes column i of rec without allocating, by walking the
// header once up to i. A column past the record's end (one added to the
// table after the row was written) is NULL. Malformed bytes give
// ErrCorruptRecord, never a panic.
func DecodeColumn(rec []byte, i int) (Value, error) {
	p, end, err := recordHeader(rec)
	if err != nil {
		return Null, err
	}
	off := uint64(end)
	for col := 0; p < end; col++ {
		t, n := binary.Uvarint(rec[p:end])
		if n <= 0 {
			return Null, ErrCorruptRecord
		}
		p += n
		size, ok := serialSize(t)
		if !ok || size > uint64(len(rec))-off {
			return Null, ErrCorruptRecord
		}
		if col == i {
			return decodePayload(t, rec[off:off+size]), nil
		}
		off += size
	}
	if i < 0 {
		return Null, ErrCorruptRecord
	}
	return Null, nil
}

// DecodeRecord appends every column of rec to dst.
func DecodeRecord(dst []Value, rec []byte) ([]Value, error) {
	var r RecordReader
	if err := r.Reset(rec); err != nil {
		return dst, err
	}
	for i := 0; i < r.NumColumns(); i++ {
		dst = append(dst, r.Column(i))
	}
	return dst, nil
}

// RecordReader indexes a record's columns once so that each column is then
// read in constant time. Reuse one reader across rows: after the first
// rows it stops allocating.
type RecordReader struct {
	rec   []byte
	types []uint64
	offs  []int // body offset of each column; offs[i]+size(types[i]) ≤ len(rec)
}

// Reset points the reader at rec and validates its header and sizes.
// On error the reader holds no columns.
func (r *RecordReader) Reset(rec []byte) error {
	r.rec, r.types, r.offs = nil, r.types[:0], r.offs[:0]
	p, end, err := recordHeader(rec)
	if err != nil {
		return err
	}
	off := uint64(end)
	for p < end {
		t, n := binary.Uvarint(rec[p:end])
		if n <= 0 {
			return r.fail()
		}
		p += n
		size, ok := serialSize(t)
		if !ok || size > uint64(len(rec))-off {
			return r.fail()
		}
		r.types = append(r.types, t)
		r.offs = append(r.offs, int(off))
		off += size
	}
	r.rec = rec
	return nil
}

func (r *RecordReader) fail() error {
	r.types, r.offs = r.types[:0], r.offs[:0]
	return ErrCorruptRecord
}

// NumColumns returns the number of columns the record holds.
func (r *RecordReader) NumColumns() int { return len(r.types) }

// Column returns column i, aliasing the record; NULL when i is outside the
// record (a column added after the row was written).
func (r *RecordReader) Column(i int) Value {
	if i < 0 || i >= len(r.types) {
		return Null
	}
	return decodePayload(r.types[i], r.rec[r.offs[i]:])
}
