package vfs

import (
	"errors"
	"fmt"
	"syscall"
)

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
