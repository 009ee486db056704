package funcs

import "github.com/ladybugsql/ladybug/engine/types"

// float renders %f %e %E %g %G as SQLite's printf does, on the digits of
// types.FloatDecimal (SQLite's own decimal conversion).
func (s *fmtSpec) float(dst []byte, r float64) []byte {
	prec := s.precision
	if prec < 0 {
		prec = 6
	}
	prec = min(prec, printfMaxPrecision)
	verb := s.verb
	var iRound int
	switch verb {
	case 'f':
		iRound = -int(prec)
	case 'g', 'G':
		if prec == 0 {
			prec = 1
		}
		iRound = int(prec)
	default:
		iRound = int(prec) + 1
	}
	mx := 16
	if s.alt2 {
		mx = 20
	}
	var d types.FloatDecimal
	d.Decode(r, iRound, mx)
	if d.Special != 0 {
		if body, done := s.special(&d); done {
			return s.pad(dst, body)
		}
	}
	var sign byte
	switch {
	case d.Neg && s.alt && s.prefix == 0 && verb == 'f' && d.DP <= iRound:
		// "#" with %f suppresses the sign of a value that prints as zero.
	case d.Neg:
		sign = '-'
	default:
		sign = s.prefix
	}
	return s.padFloat(dst, s.floatBody(&d, sign, verb, prec), sign)
}

// special handles Inf and NaN; done is false when the zero flag turns
// Inf into a huge number that formats normally.
func (s *fmtSpec) special(d *types.FloatDecimal) ([]byte, bool) {
	if d.Special == 2 {
		if s.zeroPad {
			return []byte("null"), true
		}
		return []byte("NaN"), true
	}
	if s.zeroPad {
		d.Digits, d.DP = []byte{'9'}, 1000
		return nil, false
	}
	switch {
	case d.Neg:
		return []byte("-Inf"), true
	case s.prefix != 0:
		return []byte{s.prefix, 'I', 'n', 'f'}, true
	}
	return []byte("Inf"), true
}

// floatBody lays out sign, digits, point and exponent.
func (s *fmtSpec) floatBody(d *types.FloatDecimal, sign, verb byte, prec int64) []byte {
	exp := d.DP - 1
	rtz := s.alt2
	if verb == 'g' || verb == 'G' {
		prec--
		rtz = !s.alt
		if exp < -4 || int64(exp) > prec {
			verb = verb - 'g' + 'e'
		} else {
			prec -= int64(exp)
			verb = 'f'
		}
	}
	e2 := d.DP - 1
	if verb != 'f' {
		e2 = 0
	}
	z, n := d.Digits, len(d.Digits)
	var b []byte
	if need := max(e2, 0) + int(prec) + 12; need <= len(s.scratch) {
		b = s.scratch[:0]
	} else {
		b = make([]byte, 0, need)
	}
	if sign != 0 {
		b = append(b, sign)
	}
	j := 0
	switch {
	case e2 < 0:
		b = append(b, '0')
	case s.thousand:
		for ; e2 >= 0; e2-- {
			if j < n {
				b = append(b, z[j])
				j++
			} else {
				b = append(b, '0')
			}
			if e2%3 == 0 && e2 > 1 {
				b = append(b, ',')
			}
		}
	default:
		j = min(e2+1, n)
		b = append(b, z[:j]...)
		for e2 -= j; e2 >= 0; e2-- {
			b = append(b, '0')
		}
	}
	dp := prec > 0 || s.alt || s.alt2
	if dp {
		b = append(b, '.')
	}
	if e2 < -1 && prec > 0 {
		nn := min(int64(-1-e2), prec)
		b = appendZeros(b, nn)
		prec -= nn
	}
	if prec > 0 {
		nn := min(int64(n-j), prec)
		if nn > 0 {
			b = append(b, z[j:j+int(nn)]...)
			prec -= nn
		}
		if prec > 0 && !rtz {
			b = appendZeros(b, prec)
		}
	}
	if rtz && dp {
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
		if b[len(b)-1] == '.' {
			if s.alt2 {
				b = append(b, '0')
			} else {
				b = b[:len(b)-1]
			}
		}
	}
	if verb == 'e' || verb == 'E' {
		b = appendExponent(b, verb, d.DP-1)
	}
	return b
}

func appendZeros(b []byte, n int64) []byte {
	for ; n > 0; n-- {
		b = append(b, '0')
	}
	return b
}

func appendExponent(b []byte, verb byte, exp int) []byte {
	b = append(b, verb)
	if exp < 0 {
		b = append(b, '-')
		exp = -exp
	} else {
		b = append(b, '+')
	}
	if exp >= 100 {
		b = append(b, byte('0'+exp/100))
		exp %= 100
	}
	return append(b, byte('0'+exp/10), byte('0'+exp%10))
}

// padFloat applies the width; the zero flag pads after the sign.
func (s *fmtSpec) padFloat(dst, body []byte, sign byte) []byte {
	n := s.width - int64(len(body))
	switch {
	case n <= 0:
		return append(dst, body...)
	case s.left:
		return appendSpaces(append(dst, body...), n)
	case !s.zeroPad:
		return append(appendSpaces(dst, n), body...)
	}
	adj := 0
	if sign != 0 {
		adj = 1
		dst = append(dst, body[0])
	}
	return append(appendZeros(dst, n), body[adj:]...)
}
