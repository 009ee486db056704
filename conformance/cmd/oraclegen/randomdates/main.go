// randomdates records SQLite's date and time functions on random time values
// and modifiers (seeded), and checks engine/funcs against them as it goes.
// Usage: TZ=UTC OUT=file randomdates
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

func main() {
	out := oracle.CreateOut()
	defer out.Close()
	fmt.Println("bad", run(out, 40000, 1000))
}

// run checks engine/funcs against SQLite on iterations random calls,
// writes the first recorded error-free ones to out and returns the number
// of mismatches.
func run(out io.Writer, iterations, recorded int) int {
	db := oracle.Open()
	defer db.Close()
	r := rand.New(rand.NewSource(9))
	c := funcs.NewContext(oracle.Env{})
	bases := []any{"2024-02-29 13:45:30.123", "2023-01-31", "2000-03-01 00:00:00", "1999-12-31 23:59:59", "-0100-06-15", "9999-12-30", "0000-01-01 12:00", "12:34:56", "2024-02-29T01:02Z", "2024-06-30 10:00-04:00",
		int64(0), int64(1700000000), int64(-86400), 2451545.0, 2460000.75, 1.5e9, int64(5373484), "1700000000", "2460000.5", "2024-02-30", "2024-04-31 10:00"}
	mods := []string{"+1 day", "-1 day", "+36 hours", "-90 minutes", "+59.5 seconds", "+1 month", "-1 month", "+13 months", "-25 months", "+1 year", "-1 year", "+0.5 days", "+1.5 months", "-2.25 years",
		"start of month", "start of year", "start of day", "weekday 0", "weekday 1", "weekday 6", "unixepoch", "julianday", "auto", "subsec", "floor", "ceiling", "+01:00", "-12:30:15.5", "+0000-01-00", "-0001-11-30", "+0002-00-01 10:20:30",
		"utc", "localtime", "+10 DAYS", " +1 day", "+1 day ", "+1day", "1 day", "+ 1 day", "+1.0e1 days", "+100000000 days", "-5373485 days", "+1 weekday"}
	fnsT := []string{"date", "time", "datetime", "julianday", "unixepoch"}
	fmts := []string{"%d %e %f %F %G %g %H %I %j %J %k %l %m %M %p %P %R %s %S %T %u %U %V %w %W %Y %%"}
	var bad oracle.Mismatches
	fmt.Fprintln(out, "# SQLite 3.54.1 in UTC: random time values and modifiers (seeded); name<TAB>args (Go-quoted operand codes)<TAB>result")
	for it := 0; it < iterations; it++ {
		fname := fnsT[r.Intn(len(fnsT))]
		args := []any{bases[r.Intn(len(bases))]}
		if r.Intn(6) == 0 {
			fname = "strftime"
			args = append([]any{fmts[0]}, args...)
		}
		for k := r.Intn(3); k > 0; k-- {
			args = append(args, mods[r.Intn(len(mods))])
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
			case float64:
				vals[k] = types.NewReal(v)
			}
		}
		var want string
		if err := db.QueryRow("SELECT typeof(x)||' '||quote(x) FROM (SELECT "+fname+"("+strings.Join(ph, ",")+") AS x)", args...).Scan(&want); err != nil {
			want = "ERR " + err.Error()
		}
		f, _ := funcs.Lookup(fname, len(vals))
		got := "ERR"
		if v, err := f.Scalar(c, vals); err == nil {
			got = oracle.Render(v)
		}
		c.Reset()
		if it < recorded && !strings.Contains(want, "ERR") {
			fmt.Fprintln(out, oracle.Row(fname, oracle.Codes(args), want))
		}
		bad.Check(fname, args, got, want)
	}
	return int(bad)
}
