package vfs

import (
	"errors"
	"fmt"
	"syscall"
	"unsafe"
)

var (
	kernel32       = syscall.NewLazyDLL("kernel32.dll")
	procLockFileEx = kernel32.NewProc("LockFileEx")
)

const (
	lockfileFailImmediately = 0x1
	lockfileExclusiveLock   = 0x2
	errLockViolation        = syscall.Errno(33)
	// lockOffset is where the lock byte lives: far past any data, since
	// Windows locks are mandatory and would otherwise block reads.
	lockOffset = 1 << 62
)

// Lock takes a LockFileEx lock on one byte far past the data. Windows has
// no shared-memory index here, so the database is used by one process at
// a time: a second process gets ErrLocked (ErrBusy at open), which says so.
func (o *osFile) Lock(exclusive bool) error {
	flags := uint32(lockfileFailImmediately)
	if exclusive {
		flags |= lockfileExclusiveLock
	}
	ov := new(syscall.Overlapped)
	ov.Offset = uint32(lockOffset & 0xffffffff)
	ov.OffsetHigh = uint32(lockOffset >> 32)
	r, _, err := procLockFileEx.Call(o.f.Fd(), uintptr(flags), 0, 1, 0, uintptr(unsafe.Pointer(ov)))
	if r != 0 {
		return nil
	}
	if errors.Is(err, errLockViolation) {
		return fmt.Errorf("%s: %w (on Windows one process at a time uses a database)", o.f.Name(), ErrLocked)
	}
	return fmt.Errorf("vfs: lock %s: %w", o.f.Name(), err)
}
