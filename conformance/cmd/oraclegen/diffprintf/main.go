// diffprintf compares engine/funcs printf with SQLite's on random formats
// and arguments (seeded) and prints the mismatches; it records nothing.
package main

import (
	"fmt"
	"math"
	"math/rand"
	"strings"

	"github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/types"
)

func main() {
	db := oracle.Open()
	r := rand.New(rand.NewSource(5))
	flags := []string{"", "-", "+", " ", "#", "!", "0", ",", "-0", "+#", "!#", "0,", "#0"}
	widths := []string{"", "1", "5", "12", "30"}
	precs := []string{"", ".", ".0", ".1", ".3", ".10", ".17", ".20", ".40"}
	verbs := "dixXoucsqQwfeEgGr%j"
	args := []any{nil, int64(0), int64(7), int64(-7), int64(123456789), int64(math.MinInt64), 0.0, 1.0, -0.0, 0.5, 1.5, 2.5, -2.5, 3.14159265358979, 1e-5, 1e-4, 123456.789, 1e15, 1e16, 1e17, 9.999999, 0.000123456, 1e300, math.MaxFloat64, 5e-324, 99.995, 0.125, "abc", "héllo wörld", "x'y", "", "12.5"}
	bad := 0
	for it := 0; it < 60000; it++ {
		f := "%" + flags[r.Intn(len(flags))] + widths[r.Intn(len(widths))] + precs[r.Intn(len(precs))] + string(verbs[r.Intn(len(verbs))])
		var a []any
		a = append(a, f)
		for k := 0; k < 3; k++ {
			a = append(a, args[r.Intn(len(args))])
		}
		var want string
		if err := db.QueryRow("SELECT quote(printf(?1,?2,?3,?4))", a...).Scan(&want); err != nil {
			want = "ERR"
		}
		vals := []types.Value{types.NewText(f)}
		for _, x := range a[1:] {
			switch v := x.(type) {
			case nil:
				vals = append(vals, types.Null)
			case int64:
				vals = append(vals, types.NewInt(v))
			case float64:
				vals = append(vals, types.NewReal(v))
			case string:
				vals = append(vals, types.NewText(v))
			}
		}
		fn, _ := funcs.Lookup("printf", 4)
		got := "ERR"
		if v, err := fn.Scalar(nil, vals); err == nil {
			got = string(funcs.AppendQuote(nil, v))
		}
		if got != want {
			bad++
			if bad < 25 {
				fmt.Printf("printf(%q, %v) = %s; sqlite %s\n", f, a[1:], got, want)
			}
		}
	}
	fmt.Println("bad", bad, strings.Repeat("", 0))
}
