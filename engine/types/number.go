package types

import (
	"math"
	"strconv"
	"strings"
)

// numPrefix describes the numeric prefix SQLite finds in a text: the value
// it converts to and how much of the text it covers.
type numPrefix struct {
	i     int64   // the integer, when isInt
	f     float64 // the value as a real (always set when n > 0)
	isInt bool    // integer syntax (no '.' or exponent) that fits in int64
	n     int     // bytes consumed, leading white space included; 0: no number
	// whole: the number is the whole text, bar surrounding white space,
	// up to the first NUL byte (SQLite reads text as a C string there).
	whole bool
	nul   bool // the text holds a NUL byte
}

// isSpace is SQLite's sqlite3Isspace: the six ASCII white-space bytes.
func isSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseNumeric scans the longest numeric prefix of s the way SQLite's
// sqlite3AtoF does: white space, a sign, digits, an optional fraction and an
// optional exponent that has digits.
func parseNumeric(s string) numPrefix {
	p := 0
	for p < len(s) && isSpace(s[p]) {
		p++
	}
	start := p
	if p < len(s) && (s[p] == '+' || s[p] == '-') {
		p++
	}
	digits := 0
	for p < len(s) && isDigit(s[p]) {
		p++
		digits++
	}
	intEnd := p
	isIntSyntax := true
	if p < len(s) && s[p] == '.' {
		q := p + 1
		frac := 0
		for q < len(s) && isDigit(s[q]) {
			q++
			frac++
		}
		if digits+frac > 0 {
			p = q
			digits += frac
			isIntSyntax = false
		}
	}
	if digits == 0 {
		return numPrefix{}
	}
	if p < len(s) && (s[p] == 'e' || s[p] == 'E') {
		q := p + 1
		if q < len(s) && (s[q] == '+' || s[q] == '-') {
			q++
		}
		if q < len(s) && isDigit(s[q]) {
			for q < len(s) && isDigit(s[q]) {
				q++
			}
			p = q
			isIntSyntax = false
		}
	}
	r := numPrefix{n: p}
	tail := p
	for tail < len(s) && isSpace(s[tail]) {
		tail++
	}
	r.whole = tail == len(s) || s[tail] == 0
	r.nul = strings.IndexByte(s[tail:], 0) >= 0
	if isIntSyntax {
		if i, err := strconv.ParseInt(s[start:intEnd], 10, 64); err == nil {
			r.i, r.f, r.isInt = i, float64(i), true
			return r
		}
	}
	r.f = parseFloatLoose(s[start:p])
	return r
}

// parseFloatLoose converts a syntactically valid decimal number; overflow
// gives ±Inf and underflow ±0 as in SQLite.
func parseFloatLoose(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		// Only a range error is possible on valid syntax; keep its result.
		return f
	}
	return f
}

// parseIntPrefix is SQLite's integer CAST of text: white space, a sign and
// the leading digits, saturating at the int64 bounds.
func parseIntPrefix(s string) int64 {
	p := 0
	for p < len(s) && isSpace(s[p]) {
		p++
	}
	neg := false
	if p < len(s) && (s[p] == '+' || s[p] == '-') {
		neg = s[p] == '-'
		p++
	}
	var u uint64
	over := false
	for ; p < len(s) && isDigit(s[p]); p++ {
		d := uint64(s[p] - '0')
		if u > (math.MaxUint64-d)/10 {
			over = true
			continue
		}
		u = u*10 + d
	}
	switch {
	case neg && (over || u > 1<<63):
		return math.MinInt64
	case neg:
		return -int64(u)
	case over || u > math.MaxInt64:
		return math.MaxInt64
	}
	return int64(u)
}

// realToInt truncates f toward zero, saturating at the int64 bounds as
// SQLite's CAST does (NaN gives 0).
func realToInt(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f <= -9223372036854775808.0:
		return math.MinInt64
	case f >= 9223372036854775807.0:
		return math.MaxInt64
	}
	return int64(f)
}

// realAsInt reports whether f is an integer SQLite would hold as INTEGER
// (sqlite3VdbeIntegerAffinity): integral and strictly inside the int64 range.
func realAsInt(f float64) (int64, bool) {
	i := realToInt(f)
	if float64(i) == f && i > math.MinInt64 && i < math.MaxInt64 {
		return i, true
	}
	return 0, false
}

// textToNumber converts text (or blob bytes) to a number as SQLite's
// arithmetic does: the numeric prefix, INTEGER when it has integer syntax
// and fits, otherwise REAL; no prefix gives INTEGER 0.
func textToNumber(s string) Value {
	p := parseNumeric(s)
	if p.n == 0 {
		return NewInt(0)
	}
	if p.isInt && !(p.whole && p.nul) {
		return NewInt(p.i)
	}
	// An integer that is all of the text up to a NUL is REAL: SQLite
	// (computeNumericType) finds a valid number in the C string but its
	// integer parse of the whole text fails on the NUL.
	return NewReal(p.f)
}

// Numeric returns v as a number for arithmetic: INTEGER and REAL unchanged,
// TEXT and BLOB through their numeric prefix, NULL unchanged.
func (v Value) Numeric() Value {
	switch v.k {
	case KindText, KindBlob:
		return textToNumber(v.s)
	}
	return v
}

// AsInt converts v to an integer as sqlite3_value_int64 and CAST(v AS
// INTEGER) do: reals truncate and saturate, text and blobs give their
// leading integer digits (so '1e5' is 1), NULL is 0.
func (v Value) AsInt() int64 {
	switch v.k {
	case KindInt:
		return v.i
	case KindReal:
		return realToInt(v.Real())
	case KindText, KindBlob:
		return parseIntPrefix(v.s)
	}
	return 0
}

// AsReal converts v to a float as sqlite3_value_double does; NULL is 0.
func (v Value) AsReal() float64 {
	switch v.k {
	case KindInt:
		return float64(v.i)
	case KindReal:
		return v.Real()
	case KindText, KindBlob:
		p := parseNumeric(v.s)
		return p.f
	}
	return 0
}

// IsNumber reports whether v is INTEGER or REAL.
func (v Value) IsNumber() bool { return v.k == KindInt || v.k == KindReal }

// LooksNumeric reports whether text s is a well-formed number as a whole
// (surrounding white space allowed), the test NUMERIC affinity applies.
func LooksNumeric(s string) bool {
	p := parseNumeric(s)
	return p.n > 0 && p.whole
}

// NumericType is sqlite3_value_numeric_type's conversion: TEXT that is a
// well-formed number as a whole becomes INTEGER (integer syntax that fits)
// or REAL ('1e3' stays REAL 1000.0, unlike NUMERIC affinity); everything
// else is returned unchanged.
func (v Value) NumericType() Value {
	if v.k != KindText {
		return v
	}
	p := parseNumeric(v.s)
	switch {
	case p.n == 0 || !p.whole:
		return v
	case p.isInt:
		return NewInt(p.i)
	}
	return NewReal(p.f)
}
