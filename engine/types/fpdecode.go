package types

import "math"

// FloatDecimal is a float decoded to decimal digits exactly as SQLite's
// printf does it (sqlite3FpDecode), so that formatting built on it prints
// what SQLite prints, down to the last digit.
type FloatDecimal struct {
	Neg     bool
	Special uint8  // 0 finite, 1 ±Inf, 2 NaN
	Digits  []byte // significant digits '0'..'9', no trailing zeros; "0" for zero
	DP      int    // the value is 0.Digits × 10^DP
	buf     [24]byte
}

// Decode fills d from f. iRound > 0 keeps that many significant digits;
// iRound ≤ 0 keeps -iRound digits after the decimal point; mxRound caps the
// significant digits (16 for printf, 20 with its '!' flag). A precision of
// exactly 17 first tries the 15/16-digit forms SQLite prefers when they
// read back as f.
func (d *FloatDecimal) Decode(f float64, iRound, mxRound int) {
	if lo, hi := d.decode(f, iRound, mxRound); hi > 0 {
		d.Digits = d.buf[lo:hi]
	}
}

// decode is Decode leaving Digits unset: the digits are buf[lo:hi] (hi 0
// for an infinity or NaN). It stores no pointer into d, so a caller's
// FloatDecimal can stay on its stack (AppendReal's, once per REAL made
// text).
func (d *FloatDecimal) decode(f float64, iRound, mxRound int) (lo, hi int) {
	*d = FloatDecimal{}
	if f < 0 {
		d.Neg = true
		f = -f
	} else if f == 0 {
		d.buf[0], d.DP = '0', 1
		return 0, 1
	}
	if math.IsInf(f, 0) || f != f {
		d.Special = 1
		if f != f {
			d.Special, d.Neg = 2, false
		}
		return 0, 0
	}
	n := 18
	if iRound > 0 && iRound < 18 {
		n = iRound + 1
	}
	m, e := normalise(f)
	v, exp := fp2Convert10(m, e, n)
	// Digits go right-aligned into buf[1:] so a carry can prepend one.
	i := len(d.buf)
	for v > 0 {
		i--
		d.buf[i] = byte('0' + v%10)
		v /= 10
	}
	cnt := len(d.buf) - i
	d.DP = cnt + exp
	if iRound <= 0 {
		iRound = d.DP - iRound
		if iRound == 0 && d.buf[i] >= '5' {
			iRound = 1
			i--
			d.buf[i] = '0'
			cnt++
			d.DP++
		}
	}
	z := d.buf[i:]
	if iRound > 0 && (iRound < cnt || cnt > mxRound) {
		iRound = min(iRound, mxRound)
		if iRound == 17 {
			iRound = shortenPrec(z, cnt, f, exp)
		}
		cnt = iRound
		if cnt < len(z) && z[cnt] >= '5' {
			if d.roundUp(&i, cnt) {
				cnt++
			}
			z = d.buf[i:]
		}
	}
	for cnt > 1 && z[cnt-1] == '0' {
		cnt--
	}
	return i, i + cnt
}

// roundUp adds one at digit cnt-1 of buf[*i:], carrying; it reports
// whether the carry prepended a digit.
func (d *FloatDecimal) roundUp(i *int, cnt int) bool {
	z := d.buf[*i:]
	for j := cnt - 1; j >= 0; j-- {
		z[j]++
		if z[j] <= '9' {
			return false
		}
		z[j] = '0'
	}
	*i--
	d.buf[*i] = '1'
	d.DP++
	return true
}

// shortenPrec is SQLite's precision-17 heuristic over the extracted digits
// z (cnt of them; the value is z × 10^exp): when digits 15-16 are "99" or
// 14-16 are "000", a shorter form that converts back to f exactly wins.
func shortenPrec(z []byte, cnt int, f float64, exp int) int {
	if cnt < 16 {
		return 17
	}
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
		if fp10Convert2(v, exp+cnt-jj) == f {
			return jj + 1
		}
		return 17
	}
	if cnt+exp >= cnt || (z[15] == '0' && z[14] == '0' && z[13] == '0') {
		jj := 13
		for jj > 0 && z[jj-1] == '0' {
			jj--
		}
		var v uint64
		for k := 0; k < jj; k++ {
			v = v*10 + uint64(z[k]-'0')
		}
		if fp10Convert2(v, exp+cnt-jj) == f {
			return jj + 1
		}
	}
	return 17
}

// normalise splits f > 0 into m × 2^e with m's top bit set.
func normalise(f float64) (uint64, int) {
	u := math.Float64bits(f)
	e := int(u >> 52 & 0x7ff)
	m := u & (1<<52 - 1)
	if e == 0 {
		nn := leadingZeros(m)
		return m << uint(nn), -1074 - nn
	}
	return m<<11 | 1<<63, e - 1086
}
