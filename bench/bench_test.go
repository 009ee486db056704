package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// testScale with Params.Tiny makes every case a few dozen rows.
const testScale = 0.001

// TestMain lets the test binary act as a worker, so runWorker's process
// handling is tested with the test-only cases below.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "-worker" {
		os.Exit(workerMain(os.Args[2]))
	}
	os.Exit(m.Run())
}

// testOnly is the workload of the cases that exist only in tests.
const testOnly = "testonly"

func init() {
	caseCtors = append(caseCtors, func() []*Case {
		return []*Case{
			{Name: "testonly/sleep", Workload: testOnly, Run: func(e *Env) error {
				return e.Measure(1, func() error { time.Sleep(time.Minute); return nil })
			}},
			{Name: "testonly/panic", Workload: testOnly, Run: func(e *Env) error {
				return e.Measure(1, func() error { panic("boom") })
			}},
			{Name: "testonly/crash", Workload: testOnly, Run: func(e *Env) error {
				done := make(chan struct{})
				go func() { panic("crash in a goroutine") }()
				<-done
				return nil
			}},
			{Name: "testonly/slow", Workload: testOnly, Run: func(e *Env) error {
				return e.Measure(1, func() error { time.Sleep(60 * time.Millisecond); return nil })
			}},
			{Name: "testonly/nomeasure", Workload: testOnly, Run: func(e *Env) error { return nil }},
		}
	})
}

// realCases are the cases of the table, without the test-only ones.
func realCases() []*Case {
	var out []*Case
	for _, c := range allCases() {
		if c.Workload != testOnly {
			out = append(out, c)
		}
	}
	return out
}

func cellFor(t *testing.T, c *Case, driver, mode string) cellConfig {
	return cellConfig{Case: c.Name, Runs: 1, TmpDir: t.TempDir(),
		P: Params{Scale: testScale, Sync: "normal", Mode: mode, Driver: driver, Tiny: true}}
}

// TestCase_Run_EveryCheckCanFail runs each case once on modernc, then once
// per Check it made with that Check fed a wrong answer: every run must be
// reported WRONG, so no verification is a check that cannot fail.
func TestCase_Run_EveryCheckCanFail(t *testing.T) {
	for _, c := range realCases() {
		t.Run(c.Name, func(t *testing.T) {
			cfg := cellFor(t, c, "modernc", "file")
			res := runCell(cfg, nil)
			if res.Status != statusOK {
				t.Fatalf("clean run: %s %s", res.Status, res.Msg)
			}
			if res.Checks == 0 {
				t.Fatal("the case verified nothing")
			}
			for k := 1; k <= res.Checks; k++ {
				cfg.Corrupt = k
				bad := runCell(cfg, nil)
				if bad.Status != statusWrong {
					t.Errorf("check %d of %d fed a wrong answer: status %s %q, want %s", k, res.Checks, bad.Status, bad.Msg, statusWrong)
				}
			}
		})
	}
}

// TestCase_Run_PresentDriversAnswerRight runs every case on each driver in
// this binary (ncruces by default; ladybug with -tags ladybug), in both
// modes. The SQLite drivers must answer right; ladybug may still be
// unsupported, but never wrong.
func TestCase_Run_PresentDriversAnswerRight(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, d := range []string{"ncruces", "ladybug"} {
		if !specs[d].registered() {
			continue
		}
		for _, mode := range []string{"file", "memory"} {
			for _, c := range realCases() {
				t.Run(d+"/"+mode+"/"+c.Name, func(t *testing.T) {
					res := runCell(cellFor(t, c, d, mode), nil)
					switch {
					case res.Status == statusOK, res.Status == statusNA && c.FileOnly:
					case d == "ladybug" && res.Status == statusUnsupported:
						t.Logf("ladybug: %s", res.Msg)
					default:
						t.Errorf("%s: %s", res.Status, res.Msg)
					}
				})
			}
		}
	}
}

func TestRunCell_Panic_IsUnsupported(t *testing.T) {
	c, err := findCase("testonly/panic")
	if err != nil {
		t.Fatal(err)
	}
	res := runCell(cellFor(t, c, "modernc", "memory"), nil)
	if res.Status != statusUnsupported || !strings.Contains(res.Msg, "panic: boom") {
		t.Fatalf("got %s %q, want unsupported with the panic", res.Status, res.Msg)
	}
}

