package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// linePrefix marks the worker's protocol lines on its stdout, so stray
// output from a driver cannot be mistaken for a result.
const linePrefix = "BENCH\t"

// workerLine is one protocol line: a measured run, or the final result.
type workerLine struct {
	Run    *runRecord  `json:"run,omitempty"`
	Result *cellResult `json:"result,omitempty"`
	MaxRSS uint64      `json:"max_rss,omitempty"`
}

// workerMain runs one cell described by cfgJSON and writes protocol lines.
func workerMain(cfgJSON string) int {
	var cfg cellConfig
	if err := json.Unmarshal([]byte(cfgJSON), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bench worker:", err)
		return 2
	}
	enc := json.NewEncoder(os.Stdout)
	write := func(l workerLine) {
		fmt.Fprint(os.Stdout, linePrefix)
		_ = enc.Encode(l)
	}
	res := runCell(cfg, func(r runRecord) { write(workerLine{Run: &r}) })
	write(workerLine{Result: &res, MaxRSS: maxRSS()})
	return 0
}

// maxRSS is this process's peak resident set in bytes (Linux), or 0.
func maxRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}

// cellOutcome is a cell as the parent saw it.
type cellOutcome struct {
	cellResult
	MaxRSS uint64
}

// runWorker runs a cell in a child process of binary bin, killing it after
// timeout or when parent is done. A crash or a timeout becomes a cell status, never an error.
func runWorker(parent context.Context, bin string, cfg cellConfig, timeout time.Duration) cellOutcome {
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return cellOutcome{cellResult: failed(err)}
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-worker", string(cfgJSON))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return cellOutcome{cellResult: failed(err)}
	}
	if err := cmd.Start(); err != nil {
		return cellOutcome{cellResult: failed(fmt.Errorf("start worker: %w", err))}
	}
	var oc cellOutcome
	var runs []runRecord
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		body, ok := strings.CutPrefix(sc.Text(), linePrefix)
		if !ok {
			continue
		}
		var l workerLine
		if json.Unmarshal([]byte(body), &l) != nil {
			continue
		}
		if l.Run != nil {
			runs = append(runs, *l.Run)
		}
		if l.Result != nil {
			oc.cellResult, oc.MaxRSS = *l.Result, l.MaxRSS
		}
	}
	werr := cmd.Wait()
	switch {
	case oc.Status != "":
		return oc
	case parent.Err() != nil:
		return cellOutcome{cellResult: cellResult{Status: statusUnsupported, Msg: "interrupted"}}
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return cellOutcome{cellResult: cellResult{Status: statusTimeout,
			Msg: fmt.Sprintf("timeout after %v (%d of %d runs done)", timeout, len(runs), cfg.Runs), Runs: runs}}
	default:
		return cellOutcome{cellResult: cellResult{Status: statusUnsupported, Msg: "crash: " + crashLine(stderr.String(), werr)}}
	}
}

// crashLine picks the most telling line of a dead worker's stderr.
func crashLine(stderr string, err error) string {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "panic:") || strings.HasPrefix(line, "fatal error:") {
			return strings.TrimSpace(line)
		}
	}
	if l := firstLine(stderr); l != "" {
		return l
	}
	if err != nil {
		return err.Error()
	}
	return "worker exited without a result"
}
