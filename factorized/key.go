package factorized

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// Key encoding: SQL values as bytes whose memcmp order is SQLite's order
// (NULL < numbers < TEXT < BLOB, integers and reals compared by value) and
// whose equality is SQL equality (3 and 3.0 encode alike), for Sorter and
// TopN keys and HashTable keys. Each value is self-delimiting, so the
// encodings of several columns concatenate into a composite key; InvertKey
// turns one column's encoding into its descending form.
const (
	keyNullFirst = 0x05
	keyNumber    = 0x10
	keyText      = 0x20
	keyBlob      = 0x30
	keyNullLast  = 0xF0
)

// AppendKeyNull appends NULL, sorting before every value, or after every
// value if last (NULLS LAST).
func AppendKeyNull(dst []byte, last bool) []byte {
	if last {
		return append(dst, keyNullLast)
	}
	return append(dst, keyNullFirst)
}

// AppendKeyInt appends an integer. It is encoded as the nearest float64 and
// the (small) exact difference, so it orders and compares against reals by
// value.
func AppendKeyInt(dst []byte, v int64) []byte {
	f := float64(v)
	var diff int64
	if f >= math.MaxInt64 { // 2^63: not an int64
		diff = v - math.MaxInt64 - 1
	} else {
		diff = v - int64(f)
	}
	return appendNumber(dst, f, diff)
}

// AppendKeyReal appends a real. NaN, which SQLite stores as NULL, encodes
// as NULL; -0 encodes as 0.
func AppendKeyReal(dst []byte, f float64) []byte {
	if f != f {
		return AppendKeyNull(dst, false)
	}
	return appendNumber(dst, f+0, 0) // +0 turns -0 into 0
}

// appendNumber writes the class byte, the float's order-preserving bits and
// the integer remainder, which float spacing bounds by ±1024.
func appendNumber(dst []byte, f float64, diff int64) []byte {
	bits := math.Float64bits(f)
	if bits>>63 != 0 {
		bits = ^bits
	} else {
		bits |= 1 << 63
	}
	dst = append(dst, keyNumber)
	dst = binary.BigEndian.AppendUint64(dst, bits)
	return binary.BigEndian.AppendUint16(dst, uint16(diff+0x8000))
}

// AppendKeyText appends text compared bytewise (BINARY collation; encode
// another collation's folded form instead).
func AppendKeyText(dst, b []byte) []byte { return appendEscaped(append(dst, keyText), b) }

// AppendKeyString is AppendKeyText for a string, without converting it.
func AppendKeyString(dst []byte, s string) []byte {
	return appendEscaped(append(dst, keyText), unsafe.Slice(unsafe.StringData(s), len(s)))
}

// AppendKeyBlob appends a blob.
func AppendKeyBlob(dst, b []byte) []byte { return appendEscaped(append(dst, keyBlob), b) }

// appendEscaped writes b with each 0x00 as 0x00 0xFF and a 0x00 0x00
// terminator, so a value that is a prefix of another sorts first and the
// next column's bytes never compare against this one's.
func appendEscaped(dst, b []byte) []byte {
	for _, c := range b {
		if c == 0 {
			dst = append(dst, 0, 0xFF)
		} else {
			dst = append(dst, c)
		}
	}
	return append(dst, 0, 0)
}

// AppendKeyValue appends a value given as Row.Value returns it.
func AppendKeyValue(dst []byte, kind uint8, bits uint64, b []byte) []byte {
	switch kind {
	case KindInt:
		return AppendKeyInt(dst, int64(bits))
	case KindReal:
		return AppendKeyReal(dst, math.Float64frombits(bits))
	case KindText:
		return AppendKeyText(dst, b)
	case KindBlob:
		return AppendKeyBlob(dst, b)
	}
	return AppendKeyNull(dst, false)
}

// InvertKey complements the bytes of one column's encoding in place, which
// reverses its order (ORDER BY … DESC) and keeps it self-delimiting.
func InvertKey(b []byte) {
	for i := range b {
		b[i] = ^b[i]
	}
}
