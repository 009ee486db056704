package keycodec

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
)

// Class tags: the first byte of a value's ascending key.
const (
	TagNull     = 0x05
	TagNullLast = 0x45 // NULL placed after every other value
	TagNumber   = 0x15
	TagText     = 0x25
	TagBlob     = 0x35
)

const (
	term = 0x01 // after 0x00: end of string
	esc  = 0xFF // after 0x00: a literal 0x00 byte

	// remainder markers after a number's 8 bytes (see appendNumber)
	deltaNeg  = 0x7F
	deltaZero = 0x80
	deltaPos  = 0x81
)

// ErrCorrupt is returned by the decoders for bytes no encoder here wrote
// (malformed or truncated keys).
var ErrCorrupt = errors.New("keycodec: corrupt key")

// AppendNull appends NULL: it sorts before every value, or after every
// value when last (NULLS LAST ascending; NULLS FIRST of a column Invert
// makes descending).
func AppendNull(dst []byte, last bool) []byte {
	if last {
		return append(dst, TagNullLast)
	}
	return append(dst, TagNull)
}

// A number is its float image in order-preserving bits, then the exact
// integer remainder delta = i - float64(i) (|delta| ≤ 1024, float spacing
// below 2^63): reals and most integers carry delta 0 in one byte, the
// others a marker and 2 bytes. Sorting by (float, delta) is numeric
// order, integers and reals interleaved.

// AppendInt appends an integer: its nearest float64 and the exact
// remainder, so it orders and compares against reals by value.
func AppendInt(dst []byte, i int64) []byte {
	return appendDelta(appendFloat(dst, float64(i)), intDelta(i))
}

// AppendReal appends a real; -0 encodes as 0 and NaN before every other
// number.
func AppendReal(dst []byte, f float64) []byte { return append(appendFloat(dst, f), deltaZero) }

// appendFloat writes the tag and the float's order-preserving bits.
func appendFloat(dst []byte, f float64) []byte {
	return binary.BigEndian.AppendUint64(append(dst, TagNumber), orderedBits(f))
}

// intDelta is i minus float64(i), exact: integers beyond 2^53 round when
// converted, and the delta breaks the tie among those sharing a float.
func intDelta(i int64) int64 {
	f := float64(i)
	if f >= 9223372036854775808.0 { // 2^63: not an int64
		return (i - math.MaxInt64) - 1
	}
	return i - int64(f)
}

// appendDelta writes the remainder: deltaZero alone, or deltaNeg /
// deltaPos and 2 bytes (delta+2^15 when negative, delta when positive).
// It does not branch on delta, whose sign is random among large integers.
func appendDelta(dst []byte, delta int64) []byte {
	neg := delta >> 63                           // -1 or 0
	nonzero := int64(uint64(delta|-delta) >> 63) // 1 or 0
	u := uint16(delta) ^ uint16(neg&0x8000)      // delta+2^15 when negative
	dst = append(dst, byte(deltaZero+(neg|nonzero)), byte(u>>8), byte(u))
	return dst[:len(dst)-2+2*int(nonzero)]
}

// orderedBits maps a float to bits whose unsigned order is numeric order;
// -0 is 0 (they are equal) and NaN sorts first.
func orderedBits(f float64) uint64 {
	switch {
	case f != f:
		return 0
	case f == 0:
		f = 0
	}
	b := math.Float64bits(f)
	// Negative: every bit flipped; positive: the sign bit set. Without a
	// branch, as the sign is random in a column of mixed numbers.
	return b ^ (uint64(int64(b)>>63) | 1<<63)
}

func fromOrderedBits(u uint64) float64 {
	if u == 0 {
		return math.NaN()
	}
	if u>>63 == 1 {
		return math.Float64frombits(u &^ (1 << 63))
	}
	return math.Float64frombits(^u)
}

// AppendText appends text compared bytewise (BINARY; RTRIM encodes the
// text without its trailing spaces).
func AppendText(dst []byte, s string) []byte { return appendEscaped(append(dst, TagText), s) }

// AppendTextNoCase appends text under NOCASE: ASCII A-Z folded to a-z.
func AppendTextNoCase(dst []byte, s string) []byte {
	n := len(dst) + 1
	dst = appendEscaped(append(dst, TagText), s)
	fold := dst[n:] // escapes and terminator hold no A-Z byte
	for i, c := range fold {
		fold[i] = lowerASCII[c]
	}
	return dst
}

// lowerASCII maps A-Z to a-z and every other byte to itself.
var lowerASCII = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] += 'a' - 'A'
		}
	}
	return t
}()

// AppendBlob appends a blob (its bytes given as a string, as values hold
// them).
func AppendBlob(dst []byte, b string) []byte { return appendEscaped(append(dst, TagBlob), b) }

// appendEscaped writes s with each 0x00 as 0x00 0xFF, then the terminator;
// the runs between zero bytes are copied whole.
func appendEscaped(dst []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			return append(append(dst, s...), 0, term)
		}
		dst = append(append(dst, s[:i]...), 0, esc)
		s = s[i+1:]
	}
}

// Invert complements the bytes of one column's encoding in place, which
// reverses its order (DESC) and keeps it self-delimiting.
func Invert(b []byte) {
	for i := range b {
		b[i] = ^b[i]
	}
}
