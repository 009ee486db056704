package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// benchModule is this module's path, used to find its source directory.
const benchModule = "github.com/ladybugsql/ladybug/bench"

// binaries hands out the worker binary for a driver: this executable for
// the drivers it links, and for the others a copy of the harness built
// with the driver's flavor tag, once per run, into the run's temp dir.
type binaries struct {
	tmp   string
	built map[string]builtBinary
}

type builtBinary struct {
	path string
	err  error
}

func newBinaries(tmp string) *binaries {
	return &binaries{tmp: tmp, built: map[string]builtBinary{}}
}

func (b *binaries) forSpec(s driverSpec) (string, error) {
	if s.linkedHere() {
		return os.Executable()
	}
	bb, ok := b.built[s.flavor]
	if !ok {
		bb.path, bb.err = b.build(s.flavor)
		b.built[s.flavor] = bb
	}
	return bb.path, bb.err
}

// build compiles the harness with -tags flavor. A build that fails (say,
// the root package does not compile at the moment) fails only the cells
// of that flavor's driver.
func (b *binaries) build(flavor string) (string, error) {
	dir, err := moduleDir()
	if err != nil {
		return "", fmt.Errorf("build %s worker: %w", flavor, err)
	}
	out := filepath.Join(b.tmp, "bench-"+flavor)
	cmd := exec.Command("go", "build", "-tags", flavor, "-o", out, ".")
	cmd.Dir = dir
	if flavor == "mattn" {
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	}
	fmt.Fprintf(os.Stderr, "building the %s worker…\n", flavor)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build %s worker: %v: %s", flavor, err, buildError(string(msg)))
	}
	return out, nil
}

// buildError is the first line of go build's output that says something:
// the "# package" headers are skipped.
func buildError(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			return line
		}
	}
	return firstLine(out)
}

// moduleDir finds this module's source directory from the working
// directory upwards.
func moduleDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if isBenchModule(filepath.Join(dir, "go.mod")) {
			return dir, nil
		}
		if sub := filepath.Join(dir, "bench", "go.mod"); isBenchModule(sub) {
			return filepath.Dir(sub), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("cannot find the bench module's source; run from bench/")
		}
		dir = parent
	}
}

func isBenchModule(goMod string) bool {
	f, err := os.Open(goMod)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.TrimSpace(rest) == benchModule
		}
	}
	return false
}