func TestRunCell_NoMeasure_IsUnsupported(t *testing.T) {
	c, err := findCase("testonly/nomeasure")
	if err != nil {
		t.Fatal(err)
	}
	res := runCell(cellFor(t, c, "modernc", "memory"), nil)
	if res.Status != statusUnsupported || !strings.Contains(res.Msg, "Measure") {
		t.Fatalf("got %s %q", res.Status, res.Msg)
	}
}

func TestRunCell_UnregisteredDriver_IsUnsupported(t *testing.T) {
	c, err := findCase("select1/prepared")
	if err != nil {
		t.Fatal(err)
	}
	res := runCell(cellFor(t, c, "mattn", "memory"), nil) // mattn lives in its own flavor
	if res.Status != statusUnsupported || !strings.Contains(res.Msg, "not registered") {
		t.Fatalf("got %s %q", res.Status, res.Msg)
	}
}

func testBinary(t *testing.T) string {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestRunWorker_Hang_IsTimeout(t *testing.T) {
	cfg := cellConfig{Case: "testonly/sleep", Runs: 1, TmpDir: t.TempDir(),
		P: Params{Scale: testScale, Sync: "normal", Mode: "memory", Driver: "modernc"}}
	start := time.Now()
	oc := runWorker(context.Background(), testBinary(t), cfg, 500*time.Millisecond)
	if oc.Status != statusTimeout {
		t.Fatalf("got %s %q, want timeout", oc.Status, oc.Msg)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("the hung worker was not killed promptly: %v", d)
	}
}

func TestRunWorker_GoroutinePanic_IsCrash(t *testing.T) {
	cfg := cellConfig{Case: "testonly/crash", Runs: 1, TmpDir: t.TempDir(),
		P: Params{Scale: testScale, Sync: "normal", Mode: "memory", Driver: "modernc"}}
	oc := runWorker(context.Background(), testBinary(t), cfg, 20*time.Second)
	if oc.Status != statusUnsupported || !strings.Contains(oc.Msg, "crash: panic: crash in a goroutine") {
		t.Fatalf("got %s %q", oc.Status, oc.Msg)
	}
}

func TestRunWorker_Case_StreamsRunsAndResult(t *testing.T) {
	cfg := cellConfig{Case: "select1/prepared", Runs: 3, TmpDir: t.TempDir(),
		P: Params{Scale: testScale, Sync: "normal", Mode: "memory", Driver: "modernc"}}
	oc := runWorker(context.Background(), testBinary(t), cfg, 30*time.Second)
	if oc.Status != statusOK || len(oc.Runs) != 3 {
		t.Fatalf("got %s %q with %d runs", oc.Status, oc.Msg, len(oc.Runs))
	}
	for _, r := range oc.Runs {
		if r.Ops != 2000 || r.Ns <= 0 || r.Allocs == 0 || r.CPUNs <= 0 {
			t.Fatalf("implausible run %+v", r)
		}
	}
}

func TestSelectCases_Only_MatchesWorkloadsAndCases(t *testing.T) {
	cs, err := selectCases("select1,delete_batch/text")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, ","); got != "select1/prepared,select1/unprepared,delete_batch/text" {
		t.Fatalf("got %s", got)
	}
	if _, err := selectCases("nosuch"); err == nil {
		t.Fatal("an unknown workload was accepted")
	}
}

func TestParseFlags_BadValues_AreErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-mode", "disk"}, {"-sync", "sometimes"}, {"-drivers", "postgres"}, {"-runs", "0"}, {"-scale", "-1"}, {"extra"},
	} {
		if _, err := parseFlags(args); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	o, err := parseFlags([]string{"-mode", "memory", "-drivers", "modernc,ncruces"})
	if err != nil || len(o.modes) != 1 || len(o.drivers) != 2 {
		t.Fatalf("got %+v, %v", o, err)
	}
}

