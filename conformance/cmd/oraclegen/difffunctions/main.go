// difffunctions compares engine/funcs scalar functions with SQLite on random
// arguments and prints the mismatches; it records nothing. Usage: difffunctions SEED N
package main

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"strconv"
	"strings"

	"github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/types"
)

var pool = []any{nil, int64(0), int64(1), int64(-1), int64(2), int64(3), int64(10), int64(-7), int64(100), int64(1709214330), int64(math.MaxInt64), int64(math.MinInt64),
	0.0, 0.5, -2.5, 1.5, 3.14159, 1e20, 1e-7, 2460369.5, 123.456, -0.001,
	"", "a", "abc", "ABC", "  x y  ", "12", "12abc", "-3.5", "1e3", "héllo", "%", "_", "%a%", "a_c", "$", "$.a", "$[0]", "$.a[1]", "$[#-1]",
	`{"a":[1,2,{"b":"x"}],"c":null}`, `[1,"two",3.5,[4]]`, `"s"`, "2024-02-29 13:45:30", "2024-01-31", "12:30", "+1 month", "-2 days", "start of month",
	"weekday 1", "unixepoch", "subsec", "localtime", "%Y-%m-%d", "%H:%M:%f", "%j %U %W %V", "%s", "%d %5.2f %x %q %Q %c %-5s|", "%.3e %g %#x %,d",
	[]byte{}, []byte("ab"), []byte{0, 0xff}, "x'y", "a\"b", "[a-c]*", "*b*", "?b?", "ESC", "\\",
}

type fn struct {
	name     string
	min, max int
}

var fns = []fn{{"abs", 1, 1}, {"coalesce", 2, 4}, {"ifnull", 2, 2}, {"nullif", 2, 2}, {"iif", 3, 3}, {"length", 1, 1}, {"octet_length", 1, 1}, {"lower", 1, 1}, {"upper", 1, 1},
	{"trim", 1, 2}, {"ltrim", 1, 2}, {"rtrim", 1, 2}, {"substr", 2, 3}, {"replace", 3, 3}, {"instr", 2, 2}, {"printf", 1, 4}, {"quote", 1, 1}, {"hex", 1, 1}, {"unhex", 1, 2},
	{"round", 1, 2}, {"sign", 1, 1}, {"typeof", 1, 1}, {"min", 2, 3}, {"max", 2, 3}, {"char", 0, 3}, {"unicode", 1, 1}, {"concat", 1, 3}, {"concat_ws", 2, 4},
	{"ceil", 1, 1}, {"floor", 1, 1}, {"sqrt", 1, 1}, {"pow", 2, 2}, {"mod", 2, 2}, {"trunc", 1, 1}, {"degrees", 1, 1}, {"radians", 1, 1},
	{"date", 1, 3}, {"time", 1, 3}, {"datetime", 1, 3}, {"julianday", 1, 3}, {"unixepoch", 1, 3}, {"strftime", 2, 4}, {"timediff", 2, 2},
	{"json", 1, 1}, {"json_extract", 2, 3}, {"json_type", 1, 2}, {"json_valid", 1, 1}, {"json_quote", 1, 1}, {"json_array", 0, 3}, {"json_object", 0, 4},
	{"json_array_length", 1, 2}, {"json_insert", 3, 3}, {"json_replace", 3, 3}, {"json_set", 3, 5}, {"json_remove", 1, 3}, {"json_patch", 2, 2},
	{"like", 2, 3}, {"glob", 2, 2}, {"->", 2, 2}, {"->>", 2, 2}}

func main() {
	db := oracle.Open()
	seed, _ := strconv.Atoi(os.Args[1])
	n, _ := strconv.Atoi(os.Args[2])
	r := rand.New(rand.NewSource(int64(seed)))
	c := funcs.NewContext(oracle.Env{})
	bad := map[string]int{}
	for it := 0; it < n; it++ {
		f := fns[r.Intn(len(fns))]
		k := f.min + r.Intn(f.max-f.min+1)
		args := make([]any, k)
		vals := make([]types.Value, k)
		ph := make([]string, k)
		for j := range args {
			args[j] = pool[r.Intn(len(pool))]
			if (f.name == "like" || f.name == "glob") && j == 1 {
				if _, isBlob := args[j].([]byte); isBlob {
					args[j] = "ab"
				}
			}
			vals[j] = oracle.Value(args[j])
			ph[j] = "?" + strconv.Itoa(j+1)
		}
		expr := f.name + "(" + strings.Join(ph, ",") + ")"
		if f.name == "->" || f.name == "->>" {
			expr = "?1 " + f.name + " ?2"
		}
		var want string
		err := db.QueryRow("SELECT typeof(x)||' '||quote(x) FROM (SELECT "+expr+" AS x)", args...).Scan(&want)
		if err != nil {
			want = "ERR"
		}
		got := "ERR"
		if fd, err := funcs.Resolve(f.name, k); err == nil {
			if v, err := fd.Scalar(c, vals); err == nil {
				got = oracle.Render(v)
			}
		}
		c.Reset()
		if got != want {
			if strings.HasPrefix(got, "real") && strings.HasPrefix(want, "real") && (f.name == "pow" || f.name == "mod") {
				continue
			}
			bad[f.name]++
			if bad[f.name] <= 3 || (os.Getenv("ALL") != "" && !strings.Contains(fmtArgs(args), "x'")) {
				fmt.Printf("%s(%v) = %s; sqlite %s\n", f.name, fmtArgs(args), got, want)
			}
		}
	}
	fmt.Println("mismatches by function:", bad)
}

func fmtArgs(a []any) string {
	var s []string
	for _, x := range a {
		switch v := x.(type) {
		case string:
			s = append(s, strconv.Quote(v))
		case []byte:
			s = append(s, fmt.Sprintf("x'%x'", v))
		default:
			s = append(s, fmt.Sprint(v))
		}
	}
	return strings.Join(s, ", ")
}
