package keycodec

import (
	"bytes"
	"encoding/binary"
	"math"
	"unsafe"
)

// Decoding is exact except where encoding folds: NOCASE text decodes
// lower-cased and RTRIM text without its trailing spaces; an integral real
// within the int64 range decodes as an integer (5.0 and 5 are one key, as
// they are equal values); -0 decodes as 0. The decoders take a column
// encoded with the given desc and never panic on bad bytes: they return
// ErrCorrupt.

// Tag returns the class tag (TagNull, TagNullLast, TagNumber, TagText or
// TagBlob) of the value key starts with.
func Tag(key []byte, desc bool) (byte, error) {
	if len(key) == 0 {
		return 0, ErrCorrupt
	}
	switch tag := keyByte(key[0], desc); tag {
	case TagNull, TagNullLast, TagNumber, TagText, TagBlob:
		return tag, nil
	}
	return 0, ErrCorrupt
}

func keyByte(b byte, desc bool) byte {
	if desc {
		return ^b
	}
	return b
}

// DecodeNumber decodes the number key starts with (tag included): an
// integer i when isInt, else the real f, and the rest of key.
func DecodeNumber(key []byte, desc bool) (i int64, f float64, isInt bool, rest []byte, err error) {
	if len(key) < 10 || keyByte(key[0], desc) != TagNumber {
		return 0, 0, false, key, ErrCorrupt
	}
	u := binary.BigEndian.Uint64(key[1:9])
	if desc {
		u = ^u
	}
	f = fromOrderedBits(u)
	rest = key[10:]
	var delta int64
	switch marker := keyByte(key[9], desc); marker {
	case deltaZero:
		if f == math.Trunc(f) && f >= -9223372036854775808.0 && f < 9223372036854775808.0 {
			return int64(f), 0, true, rest, nil
		}
		return 0, f, false, rest, nil
	case deltaNeg, deltaPos:
		if len(rest) < 2 {
			return 0, 0, false, key, ErrCorrupt
		}
		d := binary.BigEndian.Uint16(rest)
		if desc {
			d = ^d
		}
		delta = int64(d)
		if marker == deltaNeg {
			delta -= 1 << 15
		}
		rest = rest[2:]
	default:
		return 0, 0, false, key, ErrCorrupt
	}
	if f < -9223372036854775808.0 || f > 9223372036854775808.0 || f != math.Trunc(f) {
		return 0, 0, false, key, ErrCorrupt
	}
	if f == 9223372036854775808.0 {
		return math.MaxInt64 + (delta + 1), 0, true, rest, nil
	}
	return int64(f) + delta, 0, true, rest, nil
}

// DecodeString decodes the text or blob key starts with (tag included)
// and returns its bytes and the rest of key. The string aliases key when
// it holds no escaped byte and desc is false; otherwise it is a copy.
func DecodeString(key []byte, desc bool) (string, []byte, error) {
	// Fast path: ascending, no escapes — alias the key bytes.
	if !desc && len(key) > 0 && (key[0] == TagText || key[0] == TagBlob) {
		b := key[1:]
		if i := bytes.IndexByte(b, 0); i >= 0 && i+1 < len(b) && b[i+1] == term {
			return unsafeString(b[:i]), b[i+2:], nil
		}
	}
	return decodeEscaped(key, desc)
}

// decodeEscaped is DecodeString for a descending key or one with escaped
// zero bytes: it copies.
func decodeEscaped(key []byte, desc bool) (string, []byte, error) {
	if len(key) == 0 {
		return "", key, ErrCorrupt
	}
	if tag := keyByte(key[0], desc); tag != TagText && tag != TagBlob {
		return "", key, ErrCorrupt
	}
	b := key[1:]
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
		case term:
			return unsafeString(out), b[i+2:], nil
		case esc:
			out = append(out, 0)
			i++
			continue
		}
		break
	}
	return "", key, ErrCorrupt
}

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
