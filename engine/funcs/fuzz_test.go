package funcs

import (
	"sort"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// scalarNames lists the registered scalar overloads in a stable order.
func scalarNames() []*Func {
	var out []*Func
	for _, fs := range registry {
		for _, f := range fs {
			if f.Kind == KindScalar && f.Name != "zeroblob" && f.Name != "randomblob" {
				out = append(out, f)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].MinArgs < out[j].MinArgs
	})
	return out
}

// FuzzScalarCalls calls any scalar with fuzzed text and integer arguments;
// it fails on a panic.
func FuzzScalarCalls(f *testing.F) {
	f.Add(uint16(0), "%d %s", "$.a[0]", int64(3))
	f.Add(uint16(40), "2024-02-29 12:00", "+1 month", int64(-1))
	f.Add(uint16(80), `{"a":[1,2]}`, "$.a[#-1]", int64(0))
	fs := scalarNames()
	c := newTestContext()
	f.Fuzz(func(t *testing.T, which uint16, s1, s2 string, n int64) {
		fn := fs[int(which)%len(fs)]
		pool := []types.Value{types.NewText(s1), types.NewText(s2), types.NewInt(n), types.NewBlob([]byte(s1)), types.Null, types.NewReal(float64(n) / 7)}
		k := fn.MinArgs + int(which/uint16(len(fs)))%3
		if fn.MaxArgs >= 0 && k > fn.MaxArgs {
			k = fn.MaxArgs
		}
		args := make([]types.Value, k)
		for i := range args {
			args[i] = pool[(int(which)+i*7+int(n&3))%len(pool)]
		}
		if (fn.Name == "printf" || fn.Name == "format") && hugeWidth(args) {
			return // a legitimately huge result (up to 1 GB) is just slow
		}
		fn.Scalar(c, args)
		c.Reset()
	})
}

// hugeWidth reports a printf format with a width or precision of five or
// more digits, or an integer argument that could be a '*' width.
func hugeWidth(args []types.Value) bool {
	run := 0
	for _, ch := range args[0].Str() {
		if ch >= '0' && ch <= '9' {
			run++
			if run >= 5 {
				return true
			}
		} else {
			run = 0
		}
	}
	for _, a := range args[1:] {
		if a.AsInt() > 10000 || a.AsInt() < -10000 {
			return true
		}
	}
	return false
}
