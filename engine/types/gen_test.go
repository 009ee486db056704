package types

import (
	"math"
	"math/rand"
)

// interesting values for property tests: boundaries of every encoding.
var interesting = []Value{
	Null, NewInt(0), NewInt(1), NewInt(-1), NewInt(127), NewInt(128), NewInt(-128), NewInt(-129),
	NewInt(32767), NewInt(-32769), NewInt(1<<23 - 1), NewInt(-1 << 23), NewInt(1 << 31), NewInt(1<<47 - 1),
	NewInt(-1 << 47), NewInt(math.MaxInt64), NewInt(math.MinInt64), NewInt(1 << 53), NewInt(1<<53 + 1),
	NewInt(math.MaxInt64 - 1), NewInt(math.MinInt64 + 1), NewInt(-(1<<53 + 1)),
	NewReal(0), NewReal(math.Copysign(0, -1)), NewReal(0.5), NewReal(-0.5), NewReal(1e300), NewReal(-1e300),
	NewReal(math.Inf(1)), NewReal(math.Inf(-1)), NewReal(9223372036854775807), NewReal(-9223372036854775808),
	NewReal(1 << 53), NewReal(5e-324), NewReal(1.5),
	NewText(""), NewText("a"), NewText("A"), NewText("a "), NewText("a\x00"), NewText("a\x00b"), NewText("\x00"),
	NewText("ab"), NewText("B"), NewText("_"), NewText("\xff"), NewText("a  "),
	NewBlob(nil), NewBlob([]byte{0}), NewBlob([]byte{0, 0}), NewBlob([]byte{1}), NewBlob([]byte{0xff}),
}

// randomValue draws from interesting values and random ones of each kind.
func randomValue(r *rand.Rand) Value {
	switch r.Intn(6) {
	case 0:
		return interesting[r.Intn(len(interesting))]
	case 1:
		return NewInt(r.Int63n(2000) - 1000)
	case 2:
		return NewInt(int64(r.Uint64()))
	case 3:
		f := math.Float64frombits(r.Uint64())
		if f != f {
			f = r.NormFloat64() * 1000
		}
		return NewReal(f)
	case 4:
		return NewText(randomString(r, "aAbB \x00_z"))
	}
	return NewBlob([]byte(randomString(r, "\x00\x01\xfe\xff")))
}

func randomString(r *rand.Rand, alphabet string) string {
	b := make([]byte, r.Intn(6))
	for i := range b {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	return string(b)
}
