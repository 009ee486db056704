package types

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/keycodec"
)

// Index keys, sort keys and group keys are engine/keycodec's value keys:
// byte strings whose memcmp order is Compare's order, so a B-tree over
// plain bytes sorts them as SQLite sorts the values, and whose byte
// equality is Equal. This file adapts Value and Collation to that codec:
// a collation folds text before it is encoded (NOCASE lower-cases ASCII,
// RTRIM drops trailing spaces). Composite keys are the concatenation of
// their columns' encodings, optionally followed by a rowid suffix
// (keycodec.AppendRowid). A descending column inverts every byte of its
// encoding.
//
// Decoding is exact except where the encoding folds: NOCASE text decodes
// lower-cased and RTRIM text without its trailing spaces; an integral REAL
// within the int64 range decodes as INTEGER (5.0 and 5 are one key, as they
// are equal values). Callers needing the original read the row.

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
		dst = keycodec.AppendNull(dst, nullsFirst == desc)
	case KindInt:
		dst = keycodec.AppendInt(dst, v.i)
	case KindReal:
		dst = keycodec.AppendReal(dst, v.Real())
	case KindText:
		switch coll {
		case CollNoCase:
			dst = keycodec.AppendTextNoCase(dst, v.s)
		case CollRTrim:
			dst = keycodec.AppendText(dst, strings.TrimRight(v.s, " "))
		default:
			dst = keycodec.AppendText(dst, v.s)
		}
	default:
		dst = keycodec.AppendBlob(dst, v.s)
	}
	if desc {
		keycodec.Invert(dst[start:])
	}
	return dst
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
	case keycodec.TagNull, keycodec.TagNullLast:
		return Null, key[1:], nil
	case keycodec.TagNumber:
		i, f, isInt, rest, err := keycodec.DecodeNumber(key, desc)
		switch {
		case err != nil:
			return Null, key, err
		case isInt:
			return NewInt(i), rest, nil
		}
		return NewReal(f), rest, nil
	case keycodec.TagText:
		s, rest, err := keycodec.DecodeString(key, desc)
		return Value{s: s, k: KindText}, rest, err
	case keycodec.TagBlob:
		s, rest, err := keycodec.DecodeString(key, desc)
		return Value{s: s, k: KindBlob}, rest, err
	}
	return Null, key, ErrCorruptKey
}
