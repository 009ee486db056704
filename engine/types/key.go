package types

import (
	"encoding/binary"
	"math"
)

// Index keys are byte strings whose memcmp order is Compare's order, so a
// B-tree over plain bytes sorts them as SQLite sorts the values. Each value
// is self-delimiting, so composite keys are the concatenation of their
// columns' encodings, optionally followed by a rowid suffix.
//
//	NULL    0x05 (0x45 when NULLs sort last, see AppendKeyNulls)
//	number  0x15, 8 bytes, 1 or 3 bytes   (see appendNumberKey)
//	text    0x25, escaped bytes, 0x00 0x01
//	blob    0x35, escaped bytes, 0x00 0x01
//
// Escaping writes 0x00 as 0x00 0xFF, so the terminator 0x00 0x01 sorts
// below any continuation and a shorter string sorts first. A descending
// column inverts every byte of its encoding.
//
// Decoding is exact except where the encoding folds: NOCASE text decodes
// lower-cased and RTRIM text without its trailing spaces; an integral REAL
// within the int64 range decodes as INTEGER (5.0 and 5 are one key, as they
// are equal values). Callers needing the original read the row.

// KeyTagText and KeyTagBlob are the first byte of a text and of a blob
// value's ascending key: every text key (blob key) starting with
// KeyTagText (KeyTagBlob) and then bytes p holds a value starting with p,
// when p has no 0x00 byte (which keys escape).
const (
	KeyTagText = keyText
	KeyTagBlob = keyBlob
)

const (
	keyNull   = 0x05
	keyNullHi = 0x45 // NULL placed after every other value
	keyNumber = 0x15
	keyText   = 0x25
	keyBlob   = 0x35
	keyTerm   = 0x01 // after 0x00: end of string
	keyEsc    = 0xFF // after 0x00: a literal 0x00 byte

	// delta markers after a number's 8 bytes (see appendNumberKey)
	keyDeltaNeg  = 0x7F
	keyDeltaZero = 0x80
	keyDeltaPos  = 0x81
)

// AppendKey appends the key encoding of v (descending when desc, text
// folded by coll) to dst. NULLs sort first ascending and last descending,
// as in SQLite.
func AppendKey(dst []byte, v Value, desc bool, coll Collation) []byte {
	return AppendKeyNulls(dst, v, desc, !desc, coll)
}

// AppendKeyNulls is AppendKey with the NULL placement chosen, for sort
// keys of ORDER BY … NULLS FIRST / NULLS LAST.
func AppendKeyNulls(dst []byte, v Value, desc, nullsFirst bool, coll Collation) []byte {
	start := len(dst)
	switch v.k {
	case KindNull:
		if nullsFirst != desc {
			dst = append(dst, keyNull)
		} else {
			dst = append(dst, keyNullHi)
		}
	case KindInt:
		dst = appendNumberKey(dst, float64(v.i), intDelta(v.i))
	case KindReal:
		dst = appendNumberKey(dst, v.Real(), 0)
	case KindText:
		dst = appendStringKey(append(dst, keyText), v.s, coll)
	default:
		dst = appendStringKey(append(dst, keyBlob), v.s, CollBinary)
	}
	if desc {
		invert(dst[start:])
	}
	return dst
}

// intDelta is i minus float64(i), exact: ints beyond 2^53 round when
// converted, and the delta breaks the tie among those sharing a float.
func intDelta(i int64) int64 {
	f := float64(i)
	if f >= 9223372036854775808.0 {
		return (i - math.MaxInt64) - 1
	}
	return i - int64(f)
}

// appendNumberKey writes a number as its float image f in order-preserving
// bits, then the exact integer remainder delta (|delta| ≤ 1024): reals and
// small integers carry delta 0 in one byte. Sorting by (f, delta) is the
// numeric order, integers and reals interleaved.
func appendNumberKey(dst []byte, f float64, delta int64) []byte {
	dst = append(dst, keyNumber)
	dst = binary.BigEndian.AppendUint64(dst, orderedBits(f))
	switch {
	case delta == 0:
		return append(dst, keyDeltaZero)
	case delta < 0:
		return binary.BigEndian.AppendUint16(append(dst, keyDeltaNeg), uint16(delta+1<<15))
	}
	return binary.BigEndian.AppendUint16(append(dst, keyDeltaPos), uint16(delta))
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
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
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

func appendStringKey(dst []byte, s string, coll Collation) []byte {
	if coll == CollRTrim {
		for len(s) > 0 && s[len(s)-1] == ' ' {
			s = s[:len(s)-1]
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0:
			dst = append(dst, 0, keyEsc)
		case coll == CollNoCase:
			dst = append(dst, lowerASCII(c))
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, 0, keyTerm)
}

func invert(b []byte) {
	for i := range b {
		b[i] = ^b[i]
	}
}

// AppendKeyRowid appends a rowid suffix: 8 bytes, sign bit flipped, so
// rowids sort numerically. Keys with the same values then order by rowid.
func AppendKeyRowid(dst []byte, rowid int64) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(rowid)^1<<63)
}

