// randomjson records SQLite's JSON functions on random documents and paths
// (seeded), and checks engine/funcs against them as it goes. Usage: OUT=file randomjson
package main

import (
	"fmt"
	"io"
	"math/rand"
	"strconv"
	"strings"

	"github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/types"
)

var r = rand.New(rand.NewSource(13))

func doc(depth int) string {
	switch k := r.Intn(10); {
	case depth > 3 || k < 4:
		atoms := []string{"1", "-2.5", "0", "1e3", "true", "false", "null", `"s"`, `"a\"b"`, `"\u00e9"`, "123456789012345678901", `""`, "0.1", `"x y"`}
		return atoms[r.Intn(len(atoms))]
	case k < 7:
		n := r.Intn(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = doc(depth + 1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		n := r.Intn(4)
		keys := []string{"a", "b", "c", "a b", "", "1"}
		parts := make([]string, n)
		for i := range parts {
			parts[i] = strconv.Quote(keys[r.Intn(len(keys))]) + ":" + doc(depth+1)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}

func path() string {
	p := "$"
	for k := r.Intn(4); k > 0; k-- {
		switch r.Intn(6) {
		case 0:
			p += ".a"
		case 1:
			p += ".b"
		case 2:
			p += `."a b"`
		case 3:
			p += "[" + strconv.Itoa(r.Intn(3)) + "]"
		case 4:
			p += "[#-" + strconv.Itoa(r.Intn(3)) + "]"
		case 5:
			p += "[#]"
		}
	}
	return p
}

func main() {
	out := oracle.CreateOut()
	defer out.Close()
	fmt.Println("bad", run(out, 30000, 1000))
}

// run checks engine/funcs against SQLite on iterations random calls,
// writes the first recorded ones to out and returns the number of
// mismatches.
func run(out io.Writer, iterations, recorded int) int {
	r = rand.New(rand.NewSource(13))
	db := oracle.Open()
	defer db.Close()
	var bad oracle.Mismatches
	fmt.Fprintln(out, "# SQLite 3.54.1: random JSON documents and paths (seeded); name<TAB>args (Go-quoted operand codes)<TAB>result")
	for it := 0; it < iterations; it++ {
		var name string
		var args []any
		d := doc(0)
		switch r.Intn(11) {
		case 0:
			name, args = "json", []any{d}
		case 1:
			name, args = "json_extract", []any{d, path()}
		case 2:
			name, args = "json_extract", []any{d, path(), path()}
		case 3:
			name, args = "json_type", []any{d, path()}
		case 4:
			name, args = "json_set", []any{d, path(), doc(2)}
		case 5:
			name, args = "json_insert", []any{d, path(), int64(r.Intn(9))}
		case 6:
			name, args = "json_replace", []any{d, path(), "v"}
		case 7:
			name, args = "json_remove", []any{d, path(), path()}
		case 8:
			name, args = "json_patch", []any{d, doc(0)}
		case 9:
			name, args = "json_array_length", []any{d, path()}
		case 10:
			name, args = "->>", []any{d, path()}
		}
		ph := make([]string, len(args))
		vals := make([]types.Value, len(args))
		for k, a := range args {
			ph[k] = "?" + strconv.Itoa(k+1)
			switch v := a.(type) {
			case string:
				vals[k] = types.NewText(v)
			case int64:
				vals[k] = types.NewInt(v)
			}
		}
		expr := name + "(" + strings.Join(ph, ",") + ")"
		if name == "->>" {
			expr = "?1 ->> ?2"
		}
		var want string
		if err := db.QueryRow("SELECT typeof(x)||' '||quote(x) FROM (SELECT "+expr+" AS x)", args...).Scan(&want); err != nil {
			want = "ERR"
		}
		f, _ := funcs.Lookup(name, len(vals))
		got := "ERR"
		if v, err := f.Scalar(nil, vals); err == nil {
			got = oracle.Render(v)
		}
		if it < recorded {
			fmt.Fprintln(out, oracle.Row(name, oracle.Codes(args), want))
		}
		bad.Check(name, args, got, want)
	}
	return int(bad)
}
