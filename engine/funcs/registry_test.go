package funcs

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/types"
)

// issueFunctions are the functions the engine must provide.
var issueFunctions = []string{
	"abs", "coalesce", "ifnull", "nullif", "iif", "length", "octet_length", "lower", "upper", "trim", "ltrim",
	"rtrim", "substr", "substring", "replace", "instr", "printf", "format", "quote", "hex", "unhex", "zeroblob",
	"random", "randomblob", "round", "sign", "typeof", "min", "max", "char", "unicode", "likelihood", "likely",
	"unlikely", "concat", "concat_ws", "changes", "last_insert_rowid", "total_changes", "sqlite_version",
	"ceil", "floor", "sqrt", "pow", "power", "exp", "ln", "log", "log10", "log2", "mod", "pi", "sin", "cos",
	"tan", "asin", "acos", "atan", "atan2", "degrees", "radians", "trunc", "date", "time", "datetime",
	"julianday", "unixepoch", "strftime", "now", "current_date", "current_time", "current_timestamp",
	"json", "json_extract", "->", "->>", "json_array", "json_object", "json_type", "json_valid", "json_quote",
	"json_array_length", "json_insert", "json_replace", "json_set", "json_remove", "json_patch",
	"like", "glob", "regexp", "ilike", "count", "sum", "total", "avg", "group_concat", "string_agg",
	"json_group_array", "json_group_object", "row_number", "rank", "dense_rank", "percent_rank", "cume_dist",
	"ntile", "lag", "lead", "first_value", "last_value", "nth_value",
}

func TestRegistry_IssueFunctions_Exist(t *testing.T) {
	for _, name := range issueFunctions {
		if !Exists(name) {
			t.Errorf("missing function %s", name)
		}
		if !Exists(strings.ToUpper(name)) {
			t.Errorf("lookup of %s is case-sensitive", name)
		}
	}
}

func TestResolve_BadCalls_SQLiteMessages(t *testing.T) {
	_, err := Resolve("substr", 1)
	var e *errs.Error
	if !errors.As(err, &e) || e.Msg != "wrong number of arguments to function substr()" {
		t.Errorf("substr/1: %v", err)
	}
	if _, err := Resolve("nosuch", 0); err == nil || err.Error() != "ladybug: no such function: nosuch" {
		t.Errorf("nosuch: %v", err)
	}
	if f, _ := Lookup("min", 1); f.Kind != KindAggregate {
		t.Error("min/1 should be the aggregate")
	}
	if f, _ := Lookup("min", 3); f.Kind != KindScalar {
		t.Error("min/3 should be the scalar")
	}
	if f, _ := Lookup("count", 0); f.Kind != KindAggregate {
		t.Error("count(*)")
	}
	if f, _ := Lookup("lag", 2); f.Kind != KindWindow {
		t.Error("lag is a window function")
	}
	for name, det := range map[string]bool{"abs": true, "random": false, "date": false, "changes": false, "json_extract": true} {
		if f, _ := Lookup(name, len(name)%2); f != nil && f.Deterministic != det {
			t.Errorf("%s deterministic = %v", name, f.Deterministic)
		}
	}
}

func TestEnv_SessionFunctions(t *testing.T) {
	c := newTestContext()
	for name, want := range map[string]string{
		"changes": "integer 3", "total_changes": "integer 30", "last_insert_rowid": "integer 7",
		"sqlite_version": "text '3.54.1'", "current_date": "text '2024-02-29'", "current_time": "text '13:45:30'",
		"current_timestamp": "text '2024-02-29 13:45:30'", "now": "text '2024-02-29 13:45:30'",
		"unixepoch": "integer 1709214330", "julianday": "real 2460370.0732667823",
	} {
		v, err := call(c, name)
		if err != nil || render(v) != want {
			t.Errorf("%s() = %s, %v; want %s", name, render(v), err, want)
		}
	}
	v, _ := call(c, "datetime", types.NewText("now"), types.NewText("subsec"))
	if v.Str() != "2024-02-29 13:45:30.250" {
		t.Errorf("datetime('now','subsec') = %s", v.Str())
	}
	v, _ = call(nil, "changes")
	if v.Int() != 0 {
		t.Error("changes() without Env")
	}
	v, _ = call(nil, "date", types.NewText("now"))
	if v.Str() != time.Now().UTC().Format("2006-01-02") {
		t.Errorf("date('now') without Env = %s", v.Str())
	}
}

