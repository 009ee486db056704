// windowframes records SQLite's window aggregates over random value lists and
// checks FrameAggregator against them. Usage: OUT=file windowframes rows|peers
package main

import (
	"database/sql"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"strconv"
	"strings"

	"github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/types"
)

type frame struct {
	sql           string
	before, after int // rows (or peer groups) before and after the current one
}

var rowFrames = []frame{{"ROWS BETWEEN 2 PRECEDING AND CURRENT ROW", 2, 0}, {"ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING", 1, 1},
	{"ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", 100, 0}, {"ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING", 0, 100},
	{"ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING", -1, 3}, {"ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING", 3, -1}}

// peerFrames run over ORDER BY n/2, peer groups of two rows.
var peerFrames = []frame{{"RANGE BETWEEN 1 PRECEDING AND CURRENT ROW", 1, 0}, {"RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING", 0, 1},
	{"RANGE BETWEEN CURRENT ROW AND CURRENT ROW", 0, 0}, {"GROUPS BETWEEN 1 FOLLOWING AND 2 FOLLOWING", -1, 2},
	{"RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", 100, 0}}

var pool = []any{nil, int64(0), int64(1), int64(-3), int64(math.MaxInt64), int64(math.MinInt64), int64(1 << 62), 0.5, -1.25, 1e308, -1e308, 0.1, 3.0, 1e16,
	"7", "2.5", "abc", "", " 12 ", "1e3", []byte("b"), []byte{}}

// aggs: name in the table, SQL call, function, separators per row parity.
var aggs = []struct {
	name, sql, fn string
	seps          []types.Value
}{
	{"count", "count(x)", "count", nil}, {"sum", "sum(x)", "sum", nil}, {"total", "total(x)", "total", nil},
	{"avg", "avg(x)", "avg", nil}, {"min", "min(x)", "min", nil}, {"max", "max(x)", "max", nil},
	{"group_concat", "group_concat(x)", "group_concat", nil},
	{"group_concat2", "group_concat(x, CASE WHEN n%2=0 THEN '--' ELSE ';' END)", "group_concat", []types.Value{types.NewText("--"), types.NewText(";")}},
	{"string_agg", "string_agg(x, '')", "string_agg", []types.Value{types.NewText(""), types.NewText("")}},
}

func main() {
	peers := len(os.Args) > 1 && os.Args[1] == "peers"
	out := oracle.CreateOut()
	defer out.Close()
	fmt.Println("mismatches by frame:", run(out, peers, 8000, 1000))
}

// run checks FrameAggregator against SQLite on iterations random value
// lists (one frame each, every aggregate), writes the first recorded
// results to out and returns the mismatches by frame.
func run(out io.Writer, peers bool, iterations, limit int) map[string]int {
	frames, order := rowFrames, "n"
	if peers {
		frames, order = peerFrames, "n/2"
	}
	db := oracle.Open()
	defer db.Close()
	fmt.Fprintf(out, "# SQLite 3.54.1: agg OVER (ORDER BY %s <frame>) over random value lists (seeded).\n", order)
	fmt.Fprintln(out, "# agg<TAB>before<TAB>after (100: unbounded)<TAB>values (Go-quoted codes, comma separated)<TAB>results joined by ' | '")
	r := rand.New(rand.NewSource(21))
	written, bad := 0, map[string]int{}
	for it := 0; it < iterations; it++ {
		vals := make([]any, r.Intn(7))
		for i := range vals {
			vals[i] = pool[r.Intn(len(pool))]
		}
		load(db, vals)
		fr := frames[it%len(frames)]
		for _, a := range aggs {
			want, ok := ask(db, a.sql, order, fr.sql)
			if !ok {
				continue
			}
			if got := ours(a.fn, a.seps, vals, fr, peers); got != want {
				bad[fr.sql]++
			}
			if written < limit {
				codes := make([]string, len(vals))
				for i, v := range vals {
					codes[i] = strconv.Quote(oracle.Code(v))
				}
				fmt.Fprintf(out, "%s\t%d\t%d\t%s\t%s\n", a.name, fr.before, fr.after, strings.Join(codes, ","), want)
				written++
			}
		}
	}
	return bad
}

func load(db *sql.DB, vals []any) {
	db.Exec("DROP TABLE IF EXISTS v")
	db.Exec("CREATE TABLE v(n INTEGER PRIMARY KEY, x)")
	for i, v := range vals {
		db.Exec("INSERT INTO v VALUES(?,?)", i, v)
	}
}

// ask returns SQLite's results for every row, or ok false for no rows.
func ask(db *sql.DB, call, order, frame string) (string, bool) {
	q := fmt.Sprintf("SELECT group_concat(typeof(s)||' '||quote(s), ' | ') FROM (SELECT %s OVER (ORDER BY %s %s) AS s FROM v)", call, order, frame)
	var want sql.NullString
	if err := db.QueryRow(q).Scan(&want); err != nil {
		return "ERR", true
	}
	return want.String, want.Valid && !strings.Contains(want.String, "\n")
}

// ours computes the same with FrameAggregator.
func ours(fn string, seps []types.Value, vals []any, fr frame, peers bool) string {
	nargs := 1
	if seps != nil {
		nargs = 2
	}
	f, _ := funcs.Lookup(fn, nargs)
	fa := funcs.NewFrameAggregator(f.NewAggregate())
	rows := make([][]types.Value, len(vals))
	for i, v := range vals {
		rows[i] = []types.Value{oracle.Value(v)}
		if seps != nil {
			rows[i] = append(rows[i], seps[i%2])
		}
	}
	var parts []string
	for i := range vals {
		var v types.Value
		var err error
		if peers {
			g := i / 2
			start, end := (g-fr.before)*2, (g+fr.after+1)*2
			if fr.before == 100 {
				start = -1000
			}
			if fr.before < 0 { // GROUPS x FOLLOWING AND y FOLLOWING
				gap := fr.after + fr.before // y - x
				v, err = fa.ValueLagged(rows, start, end, func(e int) int { return (e/2 - gap) * 2 })
			} else {
				v, err = fa.ValuePeers(rows, start, end)
			}
		} else {
			v, err = fa.Value(rows, i-fr.before, i+fr.after+1)
		}
		if err != nil {
			return "ERR"
		}
		parts = append(parts, oracle.Render(v))
	}
	return strings.Join(parts, " | ")
}
