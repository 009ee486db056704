package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"time"
)

// Cell statuses.
const (
	statusOK          = "ok"
	statusWrong       = "wrong"
	statusUnsupported = "unsupported"
	statusTimeout     = "timeout"
	statusNA          = "n/a"
)

// cellConfig says which cell to run and how.
type cellConfig struct {
	Case    string `json:"case"`
	P       Params `json:"params"`
	Runs    int    `json:"runs"`
	Warmup  int    `json:"warmup"`
	TmpDir  string `json:"tmp"`
	CPUDir  string `json:"cpu_dir,omitempty"`
	MemDir  string `json:"mem_dir,omitempty"`
	Corrupt int    `json:"corrupt,omitempty"` // test hook: perturb the Nth Check
	// Budget, when positive, is how long the cell may take before it stops
	// early with the runs it has, so a slow engine reports a time instead
	// of running into the parent's timeout.
	Budget time.Duration `json:"budget,omitempty"`
}

// cellResult is a finished cell.
type cellResult struct {
	Status string      `json:"status"`
	Msg    string      `json:"msg,omitempty"`
	Runs   []runRecord `json:"runs,omitempty"`
	Checks int         `json:"checks,omitempty"` // Check calls made, for tests
	Short  string      `json:"short,omitempty"`  // set when the budget cut the runs short
}

// runCell runs one cell in this process: setup once, then warm-up and
// measured runs, reporting each measured run through emit as it finishes.
// It never panics: a panic inside a case becomes an unsupported cell.
func runCell(cfg cellConfig, emit func(runRecord)) (res cellResult) {
	start := time.Now() // the budget covers setup too
	var e *Env
	defer func() {
		if r := recover(); r != nil {
			res = cellResult{Status: statusUnsupported, Msg: fmt.Sprintf("panic: %v", r)}
			if os.Getenv("BENCH_TRACE") != "" {
				fmt.Fprintf(os.Stderr, "%s\n", debug.Stack())
			}
		}
		if e != nil {
			res.Checks = e.checks
		}
	}()
	c, err := findCase(cfg.Case)
	if err != nil {
		return failed(err)
	}
	spec, ok := specs[cfg.P.Driver]
	if !ok {
		return failed(fmt.Errorf("unknown driver %q", cfg.P.Driver))
	}
	if c.FileOnly && cfg.P.Mode != "file" {
		return cellResult{Status: statusNA, Msg: "file mode only"}
	}
	dir, err := os.MkdirTemp(cfg.TmpDir, "cell-*")
	if err != nil {
		return failed(err)
	}
	defer os.RemoveAll(dir)
	e = &Env{P: cfg.P, Case: c, spec: spec, dir: dir, sample: c.Heap, corruptAt: cfg.Corrupt}
	defer func() {
		if e.h != nil {
			_ = e.h.Close()
		}
	}()
	return runPhases(cfg, c, e, emit, start)
}

// runPhases opens the database, runs the setup, then the runs.
func runPhases(cfg cellConfig, c *Case, e *Env, emit func(runRecord), start time.Time) cellResult {
	var o openOpts
	if c.Opts != nil {
		o = c.Opts(cfg.P)
	}
	if err := e.Open(o); err != nil {
		return failed(err)
	}
	if c.Setup != nil {
		if err := c.Setup(e); err != nil {
			return failed(fmt.Errorf("setup: %w", err))
		}
	}
	return runLoop(cfg, c, e, emit, start)
}

// runLoop runs the warm-ups and the measured runs, stopping early when one
// more run would break the budget.
func runLoop(cfg cellConfig, c *Case, e *Env, emit func(runRecord), start time.Time) cellResult {
	var res cellResult
	total := cfg.Warmup + cfg.Runs
	for i := 1; i <= total; i++ {
		e.run, e.rec = i, nil
		measured := i > cfg.Warmup
		e.cpuDir, e.memDir = "", ""
		if measured {
			e.cpuDir, e.memDir = cfg.CPUDir, cfg.MemDir
		}
		t0 := time.Now()
		if err := c.Run(e); err != nil {
			return failed(err)
		}
		if e.rec == nil {
			return failed(errors.New("bench: case did not call Measure"))
		}
		// Would one more run of this length break the budget?
		over := cfg.Budget > 0 && time.Since(start)+time.Since(t0) > cfg.Budget
		if !measured && over && len(res.Runs) == 0 {
			measured = true // no time for a measured run: keep the warm-up's
			res.Short = "warm-up run only"
		}
		if measured {
			res.Runs = append(res.Runs, *e.rec)
			if emit != nil {
				emit(*e.rec)
			}
		}
		if over && len(res.Runs) > 0 && i < total {
			if res.Short == "" {
				res.Short = fmt.Sprintf("%d of %d runs", len(res.Runs), cfg.Runs)
			}
			break
		}
	}
	res.Status = statusOK
	return res
}

// failed classifies an error: a wrong answer or anything else.
func failed(err error) cellResult {
	if errors.Is(err, errWrong) {
		return cellResult{Status: statusWrong, Msg: firstLine(err.Error())}
	}
	return cellResult{Status: statusUnsupported, Msg: firstLine(err.Error())}
}