func TestLimits_TooBig_ErrCodeTooBig(t *testing.T) {
	c := newTestContext()
	for _, args := range [][]types.Value{
		{types.NewInt(MaxLength + 1)},
	} {
		for _, name := range []string{"zeroblob", "randomblob"} {
			_, err := call(c, name, args...)
			if !errors.Is(err, errs.ErrTooBig) {
				t.Errorf("%s(%s): %v", name, render(args[0]), err)
			}
		}
	}
	_, err := call(c, "printf", types.NewText("%*d"), types.NewInt(MaxLength+5), types.NewInt(1))
	if !errors.Is(err, errs.ErrTooBig) {
		t.Errorf("printf huge width: %v", err)
	}
	if v, _ := call(c, "zeroblob", types.NewInt(-5)); v.Kind() != types.KindBlob || len(v.Str()) != 0 {
		t.Error("zeroblob(-5)")
	}
	if v, _ := call(c, "randomblob", types.NewInt(0)); len(v.Str()) != 1 {
		t.Error("randomblob(0) is one byte")
	}
}

func TestLikelihood_Constant(t *testing.T) {
	c := newTestContext()
	if v, err := call(c, "likelihood", types.NewText("x"), types.NewReal(0.5)); err != nil || v.Str() != "x" {
		t.Errorf("likelihood = %v %v", render(v), err)
	}
	if _, err := call(c, "likelihood", types.NewText("x"), types.NewReal(2)); err == nil {
		t.Error("likelihood(x, 2) accepted")
	}
}

func TestRegexp_CachedAndErrors(t *testing.T) {
	c := newTestContext()
	for i := 0; i < 3; i++ {
		v, err := call(c, "regexp", types.NewText("^a.c$"), types.NewText("abc"))
		if err != nil || v.Int() != 1 {
			t.Fatalf("regexp = %v %v", render(v), err)
		}
	}
	if len(c.re) != 1 {
		t.Errorf("cache holds %d patterns", len(c.re))
	}
	if _, err := call(c, "regexp", types.NewText("("), types.NewText("x")); err == nil {
		t.Error("bad pattern accepted")
	}
	if v, _ := call(c, "regexp", types.Null, types.NewText("x")); !v.IsNull() {
		t.Error("NULL pattern")
	}
}

// TestContext_Arena_ResultsSurviveUntilReset checks that results built in
// the arena do not overwrite each other.
func TestContext_Arena_ResultsSurviveUntilReset(t *testing.T) {
	c := newTestContext()
	var vals []types.Value
	for i := 0; i < 5000; i++ {
		v, err := call(c, "upper", types.NewText("abc"+strings.Repeat("x", i%7)))
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, v)
	}
	for i, v := range vals {
		if v.Str() != "ABC"+strings.Repeat("X", i%7) {
			t.Fatalf("result %d clobbered: %q", i, v.Str())
		}
	}
}

