//go:build unix

package vfs

import (
	"errors"
	"fmt"
	"syscall"
)

// Lock uses flock(2), which the kernel releases when the process dies, so a
// killed process never leaves a stale lock behind.
func (o *osFile) Lock(exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(o.f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return fmt.Errorf("%s: %w", o.f.Name(), ErrLocked)
		default:
			return fmt.Errorf("vfs: flock %s: %w", o.f.Name(), err)
		}
	}
}

// Unlinked reports whether the file has no name left (fstat's link count
// is 0): removed, perhaps with another file created under its name.
func (o *osFile) Unlinked() (bool, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(int(o.f.Fd()), &st)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("vfs: fstat %s: %w", o.f.Name(), err)
		}
		return st.Nlink == 0, nil
	}
}
