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

// Unlinker is implemented by files that can tell whether their last name
// was removed while they were open (the OS on Unix): writes to such a file
// reach no one who opens the path afterwards, as SQLite's
// SQLITE_READONLY_DBMOVED guards against.
type Unlinker interface {
	Unlinked() (bool, error)
}

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

// ByteLocker takes advisory locks on single bytes of a file (POSIX
// record locks), which the kernel releases when the holder's file is
// closed or its process dies. Locks are held per open file handle, so two
// handles in one process exclude each other as two processes do.
type ByteLocker interface {
	// TryLockByte locks the byte at off without waiting (exclusive, or
	// shared), converting a lock this handle already holds there; it
	// reports false when another handle holds a conflicting lock.
	TryLockByte(off int64, exclusive bool) (bool, error)
	// UnlockByte releases this handle's lock on the byte at off.
	UnlockByte(off int64) error
	// ByteHeld reports whether another handle holds a lock on the byte at
	// off that would conflict with an exclusive lock.
	ByteHeld(off int64) (bool, error)
}

// Shared is a small file that several processes map into memory (the
// database's -shm index): Mem is the mapping, shared with every other
// process that opened the same file, and the file's bytes can be locked.
type Shared interface {
	ByteLocker
	Mem() []byte
	// Truncate sets the file's size (done by the first opener, before any
	// process uses Mem).
	Truncate(size int64) error
	// Map maps the first size bytes into Mem (after Truncate).
	Map(size int) error
	Close() error
}

// SharedFS is implemented by file systems that support many processes on
// one database (the OS on Linux and macOS): OpenShared opens (creating it
// when missing) the shared index file name.
type SharedFS interface {
	OpenShared(name string) (Shared, error)
}
