package conformance

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// joinIssueQuery is issue #24's five-table comma join with single-table
// filters only; %d makes each run's text new (a column alias), so both
// engines parse and plan it cold, as a one-off query.
const joinIssueQuery = `SELECT e9*614+b2 AS c%d, x5, x2, a8, d6 FROM t5, t6, t9, t2, t8
 WHERE e8 IN (904,442,381,792,204,635) AND b9 IN (426,524,549,15,864,525,936)
   AND d6 IN (21,337,942) AND a2 IN (789,315,796,522,910,56,769,637) AND 443=c5`

// joinIssueSetup makes the issue's nine tables tN(aN, bN, cN, dN, eN
// INTEGER, xN VARCHAR(30)) of 300 rows each, values drawn from 0–999
// except the filters' constants, then sets the filtered column of the
// first rows of t5, t8, t9, t6 and t2 (4, 4, 4, 4 and 9 rows) to the
// filters' values: the query returns 4·4·4·4·9 = 2,304 rows, as in the
// issue.
func joinIssueSetup() []string {
	r := rand.New(rand.NewPCG(24, 24))
	listed := []int{904, 442, 381, 792, 204, 635, 426, 524, 549, 15, 864, 525, 936, 21, 337, 942, 789, 315, 796, 522, 910, 56, 769, 637, 443}
	val := func() int {
		for {
			if v := r.IntN(1000); !slices.Contains(listed, v) {
				return v
			}
		}
	}
	// per table: the filtered column's index (a..e) and the values its
	// first rows take
	hits := map[int]struct {
		col  int
		vals []int
	}{
		5: {2, []int{443, 443, 443, 443}},
		8: {4, []int{904, 442, 381, 792}},
		9: {1, []int{426, 524, 549, 15}},
		6: {3, []int{21, 337, 942, 21}},
		2: {0, []int{789, 315, 796, 522, 910, 56, 769, 637, 789}},
	}
	var out []string
	for n := 1; n <= 9; n++ {
		out = append(out, fmt.Sprintf("CREATE TABLE t%d(a%d INTEGER, b%d INTEGER, c%d INTEGER, d%d INTEGER, e%d INTEGER, x%d VARCHAR(30))", n, n, n, n, n, n, n))
		rows := make([]string, 300)
		for i := range rows {
			v := []int{val(), val(), val(), val(), val()}
			if h, ok := hits[n]; ok && i < len(h.vals) {
				v[h.col] = h.vals[i]
			}
			rows[i] = fmt.Sprintf("(%d,%d,%d,%d,%d,'x%d')", v[0], v[1], v[2], v[3], v[4], r.IntN(1000))
		}
		out = append(out, fmt.Sprintf("INSERT INTO t%d VALUES %s", n, strings.Join(rows, ",")))
	}
	return out
}

// BenchmarkJoinGen_IssueExample times the issue's example query cold on
// ladybug and on SQLite (modernc) in the same run, each iteration a new
// text: ns/op is clock time, cpu-ns/op the process's CPU time (see
// processCPU). The target is ladybug ≤ 2× SQLite.
func BenchmarkJoinGen_IssueExample(b *testing.B) {
	setup := joinIssueSetup()
	targets := map[string]*Target{EngineLadybug: OpenTarget(EngineLadybug), EngineSQLite: OpenTarget(EngineSQLite)}
	for _, t := range targets {
		defer t.Close()
		for _, s := range setup {
			if _, err := t.Exec(s); err != nil {
				b.Fatalf("%s: %v", t.Name, err)
			}
		}
	}
	want, err := targets[EngineSQLite].Query(fmt.Sprintf(joinIssueQuery, 0))
	if err != nil {
		b.Fatal(err)
	}
	got, err := targets[EngineLadybug].Query(fmt.Sprintf(joinIssueQuery, 0))
	if err != nil {
		b.Fatal(err)
	}
	if len(want.Values) != 2304 {
		b.Fatalf("SQLite returns %d rows, want 2304", len(want.Values))
	}
	if msg := compareRows(want, got, false, canonValue); msg != "" {
		b.Fatalf("answers differ: %s", msg)
	}
	for _, engine := range []string{EngineLadybug, EngineSQLite} {
		b.Run(engine, func(b *testing.B) {
			t := targets[engine]
			b.ReportAllocs()
			cpu0, _ := processCPU()
			for i := 0; b.Loop(); i++ {
				if _, err := t.Query(fmt.Sprintf(joinIssueQuery, i)); err != nil {
					b.Fatal(err)
				}
			}
			cpu1, _ := processCPU()
			b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
