package vfs

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall"
)

// Op names the file operation a Fault applies to.
type Op int

// Operations a fault can target.
const (
	OpWrite Op = iota + 1
	OpSync
	OpTruncate
)

// ErrInjected is the error a Fault returns when it sets no Err of its own.
var ErrInjected = errors.New("vfs: injected fault")

// ErrNoSpace is syscall.ENOSPC, for faults that simulate a full disk.
var ErrNoSpace error = syscall.ENOSPC

// Fault describes one injected failure.
type Fault struct {
	Op    Op
	After int   // let this many matching operations succeed first
	Err   error // returned error; nil means ErrInjected
	// Short makes a failing write store the first half of its bytes before
	// it returns the error (a short write).
	Short bool
	// Sticky keeps failing every later matching operation too (a disk that
	// stays full) until Clear.
	Sticky bool
	// Name, when set, restricts the fault to files whose name ends with it.
	Name string
}

// FaultFS wraps another FS and fails operations on command.
type FaultFS struct {
	base FS

	mu     sync.Mutex
	faults []*armed // guarded by mu
	counts [4]int   // operations seen per Op; guarded by mu
}

type armed struct {
	Fault
	seen  int
	fired bool
}

// NewFaultFS wraps base.
func NewFaultFS(base FS) *FaultFS { return &FaultFS{base: base} }

// Inject arms a fault.
func (f *FaultFS) Inject(ft Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = append(f.faults, &armed{Fault: ft})
}

// Clear disarms every fault.
func (f *FaultFS) Clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = nil
}

// Count returns how many operations of kind op were attempted so far.
func (f *FaultFS) Count(op Op) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.counts[op]
}

// Fired reports whether any armed fault has fired.
func (f *FaultFS) Fired() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, a := range f.faults {
		if a.fired {
			return true
		}
	}
	return false
}

// check returns the fault to apply to this operation, if any.
func (f *FaultFS) check(op Op, name string) *Fault {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.counts[op]++
	for _, a := range f.faults {
		if a.Op != op || (a.Name != "" && !hasSuffix(name, a.Name)) {
			continue
		}
		if a.fired && !a.Sticky {
			continue
		}
		if a.seen < a.After {
			a.seen++
			continue
		}
		a.fired = true
		ft := a.Fault
		return &ft
	}
	return nil
}

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

func (ft *Fault) err(name string, op string) error {
	e := ft.Err
	if e == nil {
		e = ErrInjected
	}
	return fmt.Errorf("vfs: %s %s: %w", op, name, e)
}

// Open implements FS.
func (f *FaultFS) Open(name string, readOnly bool) (File, error) {
	file, err := f.base.Open(name, readOnly)
	if err != nil {
		return nil, err
	}
	return &faultFile{File: file, fs: f, name: name}, nil
}

// Create implements FS.
func (f *FaultFS) Create(name string) (File, error) {
	file, err := f.base.Create(name)
	if err != nil {
		return nil, err
	}
	return &faultFile{File: file, fs: f, name: name}, nil
}

// Remove implements FS.
func (f *FaultFS) Remove(name string) error { return f.base.Remove(name) }

// Stat implements FS.
func (f *FaultFS) Stat(name string) (int64, error) { return f.base.Stat(name) }

type faultFile struct {
	File
	fs   *FaultFS
	name string
}

func (ff *faultFile) WriteAt(p []byte, off int64) (int, error) {
	ft := ff.fs.check(OpWrite, ff.name)
	if ft == nil {
		return ff.File.WriteAt(p, off)
	}
	if ft.Short && len(p) > 1 {
		n, err := ff.File.WriteAt(p[:len(p)/2], off)
		if err != nil {
			return n, err
		}
		if ft.Err == nil {
			return n, fmt.Errorf("vfs: write %s: %w", ff.name, io.ErrShortWrite)
		}
		return n, ft.err(ff.name, "write")
	}
	return 0, ft.err(ff.name, "write")
}

func (ff *faultFile) Sync() error {
	if ft := ff.fs.check(OpSync, ff.name); ft != nil {
		return ft.err(ff.name, "sync")
	}
	return ff.File.Sync()
}

func (ff *faultFile) Truncate(size int64) error {
	if ft := ff.fs.check(OpTruncate, ff.name); ft != nil {
		return ft.err(ff.name, "truncate")
	}
	return ff.File.Truncate(size)
}
