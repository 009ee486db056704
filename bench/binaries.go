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
// the drivers it links, and a copy built with -tags mattn for mattn.
type binaries struct {
	tmp      string
	mattn    string
	mattnErr error
	built    bool
}

func newBinaries(tmp string) *binaries { return &binaries{tmp: tmp} }

func (b *binaries) forSpec(s driverSpec) (string, error) {
	if s.linkedHere() {
		return os.Executable()
	}
	if s.flavor != "mattn" {
		return "", fmt.Errorf("driver %s is not linked into any worker", s.name)
	}
	if !b.built {
		b.built = true
		b.mattn, b.mattnErr = b.buildMattn()
	}
	return b.mattn, b.mattnErr
}

// buildMattn builds the mattn flavor of this harness into the temp dir.
func (b *binaries) buildMattn() (string, error) {
	dir, err := moduleDir()
	if err != nil {
		return "", fmt.Errorf("build mattn worker: %w", err)
	}
	tags := "mattn"
	if !ladybugLinked {
		tags += ",noladybug"
	}
	out := filepath.Join(b.tmp, "bench-mattn")
	cmd := exec.Command("go", "build", "-tags", tags, "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	fmt.Fprintln(os.Stderr, "building the mattn worker (cgo; the first build takes a minute)…")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build mattn worker: %v: %s", err, firstLine(string(msg)))
	}
	return out, nil
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
