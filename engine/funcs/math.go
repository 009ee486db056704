package funcs

import (
	"math"
	"strconv"

	"github.com/ladybugsql/ladybug/engine/types"
)

var mathFuncs = []*Func{
	scalar("round", 1, 2, fnRound),
	scalar("ceil", 1, 1, fnIntegral(math.Ceil)),
	scalar("ceiling", 1, 1, fnIntegral(math.Ceil)),
	scalar("floor", 1, 1, fnIntegral(math.Floor)),
	scalar("trunc", 1, 1, fnIntegral(math.Trunc)),
	scalar("sqrt", 1, 1, math1(math.Sqrt)),
	scalar("exp", 1, 1, math1(math.Exp)),
	scalar("ln", 1, 1, math1(positive(math.Log))),
	scalar("log", 1, 1, math1(positive(math.Log10))),
	scalar("log10", 1, 1, math1(positive(math.Log10))),
	scalar("log2", 1, 1, math1(positive(math.Log2))),
	scalar("log", 2, 2, math2(logBase)),
	scalar("pow", 2, 2, math2(math.Pow)),
	scalar("power", 2, 2, math2(math.Pow)),
	scalar("mod", 2, 2, math2(math.Mod)),
	scalar("atan2", 2, 2, math2(math.Atan2)),
	scalar("pi", 0, 0, func(*Context, []types.Value) (types.Value, error) { return types.NewReal(math.Pi), nil }),
	scalar("degrees", 1, 1, math1(func(x float64) float64 { return x * (180 / math.Pi) })),
	scalar("radians", 1, 1, math1(func(x float64) float64 { return x * (math.Pi / 180) })),
	scalar("sin", 1, 1, math1(math.Sin)),
	scalar("cos", 1, 1, math1(math.Cos)),
	scalar("tan", 1, 1, math1(math.Tan)),
	scalar("asin", 1, 1, math1(math.Asin)),
	scalar("acos", 1, 1, math1(math.Acos)),
	scalar("atan", 1, 1, math1(math.Atan)),
	scalar("sinh", 1, 1, math1(math.Sinh)),
	scalar("cosh", 1, 1, math1(math.Cosh)),
	scalar("tanh", 1, 1, math1(math.Tanh)),
	scalar("asinh", 1, 1, math1(math.Asinh)),
	scalar("acosh", 1, 1, math1(math.Acosh)),
	scalar("atanh", 1, 1, math1(math.Atanh)),
}

// numericArg is sqlite3_value_numeric_type: numbers as is, text that is
// wholly a number converted, anything else not numeric.
func numericArg(v types.Value) (float64, bool) {
	switch v.Kind() {
	case types.KindInt, types.KindReal:
		return v.AsReal(), true
	case types.KindText:
		if types.LooksNumeric(v.Str()) {
			return v.AsReal(), true
		}
	}
	return 0, false
}

// realOrNull is a REAL result with NaN as NULL, as sqlite3_result_double.
func realOrNull(f float64) types.Value {
	if f != f {
		return types.Null
	}
	return types.NewReal(f)
}

func math1(fn func(float64) float64) ScalarFunc {
	return func(_ *Context, a []types.Value) (types.Value, error) {
		x, ok := numericArg(a[0])
		if !ok {
			return types.Null, nil
		}
		return realOrNull(fn(x)), nil
	}
}

func math2(fn func(x, y float64) float64) ScalarFunc {
	return func(_ *Context, a []types.Value) (types.Value, error) {
		x, ok1 := numericArg(a[0])
		y, ok2 := numericArg(a[1])
		if !ok1 || !ok2 {
			return types.Null, nil
		}
		return realOrNull(fn(x, y)), nil
	}
}

// positive makes a logarithm NULL (NaN) outside its domain, as SQLite's.
func positive(fn func(float64) float64) func(float64) float64 {
	return func(x float64) float64 {
		if x <= 0 {
			return math.NaN()
		}
		return fn(x)
	}
}

// logBase is log(B, X); SQLite answers only for B > 1.
func logBase(b, x float64) float64 {
	if b <= 1 || x <= 0 {
		return math.NaN()
	}
	return math.Log(x) / math.Log(b)
}

// fnIntegral is ceil/floor/trunc: integers pass through unchanged.
func fnIntegral(fn func(float64) float64) ScalarFunc {
	return func(_ *Context, a []types.Value) (types.Value, error) {
		v := a[0].NumericType()
		switch v.Kind() {
		case types.KindInt:
			return v, nil
		case types.KindReal:
			return realOrNull(fn(v.Real())), nil
		}
		return types.Null, nil
	}
}

// fnRound is round(X [, N]): a REAL; N is clamped to 0..30; rounding goes
// through SQLite's "%!.*f" so ties round as SQLite's digits say.
func fnRound(_ *Context, a []types.Value) (types.Value, error) {
	var n int64
	if len(a) == 2 {
		if a[1].IsNull() {
			return types.Null, nil
		}
		n = min(max(a[1].AsInt(), 0), 30)
	}
	if a[0].IsNull() {
		return types.Null, nil
	}
	r := a[0].AsReal()
	switch {
	case r < -4503599627370496.0 || r > 4503599627370496.0:
		// already integral
	case n == 0:
		if r < 0 {
			r = float64(int64(r - 0.5))
		} else {
			r = float64(int64(r + 0.5))
		}
	default:
		spec := fmtSpec{alt2: true, precision: n, verb: 'f'}
		var buf [64]byte
		s := spec.float(buf[:0], r)
		r, _ = strconv.ParseFloat(string(s), 64)
	}
	return types.NewReal(r), nil
}
