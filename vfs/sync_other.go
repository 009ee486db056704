//go:build !linux

package vfs

// Sync flushes the file with fsync (FlushFileBuffers on Windows).
func (o *osFile) Sync() error { return o.f.Sync() }
