package types

import (
	"math"
	"math/bits"
)

// Arithmetic follows SQLite's OP_Add…OP_Remainder: NULL in gives NULL out;
// text and blobs are first converted by their numeric prefix; two integers
// give an integer unless the result overflows, when it is computed as a
// real; a NaN result (Inf-Inf, Inf*0) is NULL.

// realResult wraps f, mapping NaN to NULL as SQLite does.
func realResult(f float64) Value {
	if f != f {
		return Null
	}
	return NewReal(f)
}

// operands converts both operands to numbers; ok is false when either is NULL.
func operands(a, b Value) (Value, Value, bool) {
	if a.k == KindNull || b.k == KindNull {
		return Null, Null, false
	}
	return a.Numeric(), b.Numeric(), true
}

// Add returns a + b.
func Add(a, b Value) Value {
	x, y, ok := operands(a, b)
	if !ok {
		return Null
	}
	if x.k == KindInt && y.k == KindInt {
		s := x.i + y.i
		if (s > x.i) == (y.i > 0) {
			return NewInt(s)
		}
	}
	return realResult(x.AsReal() + y.AsReal())
}

// Sub returns a - b.
func Sub(a, b Value) Value {
	x, y, ok := operands(a, b)
	if !ok {
		return Null
	}
	if x.k == KindInt && y.k == KindInt {
		d := x.i - y.i
		if (d < x.i) == (y.i > 0) {
			return NewInt(d)
		}
	}
	return realResult(x.AsReal() - y.AsReal())
}

// Mul returns a * b.
func Mul(a, b Value) Value {
	x, y, ok := operands(a, b)
	if !ok {
		return Null
	}
	if x.k == KindInt && y.k == KindInt {
		if p, ok := mulInt(x.i, y.i); ok {
			return NewInt(p)
		}
	}
	return realResult(x.AsReal() * y.AsReal())
}

// mulInt multiplies with overflow detection.
func mulInt(a, b int64) (int64, bool) {
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(absU(a), absU(b))
	if hi != 0 {
		return 0, false
	}
	if neg {
		if lo > 1<<63 {
			return 0, false
		}
		return -int64(lo), true
	}
	if lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

func absU(a int64) uint64 {
	if a < 0 {
		return uint64(-a) // -MinInt64 wraps to itself, whose uint64 is 1<<63
	}
	return uint64(a)
}

// Div returns a / b: integer division truncating toward zero for two
// integers, NULL for a zero divisor.
func Div(a, b Value) Value {
	x, y, ok := operands(a, b)
	if !ok {
		return Null
	}
	if x.k == KindInt && y.k == KindInt {
		switch {
		case y.i == 0:
			return Null
		case x.i == math.MinInt64 && y.i == -1:
			return NewReal(-float64(math.MinInt64))
		}
		return NewInt(x.i / y.i)
	}
	d := y.AsReal()
	if d == 0 {
		return Null
	}
	return realResult(x.AsReal() / d)
}

// Rem returns a % b. Both operands are converted to integers as AsInt
// does (reals truncate, text takes its leading digits: '1.5e3' is 1); the
// result is REAL when either operand is numerically a real (5.5 % 2 is
// 1.0); a zero divisor after conversion gives NULL.
func Rem(a, b Value) Value {
	x, y, ok := operands(a, b)
	if !ok {
		return Null
	}
	n, d := a.AsInt(), b.AsInt()
	if d == 0 {
		return Null
	}
	if d == -1 {
		d = 1
	}
	r := n % d
	if x.k == KindReal || y.k == KindReal {
		return NewReal(float64(r))
	}
	return NewInt(r)
}

// Neg returns -a; -(-9223372036854775808) is a REAL.
func Neg(a Value) Value {
	switch a.k {
	case KindNull:
		return Null
	case KindText, KindBlob:
		a = a.Numeric()
	}
	if a.k == KindReal {
		return NewReal(-a.Real())
	}
	if a.i == math.MinInt64 {
		return NewReal(-float64(math.MinInt64))
	}
	return NewInt(-a.i)
}

// intOperands converts both operands to integers for the bit operators.
func intOperands(a, b Value) (int64, int64, bool) {
	if a.k == KindNull || b.k == KindNull {
		return 0, 0, false
	}
	return a.AsInt(), b.AsInt(), true
}

// BitAnd returns a & b.
func BitAnd(a, b Value) Value {
	x, y, ok := intOperands(a, b)
	if !ok {
		return Null
	}
	return NewInt(x & y)
}

// BitOr returns a | b.
func BitOr(a, b Value) Value {
	x, y, ok := intOperands(a, b)
	if !ok {
		return Null
	}
	return NewInt(x | y)
}

// BitNot returns ~a.
func BitNot(a Value) Value {
	if a.k == KindNull {
		return Null
	}
	return NewInt(^a.AsInt())
}

// ShiftLeft returns a << b; a negative b shifts right.
func ShiftLeft(a, b Value) Value {
	x, y, ok := intOperands(a, b)
	if !ok {
		return Null
	}
	return NewInt(shift(x, y, true))
}

// ShiftRight returns a >> b (arithmetic); a negative b shifts left.
func ShiftRight(a, b Value) Value {
	x, y, ok := intOperands(a, b)
	if !ok {
		return Null
	}
	return NewInt(shift(x, y, false))
}

func shift(x, n int64, left bool) int64 {
	if n < 0 {
		left = !left
		n = -n
		if n < 0 { // n was MinInt64
			n = 64
		}
	}
	if n >= 64 {
		if x >= 0 || left {
			return 0
		}
		return -1
	}
	if left {
		return int64(uint64(x) << uint(n))
	}
	return x >> uint(n)
}

// Concat returns a || b as TEXT; NULL on either side gives NULL.
func Concat(a, b Value) Value {
	if a.k == KindNull || b.k == KindNull {
		return Null
	}
	buf := make([]byte, 0, len(a.s)+len(b.s)+24)
	buf = a.AppendText(buf)
	buf = b.AppendText(buf)
	return NewText(unsafeString(buf))
}
