//go:build linux || darwin

package vfs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"syscall"
)

type lockArg = syscall.Flock_t

// lockOp runs one record-lock command on the byte at off and returns the
// lock type the kernel left in the argument (F_GETLK: the conflicting
// lock's, or F_UNLCK).
func (o *osFile) lockOp(cmd int, off int64, typ int16) (int16, error) {
	o.lkMu.Lock()
	defer o.lkMu.Unlock()
	for {
		o.lk = syscall.Flock_t{Type: typ, Whence: io.SeekStart, Start: off, Len: 1}
		err := syscall.FcntlFlock(o.f.Fd(), cmd, &o.lk)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		return o.lk.Type, err
	}
}

// TryLockByte takes a record lock on the byte at off without waiting.
func (o *osFile) TryLockByte(off int64, exclusive bool) (bool, error) {
	typ := int16(syscall.F_RDLCK)
	if exclusive {
		typ = syscall.F_WRLCK
	}
	_, err := o.lockOp(fSetLk, off, typ)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EACCES):
		return false, nil
	default:
		return false, fmt.Errorf("vfs: lock %s: %w", o.f.Name(), err)
	}
}

// UnlockByte releases the record lock on the byte at off.
func (o *osFile) UnlockByte(off int64) error {
	if _, err := o.lockOp(fSetLk, off, syscall.F_UNLCK); err != nil {
		return fmt.Errorf("vfs: unlock %s: %w", o.f.Name(), err)
	}
	return nil
}

// ByteHeld reports whether another handle holds a lock on the byte at off.
func (o *osFile) ByteHeld(off int64) (bool, error) {
	typ, err := o.lockOp(fGetLk, off, syscall.F_WRLCK)
	if err != nil {
		return false, fmt.Errorf("vfs: test lock %s: %w", o.f.Name(), err)
	}
	return typ != syscall.F_UNLCK, nil
}

type sharedFile struct {
	*osFile
	mem []byte
}

// OpenShared opens or creates the shared index file name, read-write.
func (osFS) OpenShared(name string) (Shared, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	return &sharedFile{osFile: &osFile{f: f}}, nil
}

func (s *sharedFile) Mem() []byte { return s.mem }

func (s *sharedFile) Map(size int) error {
	mem, err := syscall.Mmap(int(s.f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return fmt.Errorf("vfs: mmap %s: %w", s.f.Name(), err)
	}
	s.mem = mem
	return nil
}

// Close releases every lock of the handle and closes the file. The
// mapping stays valid (a transaction left open after its store closed may
// still touch it) and is unmapped once the handle is unreachable; the
// locks are released explicitly because the mapping keeps the open file
// (and so its locks) alive.
func (s *sharedFile) Close() error {
	lk := &syscall.Flock_t{Type: syscall.F_UNLCK, Whence: io.SeekStart}
	for {
		err := syscall.FcntlFlock(s.f.Fd(), fSetLk, lk)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if s.mem != nil {
		runtime.AddCleanup(s, func(mem []byte) { syscall.Munmap(mem) }, s.mem)
	}
	return s.osFile.Close()
}
