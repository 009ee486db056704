package types

import (
	"math"
	"math/bits"
)

// This file carries SQLite's binary↔decimal conversions (util.c,
// sqlite3Fp2Convert10 and sqlite3Fp10Convert2). They are approximate in
// the last of the 18 digits they produce, and SQLite's text form of a REAL
// depends on exactly those digits, so ladybug reproduces them rather than
// using strconv's correctly rounded ones.

// fpBase[n] is 10^n normalised so its top bit is set.
var fpBase = [27]uint64{
	0x8000000000000000, 0xa000000000000000, 0xc800000000000000,
	0xfa00000000000000, 0x9c40000000000000, 0xc350000000000000,
	0xf424000000000000, 0x9896800000000000, 0xbebc200000000000,
	0xee6b280000000000, 0x9502f90000000000, 0xba43b74000000000,
	0xe8d4a51000000000, 0x9184e72a00000000, 0xb5e620f480000000,
	0xe35fa931a0000000, 0x8e1bc9bf04000000, 0xb1a2bc2ec5000000,
	0xde0b6b3a76400000, 0x8ac7230489e80000, 0xad78ebc5ac620000,
	0xd8d726b7177a8000, 0x878678326eac9000, 0xa968163f0a57b400,
	0xd3c21bcecceda100, 0x84595161401484a0, 0xa56fa5b99019a5c8,
}

// fpScale[g+13] is 10^(27g) normalised; fpScaleLo holds 32 more bits.
var fpScale = [26]uint64{
	0x8049a4ac0c5811ae, 0xcf42894a5dce35ea, 0xa76c582338ed2621,
	0x873e4f75e2224e68, 0xda7f5bf590966848, 0xb080392cc4349dec,
	0x8e938662882af53e, 0xe65829b3046b0afa, 0xba121a4650e4ddeb,
	0x964e858c91ba2655, 0xf2d56790ab41c2a2, 0xc428d05aa4751e4c,
	0x9e74d1b791e07e48, 0xcccccccccccccccc, 0xcecb8f27f4200f3a,
	0xa70c3c40a64e6c51, 0x86f0ac99b4e8dafd, 0xda01ee641a708de9,
	0xb01ae745b101e9e4, 0x8e41ade9fbebc27d, 0xe5d3ef282a242e81,
	0xb9a74a0637ce2ee1, 0x95f83d0a1fb69cd9, 0xf24a01a73cf2dccf,
	0xc3b8358109e84f07, 0x9e19db92b4e31ba9,
}

var fpScaleLo = [26]uint32{
	0x205b896d, 0x52064cad, 0xaf2af2b8, 0x5a7744a7, 0xaf39a475,
	0xbd8d794e, 0x547eb47b, 0x0cb4a5a3, 0x92f34d62, 0x3a6a07f9,
	0xfae27299, 0xaa97e14c, 0x775ea265, 0xcccccccc, 0x00000000,
	0x999090b6, 0x69a028bb, 0xe80e6f48, 0x5ec05dd0, 0x14588f14,
	0x8f1668c9, 0x6d953e2c, 0x4abdaf10, 0xbc633b39, 0x0a862f81,
	0x6c07a2c2,
}

func pwr10to2(p int) int { return (p * 108853) >> 15 }
func pwr2to10(p int) int { return (p * 78913) >> 18 }

// mul160 multiplies the 96-bit a:aLo by b, returning the top 96 bits.
func mul160(a uint64, aLo uint32, b uint64) (uint64, uint32) {
	x2, x1, x0 := a>>32, a&0xffffffff, uint64(aLo)
	y1, y0 := b>>32, b&0xffffffff
	x2y1 := x2 * y1
	r4 := x2y1 >> 32
	x2y0, x1y1 := x2*y0, x1*y1
	r3 := x2y1&0xffffffff + x2y0>>32 + x1y1>>32
	x1y0, x0y1 := x1*y0, x0*y1
	r2 := x2y0&0xffffffff + x1y1&0xffffffff + x1y0>>32 + x0y1>>32
	x0y0 := x0 * y0
	r1 := x1y0&0xffffffff + x0y1&0xffffffff + x0y0>>32
	r2 += r1 >> 32
	r3 += r2 >> 32
	return r4<<32 + r3, uint32(r2)
}

// powerOfTen returns 10^p as a normalised 96-bit mantissa.
func powerOfTen(p int) (uint64, uint32) {
	var g, n int
	switch {
	case p == -1:
		return fpScale[13], fpScaleLo[13]
	case p < 0:
		g, n = p/27, p%27
		if n != 0 {
			g--
			n += 27
		}
	case p < 27:
		return fpBase[p], 0
	default:
		g, n = p/27, p%27
	}
	s := fpScale[g+13]
	if n == 0 {
		return s, fpScaleLo[g+13]
	}
	x, lo := mul160(s, fpScaleLo[g+13], fpBase[n])
	if x&(1<<63) == 0 {
		x = x<<1 | uint64(lo>>31&1)
		lo = lo<<1 | 1
	}
	return x, lo
}

// fp2Convert10 turns m×2^e (m normalised) into d×10^p with n digits.
func fp2Convert10(m uint64, e, n int) (uint64, int) {
	p := n - 1 - pwr2to10(e+63)
	pw, _ := powerOfTen(p)
	h, _ := bits.Mul64(m, pw)
	if n == 18 {
		h >>= uint(-(e + pwr10to2(p) + 2))
		return (h + h<<1&2) >> 1, -p
	}
	return h >> uint(-(e + pwr10to2(p) + 1)), -p
}

// fp10Convert2 returns the double nearest d×10^p.
func fp10Convert2(d uint64, p int) float64 {
	if p < -348 {
		return 0
	}
	if p > 347 || d == 0 {
		if d == 0 {
			return 0
		}
		return math.Inf(1)
	}
	b := 64 - bits.LeadingZeros64(d)
	lp := pwr10to2(p)
	e := 53 - b - lp
	if e > 1074 {
		if e >= 1130 {
			return 0
		}
		e = 1074
	}
	s := -(e - (64 - b) + lp + 3)
	ph, pl := powerOfTen(p)
	if pl != 0 {
		ph++
		pl = ^pl
	}
	x := d << uint(64-b)
	hi, lo := bits.Mul64(x, ph)
	mid1 := uint32(lo >> 32)
	var sticky uint64 = 1
	if hi&(1<<uint(s)-1) == 0 {
		h2, _ := bits.Mul64(x, uint64(pl)<<32)
		mid2 := uint32(h2 >> 32)
		if mid1-mid2 <= 1 {
			sticky = 0
		}
		if mid1 < mid2 {
			hi--
		}
	}
	u := hi>>uint(s) | sticky
	if u >= 1<<55-2 {
		u = u>>1 | u&1
		e--
	}
	m := (u + 1 + u>>2&1) >> 2
	if e <= -972 {
		return math.Inf(1)
	}
	if m&(1<<52) != 0 {
		m = m&^(1<<52) | uint64(1075-e)<<52
	}
	return math.Float64frombits(m)
}

func leadingZeros(m uint64) int { return bits.LeadingZeros64(m) }
