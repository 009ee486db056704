package types

import (
	"math"
	"strconv"
)

// FormatReal renders f as SQLite renders a REAL as text (CAST, ||, the
// driver's text view): "%!.17g" with SQLite's rule that drops digits when a
// shorter form reads back as the same double, ".0" on integral values, and
// "Inf"/"-Inf" for infinities.
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
	var d decimal
	d.decode(f, 17)
	return d.appendGeneric(dst, 17, true)
}

// decimal is a decoded float: digits (no leading zero, trailing zeros
// stripped) and the position of the decimal point relative to them.
type decimal struct {
	neg    bool
	digits []byte // significant digits, '0'..'9'
	dp     int    // value = 0.digits × 10^dp
	buf    [32]byte
}

// decode fills d with f rounded to prec significant digits (1..17). With
// prec 17 it applies SQLite's shortening rule from sqlite3FpDecode: when
// digits 15-16 are "99" or "000" ends the first 16, a rounded 14/15-digit
// form is used if it converts back to f exactly.
func (d *decimal) decode(f float64, prec int) {
	d.neg = math.Signbit(f) && f != 0
	if f < 0 {
		f = -f
	}
	if f == 0 {
		d.digits = append(d.buf[:0], '0')
		d.dp = 1
		return
	}
	z, dp := decode18(f, make([]byte, 0, 20))
	for len(z) < 18 {
		z = append(z, '0') // trailing zeros keep the value; the heuristic reads z[15]
	}
	d.dp = dp
	n := len(z)
	if prec == 17 {
		prec = shortenPrec(z, f, d.dp)
	}
	d.digits = roundDigits(z[:n], prec, &d.dp)
	d.digits = append(d.buf[:0], d.digits...)
}

// shortenPrec is SQLite's precision-17 round-trip heuristic over the 18
// extracted digits z of f (whose decimal point is at dp).
func shortenPrec(z []byte, f float64, dp int) int {
	if z[15] == '9' && z[14] == '9' {
		jj := 14
		for jj > 0 && z[jj-1] == '9' {
			jj--
		}
		var v uint64 = 1
		if jj > 0 {
			v = 0
			for k := 0; k < jj; k++ {
				v = v*10 + uint64(z[k]-'0')
			}
			v++
		}
		if fp10(v, dp-jj) == f {
			return jj + 1
		}
		return 17
	}
	if dp >= len(z) || (z[15] == '0' && z[14] == '0' && z[13] == '0') {
		jj := 13
		for jj > 0 && z[jj-1] == '0' {
			jj--
		}
		var v uint64
		for k := 0; k < jj; k++ {
			v = v*10 + uint64(z[k]-'0')
		}
		if fp10(v, dp-jj) == f {
			return jj + 1
		}
	}
	return 17
}

// fp10 returns the double nearest to v × 10^e.
func fp10(v uint64, e int) float64 { return fp10Convert2(v, e) }

// roundDigits rounds the digit string z to prec digits (half up, as SQLite
// does on its extracted digits) and strips trailing zeros.
func roundDigits(z []byte, prec int, dp *int) []byte {
	if prec < len(z) {
		up := z[prec] >= '5'
		z = z[:prec]
		if up {
			j := prec - 1
			for ; j >= 0; j-- {
				if z[j] < '9' {
					z[j]++
					break
				}
				z[j] = '0'
			}
			if j < 0 {
				z = append([]byte{'1'}, z...)
				z = z[:prec]
				*dp++
			}
		}
	}
	for len(z) > 1 && z[len(z)-1] == '0' {
		z = z[:len(z)-1]
	}
	return z
}

// appendGeneric writes d in %g style with precision prec; alt ("!" flag)
// keeps a ".0" on integral fixed values and a ".0" mantissa in exponent form.
func (d *decimal) appendGeneric(dst []byte, prec int, alt bool) []byte {
	if d.neg {
		dst = append(dst, '-')
	}
	exp := d.dp - 1
	if exp < -4 || exp >= prec {
		return d.appendExp(dst, alt)
	}
	return d.appendFixed(dst, alt)
}

func (d *decimal) appendExp(dst []byte, alt bool) []byte {
	exp := d.dp - 1
	dst = append(dst, d.digits[0])
	if len(d.digits) > 1 {
		dst = append(dst, '.')
		dst = append(dst, d.digits[1:]...)
	} else if alt {
		dst = append(dst, '.', '0')
	}
	dst = append(dst, 'e')
	if exp < 0 {
		dst = append(dst, '-')
		exp = -exp
	} else {
		dst = append(dst, '+')
	}
	if exp < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, int64(exp), 10)
}

func (d *decimal) appendFixed(dst []byte, alt bool) []byte {
	if d.dp <= 0 {
		dst = append(dst, '0', '.')
		for i := d.dp; i < 0; i++ {
			dst = append(dst, '0')
		}
		return append(dst, d.digits...)
	}
	for i := 0; i < d.dp; i++ {
		if i < len(d.digits) {
			dst = append(dst, d.digits[i])
		} else {
			dst = append(dst, '0')
		}
	}
	if d.dp < len(d.digits) {
		dst = append(dst, '.')
		return append(dst, d.digits[d.dp:]...)
	}
	if alt {
		dst = append(dst, '.', '0')
	}
	return dst
}
