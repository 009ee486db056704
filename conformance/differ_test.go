package conformance

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/conformance/gen"
	"github.com/stretchr/testify/require"
)

const baselinePath = "testdata/diff_baseline.txt"

// shortSeeds and shortN make the differential run of the normal suite.
var shortSeeds = []uint64{1, 2, 3}

const shortN = 120

func TestDiffer_Run_NoRegressionAgainstBaseline(t *testing.T) {
	base, err := LoadBaseline(baselinePath)
	require.NoError(t, err)
	got := Baseline{}
	for _, seed := range shortSeeds {
		a, b := DefaultSides()
		d := &Differ{A: a, B: b, ResetEvery: 60, KeepSample: 3, Params: true}
		st, err := d.Run(seed, shortN)
		require.NoError(t, err)
		got[seed] = st.Unexplained()
		logStats(t, seed, st)
		checkGenerator(t, st)
		want, ok := base[seed]
		switch {
		case regenerate():
		case !ok:
			t.Errorf("seed %d has no baseline in %s; run with LADYBUG_CONFORMANCE_UPDATE=1", seed, baselinePath)
		case st.Unexplained() > want:
			t.Errorf("seed %d: %d unexplained mismatches, baseline %d: a regression", seed, st.Unexplained(), want)
			for _, m := range st.Samples {
				t.Log(m)
			}
		case st.Unexplained() < want:
			t.Logf("seed %d: %d unexplained mismatches, baseline %d; shrink it with LADYBUG_CONFORMANCE_UPDATE=1", seed, st.Unexplained(), want)
		}
	}
	if regenerate() {
		require.NoError(t, got.Save(baselinePath, shortN))
	}
}

// checkGenerator keeps the generator honest: most queries must be valid
// SQL for the oracle, and writes must mix successes and violations.
func checkGenerator(t *testing.T, st DiffStats) {
	t.Helper()
	require.Less(t, st.OracleQueryErrors*10, st.Queries, "over 10%% of generated queries are errors on SQLite")
	require.Positive(t, st.Writes)
	require.Less(t, st.OracleWriteErrors, st.Writes, "every generated write failed on SQLite")
}

func logStats(t *testing.T, seed uint64, st DiffStats) {
	t.Logf("seed %d: %d statements (%d queries, %d writes), oracle rejected %d queries and %d writes, %d mismatches: %d explained %s, %d unexplained; %d hangs or panics",
		seed, st.Statements, st.Queries, st.Writes, st.OracleQueryErrors, st.OracleWriteErrors,
		st.Mismatches, st.Mismatches-st.Unexplained(), explainedList(st), st.Unexplained(), st.Broken)
}

// TestGen_Statements_DeterministicAcrossPlans runs the generator against
// SQLite twice, the second time without secondary indexes and with
// reverse_unordered_selects, so any statement whose answer depends on the
// plan or scan order (which two correct engines may legally answer
// differently) shows up as a mismatch.
func TestGen_Statements_DeterministicAcrossPlans(t *testing.T) {
	var plain []string
	for _, q := range gen.Schema() {
		if !strings.HasPrefix(q, "CREATE INDEX") {
			plain = append(plain, q)
		}
	}
	b := Side{Engine: EngineSQLite, Setup: append([]string{"PRAGMA reverse_unordered_selects = ON"}, plain...)}
	d := &Differ{A: Side{Engine: EngineSQLite, Setup: gen.Schema()}, B: b, ResetEvery: 60, KeepSample: 10, Params: true}
	n := 300
	if stress() {
		n = envInt(t, "LADYBUG_DIFF_N", 100000)
	}
	st, err := d.Run(7, n)
	require.NoError(t, err)
	logStats(t, 7, st)
	for _, m := range st.Samples {
		t.Log(m)
	}
	require.Zero(t, st.Mismatches, "the generator produced plan-dependent statements")
}

// TestDiffer_Run_Stress is the long differential run (LADYBUG_STRESS=1):
// LADYBUG_DIFF_N statements (default 100000) from LADYBUG_DIFF_SEED
// (default: the clock), zero unexplained mismatches wanted.
// LADYBUG_DIFF_FROM=k starts at statement k (on fresh databases), and
// LADYBUG_DIFF_HISTORY=1 prints the writes that led to each mismatch.
// Progress lines carry the process's memory (see memSample): a long run
// must stay flat. LADYBUG_DIFF_HANGDUMP=path appends every goroutine's
// stack there when a statement times out.
func TestDiffer_Run_Stress(t *testing.T) {
	if !stress() {
		t.Skip("set LADYBUG_STRESS=1")
	}
	n := envInt(t, "LADYBUG_DIFF_N", 100000)
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("LADYBUG_DIFF_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		require.NoError(t, err)
		seed = v
	}
	a, b := DefaultSides()
	d := &Differ{A: a, B: b, ResetEvery: 200, KeepSample: 200, ProgressEvery: 5000, From: envInt(t, "LADYBUG_DIFF_FROM", 0), Params: true,
		Progress: func(done int, st DiffStats) {
			t.Logf("%d statements, %d mismatches (%d unexplained), %d hangs or panics; %s", done, st.Mismatches, st.Unexplained(), st.Broken, memSample())
		}}
	st, err := d.Run(seed, n)
	require.NoError(t, err)
	logStats(t, seed, st)
	t.Logf("memory at the end: %s", memSample())
	t.Logf("most frequent causes:\n%s", strings.Join(st.TopCauses(20), "\n"))
	for _, m := range st.Samples {
		t.Log(m)
		if os.Getenv("LADYBUG_DIFF_HISTORY") == "1" && len(m.History) > 0 {
			t.Logf("  after the writes:\n    %s", strings.Join(m.History, ";\n    "))
		}
	}
	if st.Unexplained() > 0 {
		t.Errorf("seed %d: %d of %d statements mismatched unexplained (rerun with LADYBUG_DIFF_SEED=%d)", seed, st.Unexplained(), st.Statements, seed)
	}
}

// explainedList formats the explained mismatches by difference id: "(D1: 2)".
func explainedList(st DiffStats) string {
	ids := make([]string, 0, len(st.Explained))
	for id := range st.Explained {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("%s: %d", id, st.Explained[id])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func stress() bool { return os.Getenv("LADYBUG_STRESS") == "1" }

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	require.NoError(t, err, name)
	return n
}
