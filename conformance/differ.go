package conformance

import (
	"database/sql"
	"encoding/hex"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ladybugsql/ladybug/conformance/gen"
)

var (
	digits = regexp.MustCompile(`[0-9]+`)
	quoted = regexp.MustCompile(`"[^"]*"|'[^']*'`)
)

// Side is one engine of a differential run with the setup it gets.
type Side struct {
	Engine string   // EngineLadybug or EngineSQLite
	Setup  []string // statements run on every fresh database
}

// Mismatch is one statement on which the two sides disagreed.
type Mismatch struct {
	Seed   uint64
	Index  int // statement number within the run, from 0
	SQL    string
	Detail string
	// History holds the statements run since the databases were last
	// fresh, before this one: with gen.Schema() they reproduce the state.
	History []string
}

// String formats the mismatch for a test log, seed first so it can be rerun.
func (m Mismatch) String() string {
	return fmt.Sprintf("seed %d, statement %d:\n  %s\n  %s", m.Seed, m.Index, m.SQL, m.Detail)
}

// DiffStats counts a differential run.
type DiffStats struct {
	Statements, Queries, Writes int
	OracleQueryErrors           int            // queries the oracle rejected (both sides must reject them)
	OracleWriteErrors           int            // writes the oracle rejected, mostly constraint violations
	Mismatches                  int            // all disagreements, explained or not
	Explained                   map[string]int // mismatches by the intended difference (DIFFERENCES.md) behind them
	Broken                      int            // statements after which an engine hung or panicked
	Samples                     []Mismatch     // the first few unexplained mismatches
	Causes                      map[string]int // unexplained mismatches by the first line of their detail
}

// Unexplained counts the mismatches no intended difference accounts for.
func (st DiffStats) Unexplained() int {
	n := st.Mismatches
	for _, k := range st.Explained {
		n -= k
	}
	return n
}