// KeyRowid reads the rowid suffix at the end of key.
func KeyRowid(key []byte) (int64, error) {
	if len(key) < 8 {
		return 0, ErrCorruptKey
	}
	return int64(binary.BigEndian.Uint64(key[len(key)-8:]) ^ 1<<63), nil
}

// DecodeKey decodes the first value of key, encoded with the given desc,
// and returns it with the rest of key. Text and blob values alias key when
// they hold no escaped byte and desc is false; otherwise they are copied.
// See the file comment for what does not round-trip.
func DecodeKey(key []byte, desc bool) (Value, []byte, error) {
	if len(key) == 0 {
		return Null, key, ErrCorruptKey
	}
	tag := key[0]
	if desc {
		tag = ^tag
	}
	switch tag {
	case keyNull, keyNullHi:
		return Null, key[1:], nil
	case keyNumber:
		return decodeNumberKey(key, desc)
	case keyText, keyBlob:
		s, rest, err := decodeStringKey(key[1:], desc)
		if tag == keyText {
			return Value{s: s, k: KindText}, rest, err
		}
		return Value{s: s, k: KindBlob}, rest, err
	}
	return Null, key, ErrCorruptKey
}

func keyByte(b byte, desc bool) byte {
	if desc {
		return ^b
	}
	return b
}

func decodeNumberKey(key []byte, desc bool) (Value, []byte, error) {
	if len(key) < 10 {
		return Null, key, ErrCorruptKey
	}
	u := binary.BigEndian.Uint64(key[1:9])
	if desc {
		u = ^u
	}
	f := fromOrderedBits(u)
	var delta int64
	rest := key[10:]
	switch keyByte(key[9], desc) {
	case keyDeltaZero:
		if i, ok := keyIntOf(f); ok {
			return NewInt(i), rest, nil
		}
		return NewReal(f), rest, nil
	case keyDeltaNeg, keyDeltaPos:
		if len(rest) < 2 {
			return Null, key, ErrCorruptKey
		}
		d := binary.BigEndian.Uint16(rest)
		if desc {
			d = ^d
		}
		delta = int64(d)
		if keyByte(key[9], desc) == keyDeltaNeg {
			delta -= 1 << 15
		}
		rest = rest[2:]
	default:
		return Null, key, ErrCorruptKey
	}
	if f < -9223372036854775808.0 || f > 9223372036854775808.0 || f != math.Trunc(f) {
		return Null, key, ErrCorruptKey
	}
	if f == 9223372036854775808.0 {
		return NewInt(math.MaxInt64 + (delta + 1)), rest, nil
	}
	return NewInt(int64(f) + delta), rest, nil
}

// keyIntOf reports whether a delta-0 number decodes as INTEGER: integral
// and inside the int64 range.
func keyIntOf(f float64) (int64, bool) {
	if f == math.Trunc(f) && f >= -9223372036854775808.0 && f < 9223372036854775808.0 {
		return int64(f), true
	}
	return 0, false
}

func decodeStringKey(b []byte, desc bool) (string, []byte, error) {
	// Fast path: ascending, no escapes — alias the key bytes.
	if !desc {
		for i := 0; i+1 < len(b); i++ {
			if b[i] != 0 {
				continue
			}
			if b[i+1] == keyTerm {
				return unsafeString(b[:i]), b[i+2:], nil
			}
			break
		}
	}
	var out []byte
	for i := 0; i < len(b); i++ {
		c := keyByte(b[i], desc)
		if c != 0 {
			out = append(out, c)
			continue
		}
		if i+1 >= len(b) {
			break
		}
		switch keyByte(b[i+1], desc) {
		case keyTerm:
			return unsafeString(out), b[i+2:], nil
		case keyEsc:
			out = append(out, 0)
			i++
			continue
		}
		break
	}
	return "", b, ErrCorruptKey
}
