package types

import (
	"math"
	"strings"
	"unsafe"
)

// Kind is a value's storage class, as in SQLite.
type Kind uint8

// The storage classes. The order is SQLite's cross-class sort order:
// NULL < INTEGER/REAL < TEXT < BLOB.
const (
	KindNull Kind = iota
	KindInt
	KindReal
	KindText
	KindBlob
)

// String names the storage class as typeof() does.
func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindInt:
		return "integer"
	case KindReal:
		return "real"
	case KindText:
		return "text"
	case KindBlob:
		return "blob"
	}
	return "unknown"
}

// Value is one SQL value. It is 32 bytes and never boxed: text and blob
// bytes live in s, an integer or the bits of a real in i.
//
// A Value holding a blob may alias memory owned by someone else (a page, a
// factorized block); Blob and Text return views, and callers that keep a value
// past the current row use Clone.
type Value struct {
	s string
	i int64
	k Kind
}

// Null is the SQL NULL.
var Null = Value{}

// NewInt returns an INTEGER value.
func NewInt(i int64) Value { return Value{i: i, k: KindInt} }

// NewReal returns a REAL value.
func NewReal(f float64) Value { return Value{i: int64(math.Float64bits(f)), k: KindReal} }

// NewText returns a TEXT value.
func NewText(s string) Value { return Value{s: s, k: KindText} }

// NewBlob returns a BLOB value that aliases b.
func NewBlob(b []byte) Value {
	return Value{s: unsafe.String(unsafe.SliceData(b), len(b)), k: KindBlob}
}

// NewBool returns 1 or 0 as an INTEGER, SQLite's booleans.
func NewBool(b bool) Value {
	if b {
		return NewInt(1)
	}
	return NewInt(0)
}

// subtypeJSON in the integer slot of a TEXT value marks text a JSON
// function produced; SQLite calls this the JSON subtype. It never reaches
// storage: records and keys keep only the text.
const subtypeJSON = 1

// NewJSON returns TEXT holding JSON, marked so that JSON functions and
// aggregates taking it embed it as JSON instead of quoting it as a string.
func NewJSON(s string) Value { return Value{s: s, i: subtypeJSON, k: KindText} }

// IsJSON reports whether v is TEXT carrying the JSON subtype.
func (v Value) IsJSON() bool { return v.k == KindText && v.i == subtypeJSON }

// WithoutSubtype is v with no JSON subtype, as a value leaving a subquery
// is in SQLite.
func (v Value) WithoutSubtype() Value {
	if v.IsJSON() {
		v.i = 0
	}
	return v
}

// Kind returns the storage class.
func (v Value) Kind() Kind { return v.k }

// IsNull reports whether v is NULL.
func (v Value) IsNull() bool { return v.k == KindNull }

// Int returns the integer of an INTEGER value (no conversion).
func (v Value) Int() int64 { return v.i }

// Real returns the float of a REAL value (no conversion).
func (v Value) Real() float64 { return math.Float64frombits(uint64(v.i)) }

// Str returns the bytes of a TEXT or BLOB value as a string (no conversion).
func (v Value) Str() string { return v.s }

// Bytes returns a view of the bytes of a TEXT or BLOB value; the caller must
// not modify it.
func (v Value) Bytes() []byte { return unsafe.Slice(unsafe.StringData(v.s), len(v.s)) }

// Clone returns v with its bytes copied, so it no longer aliases any buffer.
func (v Value) Clone() Value {
	if v.k == KindText || v.k == KindBlob {
		b := make([]byte, len(v.s))
		copy(b, v.s)
		v.s = unsafe.String(unsafe.SliceData(b), len(b))
	}
	return v
}

// unsafeString views b as a string; b must not be modified afterwards.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// String renders v as an SQL literal (NULL, 12, 1.5, 'it”s', X'0A') for
// debugging and error messages.
func (v Value) String() string {
	switch v.k {
	case KindNull:
		return "NULL"
	case KindInt, KindReal:
		return v.Text()
	case KindText:
		return "'" + strings.ReplaceAll(v.s, "'", "''") + "'"
	}
	const hexd = "0123456789ABCDEF"
	b := make([]byte, 0, 3+2*len(v.s))
	b = append(b, 'X', '\'')
	for i := 0; i < len(v.s); i++ {
		b = append(b, hexd[v.s[i]>>4], hexd[v.s[i]&15])
	}
	return string(append(b, '\''))
}
