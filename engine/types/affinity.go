package types

import "strings"

// Affinity is a column's preferred storage class, derived from its declared
// type name by SQLite's rules. The order matters: every affinity at or
// above AffinityNumeric is numeric.
type Affinity uint8

// The affinities. AffinityNone is an expression's (a literal's, a
// function result's); AffinityBlob a column declared BLOB or with no type.
// Storing treats them alike; comparisons do not.
const (
	AffinityNone Affinity = iota
	AffinityBlob
	AffinityText
	AffinityNumeric
	AffinityInteger
	AffinityReal
)

// String names the affinity as SQLite's documentation does.
func (a Affinity) String() string {
	switch a {
	case AffinityText:
		return "TEXT"
	case AffinityNumeric:
		return "NUMERIC"
	case AffinityInteger:
		return "INTEGER"
	case AffinityReal:
		return "REAL"
	case AffinityBlob:
		return "BLOB"
	}
	return "NONE"
}

// IsNumeric reports whether a is NUMERIC, INTEGER or REAL.
func (a Affinity) IsNumeric() bool { return a >= AffinityNumeric }

// AffinityOf returns the affinity of a declared type name, by SQLite's
// rules in order: contains "INT" → INTEGER; "CHAR", "CLOB" or "TEXT" →
// TEXT; "BLOB" or no type at all → BLOB; "REAL", "FLOA" or "DOUB" → REAL; anything
// else → NUMERIC. Matching is case-insensitive.
func AffinityOf(decl string) Affinity {
	u := strings.ToUpper(decl)
	switch {
	case strings.Contains(u, "INT"):
		return AffinityInteger
	case strings.Contains(u, "CHAR"), strings.Contains(u, "CLOB"), strings.Contains(u, "TEXT"):
		return AffinityText
	case strings.Contains(u, "BLOB"), strings.TrimSpace(u) == "":
		return AffinityBlob
	case strings.Contains(u, "REAL"), strings.Contains(u, "FLOA"), strings.Contains(u, "DOUB"):
		return AffinityReal
	}
	return AffinityNumeric
}

// Apply converts v as storing it in a column of affinity a does:
//
//   - TEXT: INTEGER and REAL become their text.
//   - NUMERIC, INTEGER: text that is a well-formed number becomes INTEGER
//     when it is integral and fits, else REAL; an integral REAL in range
//     becomes INTEGER.
//   - REAL: as NUMERIC, then an INTEGER becomes REAL.
//   - BLOB: nothing changes.
//
// BLOBs and NULL never change.
func (a Affinity) Apply(v Value) Value {
	switch a {
	case AffinityText:
		if v.IsNumber() {
			return NewText(v.Text())
		}
	case AffinityNumeric, AffinityInteger:
		return applyNumeric(v)
	case AffinityReal:
		v = applyNumeric(v)
		if v.k == KindInt {
			return NewReal(float64(v.i))
		}
	}
	return v
}

// applyNumeric is SQLite's NUMERIC affinity (applyNumericAffinity with
// bTryForInt, then sqlite3VdbeIntegerAffinity for reals).
func applyNumeric(v Value) Value {
	switch v.k {
	case KindReal:
		if i, ok := realAsInt(v.Real()); ok {
			return NewInt(i)
		}
	case KindText:
		p := parseNumeric(v.s)
		if p.n == 0 || !p.whole {
			return v
		}
		if p.isInt {
			return NewInt(p.i)
		}
		if i, ok := realAsInt(p.f); ok {
			return NewInt(i)
		}
		return NewReal(p.f)
	}
	return v
}

// ApplyCompare converts v as a comparison operand under affinity a: like
// Apply, but a numeric affinity leaves integers and reals as they are (the
// comparison itself is exact across them).
func (a Affinity) ApplyCompare(v Value) Value {
	switch {
	case a == AffinityText:
		if v.IsNumber() {
			return NewText(v.Text())
		}
	case a.IsNumeric():
		if v.k == KindText {
			return applyNumeric(v)
		}
	}
	return v
}

// TextAffinityPair converts the operands of a comparison under TEXT
// affinity as SQLite's comparison opcodes do: numbers become text only
// when either operand is text; two numbers compare as numbers.
func TextAffinityPair(a, b Value) (Value, Value) {
	if a.k == KindText || b.k == KindText {
		return AffinityText.ApplyCompare(a), AffinityText.ApplyCompare(b)
	}
	return a, b
}

// ApplyRead converts v as reading it from a subquery's column of
// affinity a does (SQLite's OP_RealAffinity): REAL turns an integer into a
// real; nothing else changes.
func (a Affinity) ApplyRead(v Value) Value {
	if a == AffinityReal && v.k == KindInt {
		return NewReal(float64(v.i))
	}
	return v
}

// CompareAffinity is the affinity SQLite applies to both operands of a
// comparison (=, <, IN, BETWEEN…) whose sides have affinities l and r, as
// sqlite3CompareAffinity: when both sides have an affinity, NUMERIC if
// either is numeric, else none; when one side has none, the other side's.
// Literals and other expressions have AffinityNone; a CAST has its type's
// affinity; a column its declared one.
func CompareAffinity(l, r Affinity) Affinity {
	switch {
	case l != AffinityNone && r != AffinityNone:
		if l.IsNumeric() || r.IsNumeric() {
			return AffinityNumeric
		}
		return AffinityNone
	case l == AffinityNone:
		return r
	}
	return l
}
