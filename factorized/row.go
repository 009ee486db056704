package factorized

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// Storage classes of a TypeValue cell. The numbers are those of the
// engine's value kinds (NULL, INTEGER, REAL, TEXT, BLOB), so a kind converts
// with a plain type conversion.
const (
	KindNull uint8 = iota
	KindInt
	KindReal
	KindText
	KindBlob
)

// A TypeValue slot's kind byte holds the storage class in its low nibble;
// for text and blob the high nibble is 1+length when the bytes are inline in
// the 8-byte slot, and 0 when the slot holds an overflow reference.
const (
	kindMask    = 0x0f
	inlineShift = 4
	inlineMax   = 8
)

var le = binary.LittleEndian

// Row is a view of one tuple of a Table. It is a small value (no
// allocation) valid until the table is truncated below it, Reset or
// Released. Cell accessors take a column index; using the accessor of
// another column type reads that slot's bytes reinterpreted.
type Row struct {
	t *Table
	b []byte // the tuple's bytes, len == schema width
}

// Tuple returns the raw tuple bytes (layout in the package doc).
func (r Row) Tuple() []byte { return r.b }

func (r Row) slot(c, n int) []byte {
	off := r.t.schema.offs[c]
	return r.b[off : off+n : off+n]
}

// IsNull reports whether column c is NULL: its null bit is set or, for a
// TypeValue column, its kind is KindNull (a zeroed value cell is NULL).
func (r Row) IsNull(c int) bool {
	if r.b[r.t.schema.nullOff+c>>3]&(1<<(c&7)) != 0 {
		return true
	}
	s := r.t.schema
	return s.cols[c].Type == TypeValue && r.b[s.offs[c]+8] == KindNull
}

// SetNull makes column c NULL.
func (r Row) SetNull(c int) {
	r.b[r.t.schema.nullOff+c>>3] |= 1 << (c & 7)
	if r.t.schema.cols[c].Type == TypeValue {
		r.b[r.t.schema.offs[c]+8] = KindNull
	}
}

// setNotNull clears column c's null bit; every setter calls it, so a value
// written into a slot that held NULL never reads as NULL.
func (r Row) setNotNull(c int) {
	r.b[r.t.schema.nullOff+c>>3] &^= 1 << (c & 7)
}

// Int64 returns column c as an int64.
func (r Row) Int64(c int) int64 { return int64(le.Uint64(r.slot(c, 8))) }

// SetInt64 sets column c.
func (r Row) SetInt64(c int, v int64) {
	le.PutUint64(r.slot(c, 8), uint64(v))
	r.setNotNull(c)
}

// Float64 returns column c as a float64.
func (r Row) Float64(c int) float64 { return math.Float64frombits(le.Uint64(r.slot(c, 8))) }

// SetFloat64 sets column c.
func (r Row) SetFloat64(c int, v float64) {
	le.PutUint64(r.slot(c, 8), math.Float64bits(v))
	r.setNotNull(c)
}

// Bool returns column c as a bool.
func (r Row) Bool(c int) bool { return r.b[r.t.schema.offs[c]] != 0 }

// SetBool sets column c.
func (r Row) SetBool(c int, v bool) {
	var x byte
	if v {
		x = 1
	}
	r.b[r.t.schema.offs[c]] = x
	r.setNotNull(c)
}

// Bytes returns a writable view of a TypeBytes column's slot. Writing
// through it does not clear the null bit; SetBytes does.
func (r Row) Bytes(c int) []byte { return r.slot(c, r.t.schema.cols[c].Width) }

// SetBytes copies v into a TypeBytes column's slot, truncating it to the
// slot width or padding it with zeros.
func (r Row) SetBytes(c int, v []byte) {
	s := r.Bytes(c)
	clear(s[copy(s, v):])
	r.setNotNull(c)
}

// Value returns a TypeValue cell: its storage class, the bits of an integer
// (int64) or real (math.Float64bits), and for text and blob a view of the
// bytes. The view aliases a block that goes back to the pool when the table
// is Reset or Released: copy it before keeping it.
func (r Row) Value(c int) (kind uint8, bits uint64, b []byte) {
	if r.IsNull(c) {
		return KindNull, 0, nil
	}
	s := r.slot(c, valueWidth)
	kb := s[8]
	kind = kb & kindMask
	if kind != KindText && kind != KindBlob {
		return kind, le.Uint64(s), nil
	}
	if n := int(kb >> inlineShift); n != 0 {
		return kind, 0, s[: n-1 : n-1]
	}
	return kind, 0, r.t.ovf.get(le.Uint64(s))
}

// Text returns a TypeValue text or blob cell's bytes as a string view of
// the same memory Value returns (no copy); "" for any other kind. The same
// aliasing caveat applies: clone the string before keeping it.
func (r Row) Text(c int) string {
	_, _, b := r.Value(c)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// SetValue sets a TypeValue cell. bits is used for KindInt and KindReal, b
// (copied) for KindText and KindBlob; KindNull makes the cell NULL. A kind
// outside the five storage classes is stored as NULL.
func (r Row) SetValue(c int, kind uint8, bits uint64, b []byte) {
	s := r.slot(c, valueWidth)
	switch kind {
	case KindInt, KindReal:
		le.PutUint64(s, bits)
		s[8] = kind
	case KindText, KindBlob:
		r.setBytesValue(s, kind, b)
	default:
		r.SetNull(c)
		return
	}
	r.setNotNull(c)
}

func (r Row) setBytesValue(s []byte, kind uint8, b []byte) {
	if len(b) <= inlineMax {
		le.PutUint64(s, 0)
		copy(s, b)
		s[8] = kind | byte(len(b)+1)<<inlineShift
		return
	}
	le.PutUint64(s, r.t.ovf.add(b))
	s[8] = kind
}

// SetText sets a TypeValue cell to the text s (copied).
func (r Row) SetText(c int, s string) {
	r.SetValue(c, KindText, 0, unsafe.Slice(unsafe.StringData(s), len(s)))
}
