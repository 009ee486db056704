package exec

import "github.com/ladybugsql/ladybug/engine/types"

// This file is the executor's seam onto value semantics (engine/types):
// operators call only these small wrappers, so the hot loops stay free of
// interface calls.

// collOf maps a collation name ("" = BINARY) to types.Collation.
func collOf(name string) types.Collation {
	c, _ := types.CollationByName(name)
	return c
}

// compareValues orders a and b as SQLite sorts them.
func compareValues(a, b types.Value, coll types.Collation) int { return types.Compare(a, b, coll) }

// truth returns SQLite's truth value of v; ok is false for NULL.
func truth(v types.Value) (val, ok bool) {
	switch types.TruthOf(v) {
	case types.True:
		return true, true
	case types.False:
		return false, true
	}
	return false, false
}

// realIsInt reports whether f is integral and inside int64.
func realIsInt(f float64) (int64, bool) {
	if f >= -9223372036854775808.0 && f < 9223372036854775808.0 {
		i := int64(f)
		if float64(i) == f {
			return i, true
		}
	}
	return 0, false
}

// arith computes a op b for + - * / %.
func arith(op byte, a, b types.Value) types.Value {
	switch op {
	case '+':
		return types.Add(a, b)
	case '-':
		return types.Sub(a, b)
	case '*':
		return types.Mul(a, b)
	case '/':
		return types.Div(a, b)
	}
	return types.Rem(a, b)
}

// toText renders v as TEXT.
func toText(v types.Value) string { return v.Text() }