func TestMedian_OddAndEven(t *testing.T) {
	if m := median([]float64{5, 1, 3}); m != 3 {
		t.Errorf("odd: %v", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("even: %v", m)
	}
	if m := median(nil); m != 0 {
		t.Errorf("empty: %v", m)
	}
}

func TestEnv_Check_FloatTolerance(t *testing.T) {
	e := &Env{}
	if err := e.Check("f", 1e6*(1+1e-12), 1e6); err != nil {
		t.Errorf("rounding noise rejected: %v", err)
	}
	if err := e.Check("f", 1e6*(1+1e-6), 1e6); !errors.Is(err, errWrong) {
		t.Errorf("a real difference passed: %v", err)
	}
	if err := e.Check("i", int64(3), int64(3)); err != nil {
		t.Errorf("equal ints: %v", err)
	}
}

// TestResults_Print_MarksWrongUnsupportedAndBest checks the rendering:
// ratios against the best correct cell, WRONG never the best, failures
// named in the cell and in the notes.
func TestResults_Print_MarksWrongUnsupportedAndBest(t *testing.T) {
	c, err := findCase("point")
	if err != nil {
		t.Fatal(err)
	}
	o := options{drivers: []string{"ladybug", "modernc", "mattn", "ncruces"}, modes: []string{"memory"}, runs: 1}
	r := newResults(o, []*Case{c})
	ok := func(ns int64) cellOutcome {
		return cellOutcome{cellResult: cellResult{Status: statusOK, Runs: []runRecord{{Ns: ns, Ops: 1000, Allocs: 12000, Bytes: 480000, CPUNs: ns / 2}}}}
	}
	r.put("point", "memory", "ladybug", cellOutcome{cellResult: cellResult{Status: statusUnsupported, Msg: "ladybug: not supported: engine.Open"}})
	r.put("point", "memory", "modernc", ok(4000_000))
	r.put("point", "memory", "mattn", ok(2000_000))
	r.put("point", "memory", "ncruces", cellOutcome{cellResult: cellResult{Status: statusWrong, Msg: "wrong answer: sum"}})
	var text, md bytes.Buffer
	r.printText(&text)
	r.printMarkdown(&md)
	for _, want := range []string{"unsupported: ladybug: not supported: engine.Open", "4.00µs ×2.00", "2.00µs ×1.00", "WRONG", "12.0 / 480 B", "1.00µs (50% of wall)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, text.String())
		}
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown output lacks %q:\n%s", want, md.String())
		}
	}
	if !strings.Contains(md.String(), "| point | memory | lookup |") {
		t.Errorf("markdown row missing:\n%s", md.String())
	}
}

// TestRunCell_Profiles_OnePairPerMeasuredRun: with profile directories set,
// each measured run (not the warm-up) leaves a CPU profile and a pair of
// allocation snapshots.
func TestRunCell_Profiles_OnePairPerMeasuredRun(t *testing.T) {
	c, err := findCase("select1/prepared")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := cellFor(t, c, "modernc", "memory")
	cfg.Runs, cfg.Warmup, cfg.CPUDir, cfg.MemDir = 2, 1, dir, dir
	if res := runCell(cfg, nil); res.Status != statusOK {
		t.Fatalf("%s %s", res.Status, res.Msg)
	}
	for _, run := range []string{"run2", "run3"} {
		for _, ext := range []string{".cpu.pprof", ".allocs.base.pprof", ".allocs.pprof"} {
			name := "modernc_select1_prepared_memory_" + run + ext
			if fi, err := os.Stat(dir + "/" + name); err != nil || fi.Size() == 0 {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	if _, err := os.Stat(dir + "/modernc_select1_prepared_memory_run1.cpu.pprof"); err == nil {
		t.Error("the warm-up run was profiled")
	}
}

func TestParseSize_Suffixes(t *testing.T) {
	for in, want := range map[string]int64{"4096": 4096, "64KiB": 64 << 10, "8MiB": 8 << 20, "1GiB": 1 << 30} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("%s: got %d, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "-1", "8MB", "x"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// TestRunCell_Budget_StopsEarlyWithRuns: a cell over its budget reports
// the runs it has instead of running on into the timeout.
func TestRunCell_Budget_StopsEarlyWithRuns(t *testing.T) {
	c, err := findCase("testonly/slow")
	if err != nil {
		t.Fatal(err)
	}
	cfg := cellFor(t, c, "modernc", "memory")
	cfg.Runs, cfg.Warmup, cfg.Budget = 5, 1, 250*time.Millisecond
	res := runCell(cfg, nil)
	if res.Status != statusOK || len(res.Runs) == 0 || len(res.Runs) >= 5 || res.Short == "" {
		t.Fatalf("got %s %q, %d runs, short %q", res.Status, res.Msg, len(res.Runs), res.Short)
	}
	cfg.Budget = 50 * time.Millisecond
	res = runCell(cfg, nil)
	if res.Status != statusOK || len(res.Runs) != 1 || res.Short != "warm-up run only" {
		t.Fatalf("got %s %q, %d runs, short %q", res.Status, res.Msg, len(res.Runs), res.Short)
	}
}
