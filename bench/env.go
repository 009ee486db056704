package main

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"
)

// errWrong marks a run whose answer failed verification.
var errWrong = errors.New("wrong answer")

// pidTag makes in-memory database names unique per process.
var pidTag = os.Getpid()

// Params size and configure a cell.
type Params struct {
	Scale  float64
	Sync   string // full, normal, off
	Mode   string // file, memory
	Driver string
	// CacheBytes, when positive, bounds every driver's page cache (cases
	// with their own bound, like big_db, keep theirs); 0 keeps each
	// engine's default.
	CacheBytes int64
	// Tiny lowers every size floor to 20, for the harness's own tests.
	Tiny bool `json:",omitempty"`
}

// scaled is n×scale, never below min (20 with Tiny): the floors keep small
// scales meaningful as measurements.
func (p Params) scaled(n int, min int) int {
	if p.Tiny {
		min = 20
	}
	v := int(math.Round(float64(n) * p.Scale))
	return max(v, min)
}

// runRecord is what one measured run produced.
type runRecord struct {
	Ns       int64  `json:"ns"`
	Ops      int    `json:"ops"`
	Allocs   uint64 `json:"allocs"`
	Bytes    uint64 `json:"bytes"`
	PeakHeap uint64 `json:"peak_heap,omitempty"`
	// CPUNs is the worker process's user+system CPU time over the
	// measured region (0 where it cannot be read).
	CPUNs    int64  `json:"cpu_ns,omitempty"`
	Errors   int    `json:"errors,omitempty"`
	FirstErr string `json:"first_err,omitempty"`
	Note     string `json:"note,omitempty"`
}

// Env is a case's view of its cell: the database, the parameters, the timer
// and the checker.
type Env struct {
	P    Params
	Case *Case
	DB   *sql.DB

	spec   driverSpec
	dir    string // the cell's temporary directory
	h      *handle
	run    int // 0 during setup, then 1..n (warm-ups included)
	rec    *runRecord
	sample bool // sample the peak heap during Measure

	cpuDir, memDir string // per-run profiles, when set

	// corruptAt, when > 0, makes the corruptAt-th Check of the cell see a
	// perturbed answer; tests use it to prove every check can fail.
	corruptAt int
	checks    int
}

// Open (re)opens the cell's database with the case's options, closing any
// previous handle first. Cases call it from Setup, or to reopen cold.
func (e *Env) Open(o openOpts) error {
	if e.h != nil {
		if err := e.h.Close(); err != nil {
			return fmt.Errorf("close: %w", err)
		}
		e.h, e.DB = nil, nil
	}
	o.mode, o.sync = e.P.Mode, e.P.Sync
	if o.cacheBytes == 0 {
		o.cacheBytes = e.P.CacheBytes
	}
	h, err := openDB(e.spec, e.dir, o)
	if err != nil {
		return err
	}
	e.h, e.DB = h, h.db
	return nil
}