// TopCauses lists the n most frequent mismatch causes, most frequent first.
func (st DiffStats) TopCauses(n int) []string {
	keys := make([]string, 0, len(st.Causes))
	for k := range st.Causes {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if d := st.Causes[b] - st.Causes[a]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	out := make([]string, 0, n)
	for _, k := range keys[:min(n, len(keys))] {
		out = append(out, fmt.Sprintf("%6d  %s", st.Causes[k], k))
	}
	return out
}

// cause is a mismatch detail reduced to its kind: the first line, with
// numbers and quoted names blanked so alike failures count together.
func cause(detail string) string {
	line, _, _ := strings.Cut(detail, "\n")
	line = quoted.ReplaceAllString(line, `"…"`)
	return digits.ReplaceAllString(line, "N")
}

// Differ runs generated statements on two sides and compares them. Side A
// is the oracle; its setup must succeed.
type Differ struct {
	A, B       Side
	ResetEvery int // fresh databases after this many statements (state diverges less)
	KeepSample int // how many mismatches to keep in DiffStats.Samples
	// Params has the generator bind a third of its literals as
	// parameters of every spelling (gen.Gen.Params).
	Params bool
	// From skips the first From statements of the seed's sequence (they
	// are generated, not run), to reach a late statement quickly.
	From int
	// Progress, when set, is called every ProgressEvery statements.
	Progress      func(done int, st DiffStats)
	ProgressEvery int

	a, b *Target
	// hist holds the statements run since the last reset.
	hist []string
	// other is side B's result of the last query compared, for explain.
	other *Rows
}

// DefaultSides is SQLite against ladybug over gen's schema.
func DefaultSides() (Side, Side) {
	return Side{Engine: EngineSQLite, Setup: gen.Schema()}, Side{Engine: EngineLadybug, Setup: gen.Schema()}
}

// Run executes n statements from seed and returns the counts. It returns an
// error only when the oracle cannot set up the schema.
func (d *Differ) Run(seed uint64, n int) (DiffStats, error) {
	st := DiffStats{Causes: map[string]int{}, Explained: map[string]int{}}
	g := gen.New(seed)
	g.Params = d.Params
	if err := d.reset(); err != nil {
		return st, err
	}
	defer d.close()
	for range d.From {
		g.Next()
	}
	since := 0
	for i := d.From; i < n; i++ {
		s := g.Next()
		st.Statements++
		detail, oracleErr := d.compare(s)
		d.count(&st, s, oracleErr)
		since++
		if detail != "" {
			st.Mismatches++
		}
		if id := d.explainMismatch(s, detail); id != "" {
			st.Explained[id]++
		} else if detail != "" {
			st.Causes[cause(detail)]++
			if len(st.Samples) < d.KeepSample {
				st.Samples = append(st.Samples, Mismatch{Seed: seed, Index: i, SQL: withArgs(s), Detail: detail, History: slices.Clone(d.hist)})
			}
		}
		if s.Write {
			d.hist = append(d.hist, withArgs(s))
		}
		if d.Progress != nil && d.ProgressEvery > 0 && (i+1)%d.ProgressEvery == 0 {
			d.Progress(i+1, st)
		}
		broken := d.a.Broken() != nil || d.b.Broken() != nil
		if broken {
			st.Broken++
		}
		if detail != "" && s.Write || broken || d.ResetEvery > 0 && since >= d.ResetEvery {
			if err := d.reset(); err != nil {
				return st, err
			}
			since = 0
		}
	}
	return st, nil
}

// explainMismatch is explain for a mismatch with detail ("" for none),
// over the other side's rows when both sides returned some.
func (d *Differ) explainMismatch(s gen.Stmt, detail string) string {
	if detail == "" || !strings.HasPrefix(detail, "results differ") {
		return ""
	}
	return d.explain(s, d.other)
}

func (d *Differ) count(st *DiffStats, s gen.Stmt, oracleErr error) {
	if s.Write {
		st.Writes++
		if oracleErr != nil {
			st.OracleWriteErrors++
		}
		return
	}
	st.Queries++
	if oracleErr != nil {
		st.OracleQueryErrors++
	}
}

func (d *Differ) close() {
	for _, t := range []*Target{d.a, d.b} {
		if t != nil {
			t.Close()
		}
	}
}

// reset opens fresh databases and runs each side's setup. A failing setup
// statement on side B is skipped, not an error: what depends on it will
// mismatch.
func (d *Differ) reset() error {
	d.close()
	d.hist = d.hist[:0]
	d.a, d.b = OpenTarget(d.A.Engine), OpenTarget(d.B.Engine)
	for _, q := range d.A.Setup {
		if _, err := d.a.Exec(q); err != nil {
			return fmt.Errorf("conformance: oracle setup %q: %w", q, err)
		}
	}
	for _, q := range d.B.Setup {
		_, _ = d.b.Exec(q)
	}
	return nil
}

// compare runs s on both sides; it returns a description of the
// disagreement ("" when they agree) and the oracle's error.
func (d *Differ) compare(s gen.Stmt) (string, error) {
	msg, oracleErr := d.compareStatement(s)
	if msg != "" || !s.Write {
		return msg, oracleErr
	}
	// A write that failed on both sides must have changed nothing on either,
	// and foreign key actions reach beyond the written table.
	for _, name := range gen.Writable() {
		if msg := d.compareTable(name); msg != "" {
			return msg, oracleErr
		}
	}
	return d.compareIntegrity(), oracleErr
}

// compareIntegrity runs PRAGMA integrity_check on both sides after a
// write: each must find its indexes and rows consistent ("ok").
func (d *Differ) compareIntegrity() string {
	const q = "PRAGMA integrity_check"
	ra, ea := d.a.Query(q)
	rb, eb := d.b.Query(q)
	if msg := compareOutcome(ea, eb); msg != "" || ea != nil {
		return "integrity_check: " + msg
	}
	if msg := compareRows(ra, rb, true, canonValue); msg != "" {
		return "integrity_check after the write: " + msg
	}
	return ""
}

// withArgs is the statement's SQL followed by its arguments, to rerun it.
func withArgs(s gen.Stmt) string {
	if len(s.Args) == 0 {
		return s.SQL
	}
	parts := make([]string, len(s.Args))
	for i, a := range s.Args {
		if na, ok := a.(sql.NamedArg); ok {
			parts[i] = na.Name + "=" + canonValue(na.Value)
		} else {
			parts[i] = canonValue(a)
		}
	}
	return s.SQL + "  -- args: " + strings.Join(parts, ", ")
}

func (d *Differ) compareStatement(s gen.Stmt) (string, error) {
	d.other = nil
	if s.Write && !s.Returns {
		na, ea := d.a.Exec(s.SQL, s.Args...)
		nb, eb := d.b.Exec(s.SQL, s.Args...)
		if msg := compareOutcome(ea, eb); msg != "" {
			return msg, ea
		}
		if ea == nil && na != nb {
			return fmt.Sprintf("RowsAffected: oracle %d, other side %d", na, nb), nil
		}
		return "", ea
	}
	ra, ea := d.a.Query(s.SQL, s.Args...)
	rb, eb := d.b.Query(s.SQL, s.Args...)
	d.other = rb
	if msg := compareOutcome(ea, eb); msg != "" || ea != nil {
		return msg, ea
	}
	msg := compareRows(ra, rb, s.Ordered && !s.Write, canonValue)
	if msg != "" && dedups(s.SQL) && compareRows(ra, rb, s.Ordered, looseValue) == "" {
		// DISTINCT, GROUP BY and set operations keep one of several equal
		// values, and 0 = 0.0: which one survives is up to the plan.
		msg = ""
	}
	return msg, nil
}

func dedups(sql string) bool {
	u := strings.ToUpper(sql)
	for _, kw := range []string{"DISTINCT", "UNION", "INTERSECT", "EXCEPT", "GROUP BY"} {
		if strings.Contains(u, kw) {
			return true
		}
	}
	return false
}

func (d *Differ) compareTable(name string) string {
	q := "SELECT * FROM " + name
	ra, ea := d.a.Query(q)
	rb, eb := d.b.Query(q)
	if msg := compareOutcome(ea, eb); msg != "" || ea != nil {
		return "contents of " + name + ": " + msg
	}
	if msg := compareRows(ra, rb, false, canonValue); msg != "" {
		return "contents of " + name + " after the write: " + msg
	}
	return ""
}

func compareOutcome(ea, eb error) string {
	switch {
	case ea == nil && eb != nil:
		return "oracle succeeded, other side failed: " + FirstLine(eb)
	case ea != nil && eb == nil:
		return "oracle failed (" + FirstLine(ea) + "), other side succeeded"
	}
	return ""
}

// compareRows compares two results exactly (storage class and value; reals
// to 12 significant digits), as multisets unless ordered.
func compareRows(a, b *Rows, ordered bool, canon func(any) string) string {
	if len(a.Columns) != len(b.Columns) {
		return fmt.Sprintf("column count: %d vs %d", len(a.Columns), len(b.Columns))
	}
	ka, kb := canonRows(a, canon), canonRows(b, canon)
	if !ordered {
		slices.Sort(ka)
		slices.Sort(kb)
	}
	if slices.Equal(ka, kb) {
		return ""
	}
	return fmt.Sprintf("results differ\n    oracle: %s\n    other:  %s", brief(ka), brief(kb))
}

func brief(rows []string) string {
	if len(rows) > 12 {
		return strings.Join(rows[:12], " ; ") + fmt.Sprintf(" ; ... (%d rows)", len(rows))
	}
	return fmt.Sprintf("%s (%d rows)", strings.Join(rows, " ; "), len(rows))
}

func canonRows(r *Rows, canon func(any) string) []string {
	out := make([]string, len(r.Values))
	for i, row := range r.Values {
		parts := make([]string, len(row))
		for j, v := range row {
			parts[j] = canon(v)
		}
		out[i] = strings.Join(parts, " | ")
	}
	return out
}

// looseValue is canonValue except that an integral real prints as the
// integer it equals.
func looseValue(v any) string {
	if f, ok := v.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10)
	}
	return canonValue(v)
}

// canonValue tags a value with its storage class.
func canonValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return formatInt(x)
	case float64:
		if x == 0 {
			x = 0 // -0 prints as 0, as SQLite does
		}
		return "r" + strconv.FormatFloat(x, 'g', 12, 64)
	case string:
		return strconv.Quote(x)
	case []byte:
		return "x'" + hex.EncodeToString(x) + "'"
	case time.Time:
		return strconv.Quote(formatTime(x))
	}
	return fmt.Sprintf("%T(%v)", v, v)
}