var fuzzPool = []types.Value{
	types.Null, types.NewInt(0), types.NewInt(1), types.NewInt(-1), types.NewInt(3), types.NewInt(1 << 20),
	types.NewInt(math.MinInt64), types.NewInt(math.MaxInt64 - 1<<40), types.NewReal(0.5), types.NewReal(-2.5),
	types.NewReal(math.Inf(1)), types.NewReal(math.NaN()), types.NewReal(1e300), types.NewText(""),
	types.NewText("abc"), types.NewText("%d%s%f%q%c%.*f%-+ #0,!5.3g%"), types.NewText("$.a[0]"),
	types.NewText(`{"a":[1,{"b":2}]}`), types.NewText("[1,2"), types.NewText("2024-02-29 12:00"),
	types.NewText("+1 month"), types.NewText("\xff\xfe\xc0"), types.NewText("a%_\\"), types.NewText("[a-"),
	types.NewBlob([]byte{0, 1, 2}), types.NewBlob(nil), types.NewJSON(`[1]`), types.NewText("weekday 3"),
	types.NewText("%Y-%m-%d %H:%M:%S %j %U %W %V %G"),
}

// safeArg keeps sizes small: zeroblob(MaxInt64-…) would allocate a GB.
func safeArg(name string, v types.Value) types.Value {
	if (name == "zeroblob" || name == "randomblob") && v.AsInt() > 1<<20 {
		return types.NewInt(16)
	}
	return v
}

// TestScalars_RandomArgs_NeverPanic calls every scalar with random
// arguments from a nasty pool; any panic fails the test.
func TestScalars_RandomArgs_NeverPanic(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	c := newTestContext()
	for name, overloads := range registry {
		for _, f := range overloads {
			if f.Kind != KindScalar {
				continue
			}
			for iter := 0; iter < 300; iter++ {
				n := f.MinArgs + r.Intn(3)
				if f.MaxArgs >= 0 && n > f.MaxArgs {
					n = f.MaxArgs
				}
				args := make([]types.Value, n)
				for i := range args {
					args[i] = safeArg(name, fuzzPool[r.Intn(len(fuzzPool))])
				}
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("%s(%v) panicked: %v", name, args, p)
						}
					}()
					f.Scalar(c, args)
				}()
				c.Reset()
			}
		}
	}
}

// benchScalar measures one scalar call, resetting the arena now and then
// as the executor does per batch.
func benchScalar(b *testing.B, name string, args ...types.Value) {
	f, _ := Lookup(name, len(args))
	c := newTestContext()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%1024 == 0 {
			c.Reset()
		}
		if _, err := f.Scalar(c, args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScalar_Substr(b *testing.B) {
	benchScalar(b, "substr", types.NewText("hello world"), types.NewInt(3), types.NewInt(4))
}

func BenchmarkScalar_Upper(b *testing.B) { benchScalar(b, "upper", types.NewText("hello world")) }

func BenchmarkScalar_Printf(b *testing.B) {
	benchScalar(b, "printf", types.NewText("%5d|%.2f"), types.NewInt(42), types.NewReal(3.14159))
}

func BenchmarkScalar_JSONExtract(b *testing.B) {
	benchScalar(b, "json_extract", types.NewText(`{"a":{"b":[1,2,3]},"c":"x"}`), types.NewText("$.a.b[1]"))
}

func BenchmarkScalar_Strftime(b *testing.B) {
	benchScalar(b, "strftime", types.NewText("%Y-%m-%d %H:%M"), types.NewText("2024-02-29 13:45:30"), types.NewText("+1 day"))
}

func BenchmarkLike(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Like("%world%", "hello world, hello", 0)
	}
}

type zoneEnv struct{ fixedEnv }

func (zoneEnv) Location() *time.Location { return time.FixedZone("X", 2*3600) }

func TestDate_Localtime_UsesEnvLocation(t *testing.T) {
	c := NewContext(zoneEnv{fixedEnv{now: testNow}})
	v, _ := call(c, "datetime", types.NewText("2024-01-01 00:00:00"), types.NewText("localtime"))
	if v.Str() != "2024-01-01 02:00:00" {
		t.Errorf("localtime = %s", v.Str())
	}
	v, _ = call(c, "datetime", types.NewText("2024-01-01 02:00:00"), types.NewText("utc"))
	if v.Str() != "2024-01-01 00:00:00" {
		t.Errorf("utc = %s", v.Str())
	}
}
