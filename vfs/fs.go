package vfs

import (
	"errors"
	"io"
)

// FS opens, creates, removes and stats files by name.
type FS interface {
	// Open opens an existing file for reading and, unless readOnly, writing.
	// A missing file gives an error matching fs.ErrNotExist.
	Open(name string, readOnly bool) (File, error)
	// Create opens a file read-write, creating it empty if it does not exist
	// (an existing file keeps its contents).
	Create(name string) (File, error)
	// Remove deletes a file; a missing file gives an error matching
	// fs.ErrNotExist.
	Remove(name string) error
	// Stat returns the size of a file; a missing file gives an error
	// matching fs.ErrNotExist.
	Stat(name string) (size int64, err error)
}

// File is an open file. Offsets are absolute; there is no file position.
type File interface {
	io.ReaderAt
	io.WriterAt
	// Sync makes everything written so far durable.
	Sync() error
	// Truncate sets the file's size, cutting or zero-extending it.
	Truncate(size int64) error
	// Size returns the file's current size.
	Size() (int64, error)
	// Lock takes an advisory lock on the file without waiting: exclusive
	// for a writer, shared for a reader. It returns ErrLocked when another
	// handle (in this or another process) holds a conflicting lock. The
	// lock is released by Close.
	Lock(exclusive bool) error
	// Close releases the file and its lock.
	Close() error
}

// ErrLocked is returned by File.Lock when another handle holds a
// conflicting lock.
var ErrLocked = errors.New("vfs: file is locked by another process or handle")

// ErrClosed is returned by operations on a closed File.
var ErrClosed = errors.New("vfs: file already closed")

// DirSyncer is implemented by file systems whose directory entries need
// their own sync to survive a power loss (the OS). SyncDir makes the
// creation or removal of name durable.
type DirSyncer interface {
	SyncDir(name string) error
}

// SharedReader is implemented by files that can hand out some of their
// bytes without a copy (a CowFS file's frozen chunks). ReadShared returns
// the n bytes at off, which nobody will ever modify, or nil when it cannot
// (the caller then reads a copy with ReadAt). The caller must not modify
// them.
type SharedReader interface {
	ReadShared(off int64, n int) []byte
}
