package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"
)

// options are the command-line flags.
type options struct {
	scale    float64
	runs     int
	warmup   int
	only     string
	drivers  []string
	modes    []string
	sync     string
	timeout  time.Duration
	cpuDir   string
	memDir   string
	markdown bool
	mdFile   string
	cache    int64
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "-worker" {
		os.Exit(workerMain(os.Args[2]))
	}
	if len(os.Args) == 3 && os.Args[1] == "-mpworker" {
		os.Exit(mpWorkerMain(os.Args[2]))
	}
	if len(os.Args) >= 2 && os.Args[1] == "-multiproc" {
		if err := multiprocMain(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (options, error) {
	var o options
	var drivers, mode, cache string
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.Float64Var(&o.scale, "scale", 1, "workload size factor (1 = the sizes in the workload docs)")
	fs.IntVar(&o.runs, "runs", 5, "measured runs per cell; the table shows medians")
	fs.IntVar(&o.warmup, "warmup", 1, "discarded runs per cell before the measured ones")
	fs.StringVar(&o.only, "only", "", "comma-separated workloads or cases (e.g. point,delete_batch/spread)")
	fs.StringVar(&drivers, "drivers", strings.Join(driverNames, ","), "comma-separated drivers")
	fs.StringVar(&mode, "mode", "both", "file, memory or both")
	fs.StringVar(&o.sync, "sync", "normal", "durability for every driver: full, normal or off")
	fs.DurationVar(&o.timeout, "timeout", 60*time.Second, "time limit per cell, setup included; past 3/4 of it a cell stops with the runs it has")
	fs.StringVar(&o.cpuDir, "cpuprofile", "", "directory for per-run CPU profiles of ladybug")
	fs.StringVar(&o.memDir, "memprofile", "", "directory for per-run allocation profiles of ladybug")
	fs.StringVar(&cache, "cache", "", "page cache for every driver, e.g. 32MiB (default: each engine's own)")
	fs.BoolVar(&o.markdown, "markdown", false, "print the tables as Markdown for BENCHMARKS.md")
	fs.StringVar(&o.mdFile, "mdfile", "", "also write the Markdown tables to this file")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if cache != "" {
		n, err := parseSize(cache)
		if err != nil {
			return o, fmt.Errorf("-cache: %w", err)
		}
		o.cache = n
	}
	return o, o.validate(drivers, mode)
}

func (o *options) validate(drivers, mode string) error {
	if o.scale <= 0 || o.runs < 1 || o.warmup < 0 || o.timeout <= 0 {
		return errors.New("-scale and -timeout must be positive, -runs at least 1, -warmup not negative")
	}
	if !slices.Contains([]string{"full", "normal", "off"}, o.sync) {
		return fmt.Errorf("-sync %q: want full, normal or off", o.sync)
	}
	switch mode {
	case "both":
		o.modes = []string{"file", "memory"}
	case "file", "memory":
		o.modes = []string{mode}
	default:
		return fmt.Errorf("-mode %q: want file, memory or both", mode)
	}
	for _, d := range strings.Split(drivers, ",") {
		d = strings.TrimSpace(d)
		if _, ok := specs[d]; !ok {
			return fmt.Errorf("-drivers: unknown driver %q (have %s)", d, strings.Join(driverNames, ", "))
		}
		o.drivers = append(o.drivers, d)
	}
	if _, err := selectCases(o.only); err != nil {
		return err
	}
	for _, dir := range []string{o.cpuDir, o.memDir} {
		if dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
	}
	return nil
}

// run executes every selected cell in a child process and prints the
// tables.
func run(o options) error {
	cases, err := selectCases(o.only)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "ladybug-bench-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// An interrupt stops launching cells and prints what has run, so the
	// temp dir is still removed and finished cells are not lost.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res := runAll(ctx, o, cases, tmp)
	if o.markdown {
		res.printMarkdown(os.Stdout)
	} else {
		res.printText(os.Stdout)
	}
	if o.mdFile != "" {
		var b strings.Builder
		res.printMarkdown(&b)
		return os.WriteFile(o.mdFile, []byte(b.String()), 0o644)
	}
	return nil
}

// runAll runs the cells case by case, the drivers of a row back to back so
// machine drift hits them alike.
func runAll(ctx context.Context, o options, cases []*Case, tmp string) *results {
	bins := newBinaries(tmp)
	res := newResults(o, cases)
	total, done := len(cases)*len(o.modes)*len(o.drivers), 0
	for _, c := range cases {
		for _, mode := range o.modes {
			for _, d := range o.drivers {
				if ctx.Err() != nil {
					res.interrupted = true
					res.elapsed = time.Since(res.started)
					return res
				}
				done++
				oc := runOne(ctx, o, bins, tmp, c, mode, d)
				res.put(c.Name, mode, d, oc)
				fmt.Fprintf(os.Stderr, "[%d/%d] %-26s %-6s %-8s %s\n", done, total, c.Name, mode, d, res.progressText(c, mode, d))
			}
		}
	}
	res.elapsed = time.Since(res.started)
	return res
}

// runOne runs one cell through the right binary.
func runOne(ctx context.Context, o options, bins *binaries, tmp string, c *Case, mode, driver string) cellOutcome {
	if c.FileOnly && mode != "file" {
		return cellOutcome{cellResult: cellResult{Status: statusNA, Msg: "file mode only"}}
	}
	bin, err := bins.forSpec(specs[driver])
	if err != nil {
		return cellOutcome{cellResult: failed(err)}
	}
	cfg := cellConfig{Case: c.Name, Runs: o.runs, Warmup: o.warmup, TmpDir: tmp, Budget: o.timeout * 3 / 4,
		P: Params{Scale: o.scale, Sync: o.sync, Mode: mode, Driver: driver, CacheBytes: o.cache}}
	if driver == "ladybug" {
		cfg.CPUDir, cfg.MemDir = o.cpuDir, o.memDir
	}
	return runWorker(ctx, bin, cfg, o.timeout)
}
