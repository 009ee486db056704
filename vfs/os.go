package vfs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// OS returns the operating system's file system.
func OS() FS { return osFS{} }

type osFS struct{}

func (osFS) Open(name string, readOnly bool) (File, error) {
	flag := os.O_RDWR
	if readOnly {
		flag = os.O_RDONLY
	}
	f, err := os.OpenFile(name, flag, 0)
	if err != nil {
		return nil, err
	}
	return &osFile{f: f}, nil
}

func (osFS) Create(name string) (File, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	return &osFile{f: f}, nil
}

func (osFS) Remove(name string) error { return os.Remove(name) }

func (osFS) Stat(name string) (int64, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

type osFile struct {
	f *os.File
}

func (o *osFile) ReadAt(p []byte, off int64) (int, error)  { return o.f.ReadAt(p, off) }
func (o *osFile) WriteAt(p []byte, off int64) (int, error) { return o.f.WriteAt(p, off) }
func (o *osFile) Truncate(size int64) error                { return o.f.Truncate(size) }
func (o *osFile) Close() error                             { return o.f.Close() }

// Sync uses fdatasync: it flushes the data and whatever metadata reading
// it back needs (the size), but not timestamps, which saves a journal
// commit per call on a file overwritten in place, such as a reused log.
func (o *osFile) Sync() error {
	for {
		err := syscall.Fdatasync(int(o.f.Fd()))
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EINVAL), errors.Is(err, syscall.ENOSYS):
			return o.f.Sync() // a file system without fdatasync
		default:
			return fmt.Errorf("vfs: sync %s: %w", o.f.Name(), err)
		}
	}
}

func (o *osFile) Size() (int64, error) {
	fi, err := o.f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// Lock uses flock(2), which the kernel releases when the process dies, so a
// killed writer never leaves a stale lock behind.
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

// SyncDir fsyncs the directory holding name, so a file just created there
// survives a power loss.
func (osFS) SyncDir(name string) error {
	d, err := os.Open(filepath.Dir(name))
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("vfs: sync directory of %s: %w", name, err)
	}
	return nil
}
