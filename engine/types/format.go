package types

import "math"

// FormatReal renders f as SQLite renders a REAL as text (CAST, ||, the
// driver's text view): printf "%!.17g", which drops to 15 or 16 digits when
// those read back as the same double, keeps ".0" on integral values, and
// prints "Inf"/"-Inf" for infinities.
func FormatReal(f float64) string {
	var buf [32]byte
	return string(AppendReal(buf[:0], f))
}

// AppendReal appends FormatReal(f) to dst.
func AppendReal(dst []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(dst, "Inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-Inf"...)
	case f != f:
		return append(dst, "NaN"...)
	}
	var d FloatDecimal
	lo, hi := d.decode(f, 17, 20) // not Decode: d stays on the stack
	d.Digits = d.buf[lo:hi]
	if d.Neg {
		dst = append(dst, '-')
	}
	if exp := d.DP - 1; exp < -4 || exp > 16 {
		return d.appendExp(dst)
	}
	return d.appendFixed(dst)
}

// appendExp writes d.ddd…e±XX with at least one fraction digit.
func (d *FloatDecimal) appendExp(dst []byte) []byte {
	exp := d.DP - 1
	dst = append(dst, d.Digits[0], '.')
	if len(d.Digits) > 1 {
		dst = append(dst, d.Digits[1:]...)
	} else {
		dst = append(dst, '0')
	}
	dst = append(dst, 'e')
	if exp < 0 {
		dst = append(dst, '-')
		exp = -exp
	} else {
		dst = append(dst, '+')
	}
	if exp >= 100 {
		dst = append(dst, byte('0'+exp/100))
		exp %= 100
	}
	return append(dst, byte('0'+exp/10), byte('0'+exp%10))
}

// appendFixed writes the digits around the decimal point, with ".0" when
// there is no fraction.
func (d *FloatDecimal) appendFixed(dst []byte) []byte {
	if d.DP <= 0 {
		dst = append(dst, '0', '.')
		for i := d.DP; i < 0; i++ {
			dst = append(dst, '0')
		}
		return append(dst, d.Digits...)
	}
	for i := 0; i < d.DP; i++ {
		if i < len(d.Digits) {
			dst = append(dst, d.Digits[i])
		} else {
			dst = append(dst, '0')
		}
	}
	if d.DP < len(d.Digits) {
		return append(append(dst, '.'), d.Digits[d.DP:]...)
	}
	return append(dst, '.', '0')
}
