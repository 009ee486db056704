package types

// Truth is a three-valued logic value: SQL's TRUE, FALSE and UNKNOWN
// (NULL). The zero value is False.
type Truth uint8

// The truth values.
const (
	False Truth = iota
	True
	Unknown
)

// TruthOf returns v's truth as SQLite tests WHERE, CASE WHEN, NOT, AND and
// OR operands: NULL is unknown; an integer is true unless 0; anything else
// is true when its numeric value (reals as is, text and blobs by their
// numeric prefix) is not 0, so 'abc' and '0.0' are false, '1x' true.
func TruthOf(v Value) Truth {
	switch v.k {
	case KindNull:
		return Unknown
	case KindInt:
		return truthBool(v.i != 0)
	}
	return truthBool(v.AsReal() != 0)
}

func truthBool(b bool) Truth {
	if b {
		return True
	}
	return False
}

// Not is SQL NOT: unknown stays unknown.
func (t Truth) Not() Truth {
	switch t {
	case True:
		return False
	case False:
		return True
	}
	return Unknown
}

// And is SQL AND: false wins over unknown.
func And(a, b Truth) Truth {
	switch {
	case a == False || b == False:
		return False
	case a == Unknown || b == Unknown:
		return Unknown
	}
	return True
}

// Or is SQL OR: true wins over unknown.
func Or(a, b Truth) Truth {
	switch {
	case a == True || b == True:
		return True
	case a == Unknown || b == Unknown:
		return Unknown
	}
	return False
}

// Value returns the truth as SQLite yields it: 1, 0 or NULL.
func (t Truth) Value() Value {
	switch t {
	case True:
		return NewInt(1)
	case False:
		return NewInt(0)
	}
	return Null
}

// String names the truth value.
func (t Truth) String() string {
	switch t {
	case True:
		return "TRUE"
	case False:
		return "FALSE"
	}
	return "UNKNOWN"
}
