package types

import (
	"strconv"
	"strings"
)

// Text returns v rendered as text the way SQLite converts it: integers in
// decimal, reals by FormatReal, text and blob bytes as they are, NULL as "".
func (v Value) Text() string {
	switch v.k {
	case KindInt:
		return strconv.FormatInt(v.i, 10)
	case KindReal:
		return FormatReal(v.Real())
	}
	return v.s
}

// AppendText appends v.Text() to dst without an intermediate string.
func (v Value) AppendText(dst []byte) []byte {
	switch v.k {
	case KindInt:
		return strconv.AppendInt(dst, v.i, 10)
	case KindReal:
		return AppendReal(dst, v.Real())
	}
	return append(dst, v.s...)
}

// CastAffinity returns the affinity of a CAST target type name. It is
// AffinityOf except that an empty name is NUMERIC (SQLite's
// sqlite3AffinityType; only a column with no type at all is BLOB).
func CastAffinity(typeName string) Affinity {
	if strings.TrimSpace(typeName) == "" {
		return AffinityNumeric
	}
	return AffinityOf(typeName)
}

// Cast converts v as CAST(v AS type) with type's affinity a. NULL stays
// NULL. The rules, SQLite's:
//
//   - INTEGER: reals truncate toward zero and saturate; text and blobs take
//     their leading integer digits ('12.9x' → 12, '1e5' → 1), else 0.
//   - REAL: the numeric prefix as a real, else 0.0.
//   - NUMERIC: text and blobs by their numeric prefix, integral values
//     becoming INTEGER ('12.0' → 12); numbers unchanged.
//   - TEXT: the text form; blob bytes reinterpreted.
//   - BLOB: the bytes of the text form.
func Cast(v Value, a Affinity) Value {
	if v.k == KindNull {
		return v
	}
	switch a {
	case AffinityInteger:
		return NewInt(v.AsInt())
	case AffinityReal:
		return NewReal(v.AsReal())
	case AffinityNumeric:
		return castNumeric(v)
	case AffinityText:
		if v.k == KindText {
			// Already text: SQLite's cast leaves the value, and its JSON
			// subtype, alone (json_quote(CAST(json('[1]') AS TEXT)) is [1]).
			return v
		}
		return Value{s: v.Text(), k: KindText}
	}
	if v.k == KindBlob {
		return v
	}
	return Value{s: v.Text(), k: KindBlob}
}

func castNumeric(v Value) Value {
	if v.k != KindText && v.k != KindBlob {
		return v
	}
	p := parseNumeric(v.s)
	switch {
	case p.n == 0:
		return NewInt(0)
	case p.isInt:
		return NewInt(p.i)
	}
	// sqlite3VdbeMemNumerify: a real becomes INTEGER only when integral
	// and within ±2^51 (sqlite3RealSameAsInt), so CAST('2.5e15' AS
	// NUMERIC) stays REAL.
	if i, ok := realAsInt(p.f); ok && (p.f == 0 || i >= -1<<51 && i < 1<<51) {
		return NewInt(i)
	}
	return NewReal(p.f)
}

// CastByName is Cast with the target given as a type name ("INTEGER",
// "VARCHAR(10)", "BOOLEAN"…), as the parser hands it over for CAST and ::.
func CastByName(v Value, typeName string) Value {
	return Cast(v, CastAffinity(strings.TrimSpace(typeName)))
}
