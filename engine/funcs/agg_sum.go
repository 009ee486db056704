package funcs

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/types"
)

type sumKind uint8

const (
	sumSum sumKind = iota
	sumTotal
	sumAvg
)

// sumAgg is sum, total and avg, as SQLite computes them: exact int64 while
// every input is an integer, then Kahan-Babuska-Neumaier summation in
// doubles. sum() fails with "integer overflow" when integers overflow and
// no real follows; total() never fails and is 0.0 for no rows.
type sumAgg struct {
	kind   sumKind
	cnt    int64
	iSum   int64
	rSum   float64
	rErr   float64
	approx bool
	ovrfl  bool
}

const kbnBig = 4503599627370496 // 2^52: beyond it int64 → double loses bits

func (a *sumAgg) Step(args []types.Value) error {
	v := args[0].NumericType()
	if v.IsNull() {
		return nil
	}
	a.cnt++
	switch {
	case a.approx && v.Kind() == types.KindInt:
		a.kbnInt(v.Int())
	case a.approx:
		a.ovrfl = false
		a.kbn(v.AsReal())
	case v.Kind() != types.KindInt:
		a.kbnInit(a.iSum)
		a.approx = true
		a.kbn(v.AsReal())
	default:
		if s, ok := addInt(a.iSum, v.Int()); ok {
			a.iSum = s
			return nil
		}
		a.ovrfl = true
		a.kbnInit(a.iSum)
		a.approx = true
		a.kbnInt(v.Int())
	}
	return nil
}

func (a *sumAgg) Inverse(args []types.Value) error {
	v := args[0].NumericType()
	if v.IsNull() {
		return nil
	}
	a.cnt--
	if !a.approx {
		if d, ok := subInt(a.iSum, v.AsInt()); ok {
			a.iSum = d
			return nil
		}
		a.ovrfl, a.approx = true, true
		a.kbnInit(a.iSum)
	}
	switch {
	case v.Kind() == types.KindInt && v.Int() != math.MinInt64:
		a.kbnInt(-v.Int())
	case v.Kind() == types.KindInt:
		a.kbnInt(math.MaxInt64)
		a.kbnInt(1)
	default:
		a.kbn(-v.AsReal())
	}
	return nil
}

func addInt(x, y int64) (int64, bool) {
	s := x + y
	return s, (s > x) == (y > 0)
}

func subInt(x, y int64) (int64, bool) {
	d := x - y
	return d, (d < x) == (y > 0)
}

func (a *sumAgg) kbn(r float64)   { KBNStep(&a.rSum, &a.rErr, r) }
func (a *sumAgg) kbnInt(i int64)  { KBNStepInt(&a.rSum, &a.rErr, i) }
func (a *sumAgg) kbnInit(i int64) { a.rSum, a.rErr = KBNInit(i) }
func (a *sumAgg) real() float64   { return KBNValue(a.rSum, a.rErr) }

// KBNStep adds r to the compensated sum (sum, err): SQLite's
// Kahan-Babuska-Neumaier summation, which sum, total and avg use once a
// REAL is involved (the grouped and ungrouped aggregates of engine/exec
// share it).
func KBNStep(sum, err *float64, r float64) {
	s := *sum
	t := s + r
	if math.Abs(s) > math.Abs(r) {
		*err += (s - t) + r
	} else {
		*err += (r - t) + s
	}
	*sum = t
}

// KBNStepInt adds an integer, split in two when a double would lose its
// low bits.
func KBNStepInt(sum, err *float64, i int64) {
	if i <= -kbnBig || i >= kbnBig {
		sm := i % 16384
		KBNStep(sum, err, float64(i-sm))
		KBNStep(sum, err, float64(sm))
		return
	}
	KBNStep(sum, err, float64(i))
}

// KBNInit is the compensated sum of integer i alone.
func KBNInit(i int64) (sum, err float64) {
	if i <= -kbnBig || i >= kbnBig {
		sm := i % 16384
		return float64(i - sm), float64(sm)
	}
	return float64(i), 0
}

// KBNValue is the compensated sum's value.
func KBNValue(sum, err float64) float64 {
	if math.IsInf(err, 0) || err != err {
		return sum
	}
	return sum + err
}

func (a *sumAgg) Final() (types.Value, error) {
	switch a.kind {
	case sumTotal:
		if !a.approx {
			return types.NewReal(float64(a.iSum)), nil
		}
		return realOrNull(a.real()), nil
	case sumAvg:
		if a.cnt == 0 {
			return types.Null, nil
		}
		r := float64(a.iSum)
		if a.approx {
			r = a.real()
		}
		return realOrNull(r / float64(a.cnt)), nil
	}
	switch {
	case a.cnt == 0:
		return types.Null, nil
	case a.approx && a.ovrfl:
		return types.Null, errf("integer overflow")
	case a.approx:
		return realOrNull(a.real()), nil
	}
	return types.NewInt(a.iSum), nil
}

func (a *sumAgg) Reset() { *a = sumAgg{kind: a.kind} }