// Measure times fn, which does ops operations, and records allocations,
// bytes and (for heap cases) the peak Go heap around it. Each run calls it
// exactly once.
func (e *Env) Measure(ops int, fn func() error) error {
	if e.rec != nil {
		return errors.New("bench: Measure called twice in one run")
	}
	runtime.GC()
	stopProf, err := e.startProfiles()
	if err != nil {
		return err
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak *heapSampler
	if e.sample {
		peak = startHeapSampler()
	}
	c0, t0 := processCPU(), time.Now()
	ferr := fn()
	d := time.Since(t0)
	var cpu int64
	if c1 := processCPU(); c0 >= 0 && c1 >= c0 {
		cpu = c1 - c0
	}
	var pk uint64
	if peak != nil {
		pk = peak.stop()
	}
	runtime.ReadMemStats(&after)
	if err := stopProf(); err != nil && ferr == nil {
		ferr = err
	}
	e.rec = &runRecord{Ns: d.Nanoseconds(), Ops: max(ops, 1),
		Allocs: after.Mallocs - before.Mallocs, Bytes: after.TotalAlloc - before.TotalAlloc, PeakHeap: pk, CPUNs: cpu}
	return ferr
}

// CountError records an error that a concurrent case tolerates and reports
// (busy, locked) instead of failing the run.
func (e *Env) CountError(n int, first error) {
	if e.rec == nil || n == 0 {
		return
	}
	e.rec.Errors += n
	if e.rec.FirstErr == "" && first != nil {
		e.rec.FirstErr = firstLine(first.Error())
	}
}

// Note attaches a short remark that the time cell shows after the ratio
// (for example w=N, the writer's commits beside concurrent readers).
func (e *Env) Note(s string) {
	if e.rec != nil {
		e.rec.Note = s
	}
}

// Check compares a verified quantity. Integers and strings must be equal;
// floats may differ by a relative 1e-9 (SQLite sums doubles in its own
// order). A mismatch is an errWrong error.
func (e *Env) Check(what string, got, want any) error {
	e.checks++
	if e.checks == e.corruptAt {
		got = perturb(got)
	}
	if equalAnswer(got, want) {
		return nil
	}
	g, w := fmt.Sprint(got), fmt.Sprint(want)
	if len(g)+len(w) > 200 {
		g, w = clip(g, 100), clip(w, 100)
	}
	return fmt.Errorf("%w: %s: got %s, want %s", errWrong, what, g, w)
}

func equalAnswer(got, want any) bool {
	gf, gok := got.(float64)
	wf, wok := want.(float64)
	if gok && wok {
		return math.Abs(gf-wf) <= 1e-9*math.Max(1, math.Abs(wf))
	}
	return got == want
}

// perturb returns a value that differs from v, for the corruption hook.
func perturb(v any) any {
	switch x := v.(type) {
	case int64:
		return x + 1
	case int:
		return x + 1
	case float64:
		return x*(1+1e-6) + 1
	case string:
		return x + "!"
	}
	return fmt.Sprintf("perturbed %v", v)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// firstLine is the first line of s, trimmed.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// profileBase names a run's profile file.
func (e *Env) profileBase(dir string) string {
	name := strings.ReplaceAll(e.Case.Name, "/", "_")
	return filepath.Join(dir, fmt.Sprintf("%s_%s_%s_run%d", e.P.Driver, name, e.P.Mode, e.run))
}

// startProfiles starts a CPU profile and snapshots the allocation profile
// for this run, when profiling is on; the returned func stops and writes.
// Allocation profiles come in pairs: compare with
// go tool pprof -sample_index=alloc_space -diff_base X.allocs.base.pprof X.allocs.pprof
func (e *Env) startProfiles() (func() error, error) {
	var cpuF *os.File
	if e.cpuDir != "" {
		f, err := os.Create(e.profileBase(e.cpuDir) + ".cpu.pprof")
		if err != nil {
			return nil, fmt.Errorf("cpu profile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("cpu profile: %w", err)
		}
		cpuF = f
	}
	if e.memDir != "" {
		if err := writeAllocs(e.profileBase(e.memDir) + ".allocs.base.pprof"); err != nil {
			return nil, err
		}
	}
	return func() error {
		if cpuF != nil {
			pprof.StopCPUProfile()
			if err := cpuF.Close(); err != nil {
				return fmt.Errorf("cpu profile: %w", err)
			}
		}
		if e.memDir != "" {
			return writeAllocs(e.profileBase(e.memDir) + ".allocs.pprof")
		}
		return nil
	}, nil
}

// writeAllocs writes the cumulative allocation profile after a GC, so it
// includes everything allocated so far.
func writeAllocs(path string) error {
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("alloc profile: %w", err)
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		_ = f.Close()
		return fmt.Errorf("alloc profile: %w", err)
	}
	return f.Close()
}
