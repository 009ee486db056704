package funcs

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// aggCalls maps the aggregate expressions of testdata/oracle_agg.tsv to a
// function name and the arguments built from a row's x.
var aggCalls = map[string]struct {
	name string
	args func(x types.Value) []types.Value
}{
	"count(x)":              {"count", func(x types.Value) []types.Value { return []types.Value{x} }},
	"count(*)":              {"count", func(types.Value) []types.Value { return nil }},
	"sum(x)":                {"sum", func(x types.Value) []types.Value { return []types.Value{x} }},
	"total(x)":              {"total", func(x types.Value) []types.Value { return []types.Value{x} }},
	"avg(x)":                {"avg", func(x types.Value) []types.Value { return []types.Value{x} }},
	"min(x)":                {"min", func(x types.Value) []types.Value { return []types.Value{x} }},
	"max(x)":                {"max", func(x types.Value) []types.Value { return []types.Value{x} }},
	"group_concat(x)":       {"group_concat", func(x types.Value) []types.Value { return []types.Value{x} }},
	"group_concat(x, ';')":  {"group_concat", func(x types.Value) []types.Value { return []types.Value{x, types.NewText(";")} }},
	"group_concat(x, NULL)": {"group_concat", func(x types.Value) []types.Value { return []types.Value{x, types.Null} }},
	"string_agg(x, '-')":    {"string_agg", func(x types.Value) []types.Value { return []types.Value{x, types.NewText("-")} }},
	"json_group_array(x)":   {"json_group_array", func(x types.Value) []types.Value { return []types.Value{x} }},
	"json_group_object(CAST(x AS TEXT), x)": {"json_group_object", func(x types.Value) []types.Value {
		return []types.Value{types.Cast(x, types.AffinityText), x}
	}},
}

func runAggregate(t *testing.T, name string, rows [][]types.Value) string {
	t.Helper()
	f, err := Resolve(name, len(rows[0]))
	if err != nil || f.Kind != KindAggregate {
		t.Fatalf("resolve %s: %v", name, err)
	}
	agg := f.NewAggregate()
	for pass := 0; pass < 2; pass++ { // the second pass checks Reset
		agg.Reset()
		for _, r := range rows[1:] {
			if err := agg.Step(r); err != nil {
				return "ERR " + strings.TrimPrefix(err.Error(), "ladybug: ")
			}
		}
	}
	v, err := agg.Final()
	if err != nil {
		return "ERR " + strings.TrimPrefix(err.Error(), "ladybug: ")
	}
	return render(v)
}

// TestAggregates_Oracle_MatchSQLite replays aggregates over value lists
// recorded from SQLite (overflow, KBN summation, NULLs, mixed types).
func TestAggregates_Oracle_MatchSQLite(t *testing.T) {
	n := 0
	for _, r := range readRows(t, "testdata/oracle_agg.tsv") {
		spec, ok := aggCalls[r[0]]
		if !ok {
			t.Fatalf("unknown aggregate %q", r[0])
		}
		var xs []types.Value
		if r[1] != "" {
			for _, q := range strings.Split(r[1], ",") {
				code, err := strconv.Unquote(q)
				if err != nil {
					t.Fatal(err)
				}
				xs = append(xs, operand(t, code))
			}
		}
		rows := [][]types.Value{spec.args(types.Null)} // row 0 fixes the arity
		for _, x := range xs {
			rows = append(rows, spec.args(x))
		}
		if got := runAggregate(t, spec.name, rows); got != r[2] {
			t.Errorf("%s over [%s] = %s; SQLite: %s", r[0], r[1], got, r[2])
		}
		n++
	}
	if n < 200 {
		t.Fatalf("only %d cases", n)
	}
}

func readRows(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := readFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, line := range strings.Split(data, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	return rows
}

func TestAggregate_Inverse_MatchesRecompute(t *testing.T) {
	vals := []types.Value{types.NewInt(5), types.Null, types.NewReal(2.5), types.NewText("x"), types.NewInt(-3), types.NewText("7")}
	// sum is left out: once a real is stepped its result stays REAL even
	// after the real leaves the frame, as in SQLite (see the window tests).
	for _, name := range []string{"count", "total", "avg", "group_concat", "bool_or", "bool_and"} {
		f, _ := Lookup(name, 1)
		sliding, fresh := f.NewAggregate(), f.NewAggregate()
		inv := sliding.(Inverter)
		for i, v := range vals {
			if err := sliding.Step([]types.Value{v}); err != nil {
				t.Fatal(err)
			}
			if i >= 2 {
				if err := inv.Inverse([]types.Value{vals[i-2]}); err != nil {
					t.Fatal(err)
				}
				fresh.Reset()
				fresh.Step([]types.Value{vals[i-1]})
				fresh.Step([]types.Value{v})
				a, _ := sliding.Final()
				b, _ := fresh.Final()
				if render(a) != render(b) {
					t.Errorf("%s window ending %d: sliding %s, recomputed %s", name, i, render(a), render(b))
				}
			}
		}
	}
}

func TestExtremeAgg_SetCollation_NoCase(t *testing.T) {
	f, _ := Lookup("max", 1)
	a := f.NewAggregate()
	a.(CollationSetter).SetCollation(types.CollNoCase)
	buf := []byte("B")
	a.Step([]types.Value{types.NewText("a")})
	a.Step([]types.Value{types.NewBlob(buf)})
	a.Step([]types.Value{types.NewText("b")})
	buf[0] = 'Z' // the aggregate must have copied what it keeps
	if v, _ := a.Final(); render(v) != "blob X'42'" {
		t.Errorf("max = %s", render(v))
	}
	a.Reset()
	a.Step([]types.Value{types.NewText("b")})
	a.Step([]types.Value{types.NewText("A")})
	if v, _ := a.Final(); render(v) != "text 'b'" {
		t.Errorf("max NOCASE = %s", render(v))
	}
}

func TestBoolAgg_Values(t *testing.T) {
	cases := []struct {
		name string
		in   []types.Value
		want string
	}{
		{"bool_and", []types.Value{types.NewInt(1), types.NewInt(2)}, "integer 1"},
		{"bool_and", []types.Value{types.NewInt(1), types.NewInt(0), types.Null}, "integer 0"},
		{"every", nil, "null NULL"},
		{"bool_or", []types.Value{types.Null, types.NewInt(0), types.NewText("1")}, "integer 1"},
		{"bool_or", []types.Value{types.Null}, "null NULL"},
	}
	for _, c := range cases {
		rows := [][]types.Value{{types.Null}}
		for _, v := range c.in {
			rows = append(rows, []types.Value{v})
		}
		if got := runAggregate(t, c.name, rows); got != c.want {
			t.Errorf("%s(%v) = %s, want %s", c.name, c.in, got, c.want)
		}
	}
}

func BenchmarkSumAgg_Step(b *testing.B) {
	f, _ := Lookup("sum", 1)
	a := f.NewAggregate()
	args := []types.Value{types.NewInt(3)}
	b.ReportAllocs()
	for b.Loop() {
		a.Step(args)
	}
}

func BenchmarkGroupConcat_Step(b *testing.B) {
	f, _ := Lookup("group_concat", 1)
	a := f.NewAggregate()
	args := []types.Value{types.NewText("abc")}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%1024 == 0 {
			a.Reset()
		}
		a.Step(args)
	}
}
