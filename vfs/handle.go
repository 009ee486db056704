package vfs

import (
	"fmt"
	"io/fs"
	"sync"
)

// fileTable is a memory file system's names: each maps to the node shared
// by every handle open on it.
type fileTable[N any] struct {
	mu    sync.Mutex
	files map[string]N // guarded by mu
}

// lookup returns name's node, or an fs.ErrNotExist error for op.
func (t *fileTable[N]) lookup(op, name string) (N, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n, ok := t.files[name]
	if !ok {
		return n, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return n, nil
}

// lookupOrAdd returns name's node, adding a new one when missing.
func (t *fileTable[N]) lookupOrAdd(name string, mk func() N) N {
	t.mu.Lock()
	defer t.mu.Unlock()
	n, ok := t.files[name]
	if !ok {
		n = mk()
		t.files[name] = n
	}
	return n
}

func (t *fileTable[N]) remove(name string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.files[name]; !ok {
		return &fs.PathError{Op: "remove", Path: name, Err: fs.ErrNotExist}
	}
	delete(t.files, name)
	return nil
}

// lockState is the advisory lock bookkeeping of a memory file shared by
// several handles; its owner's mutex guards it.
type lockState struct {
	shared int  // handles holding a shared lock
	excl   bool // a handle holds the exclusive lock
}

// handle is what every open memory file handle keeps: its name, mode,
// whether it is closed and which lock it holds.
type handle struct {
	name     string
	readOnly bool
	mu       sync.Mutex
	closed   bool // guarded by mu
	lock     int  // 0 none, 1 shared, 2 exclusive; guarded by mu
}

func (h *handle) check() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	return nil
}

// lockIn takes the handle's lock on a file whose lock state nmu guards.
func (h *handle) lockIn(nmu sync.Locker, l *lockState, exclusive bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	if h.lock != 0 {
		return nil
	}
	nmu.Lock()
	defer nmu.Unlock()
	if l.excl || (exclusive && l.shared > 0) {
		return fmt.Errorf("%s: %w", h.name, ErrLocked)
	}
	if exclusive {
		l.excl = true
		h.lock = 2
	} else {
		l.shared++
		h.lock = 1
	}
	return nil
}

// closeIn closes the handle, releasing its lock.
func (h *handle) closeIn(nmu sync.Locker, l *lockState) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	h.closed = true
	nmu.Lock()
	defer nmu.Unlock()
	switch h.lock {
	case 1:
		l.shared--
	case 2:
		l.excl = false
	}
	h.lock = 0
	return nil
}

// checkRead checks a read at off.
func (h *handle) checkRead(off int64) error {
	if err := h.check(); err != nil {
		return err
	}
	if off < 0 {
		return fmt.Errorf("vfs: read %s: negative offset", h.name)
	}
	return nil
}

// checkWrite checks a write (op) whose offset or size (what) is v.
func (h *handle) checkWrite(op, what string, v int64) error {
	if err := h.check(); err != nil {
		return err
	}
	if h.readOnly {
		return fmt.Errorf("vfs: %s %s: %w", op, h.name, fs.ErrPermission)
	}
	if v < 0 {
		return fmt.Errorf("vfs: %s %s: negative %s", op, h.name, what)
	}
	return nil
}
