package storage

import (
	"errors"
	"fmt"
	"syscall"
)

// Sentinel errors. Callers match them with errors.Is; every returned error
// wraps at most one of them with lowercase context.
var (
	// ErrBusy: the writer lock was not free within BusyTimeout (or the
	// context ended first), or another process holds the database file.
	ErrBusy = errors.New("storage: database is busy")
	// ErrCorrupt: a page or header failed its checksum or structural
	// checks. Storage never returns garbage in place of this error.
	ErrCorrupt = errors.New("storage: database disk image is malformed")
	// ErrNotADB: the file at the path is not a ladybug database (it lacks
	// ladybug's header magic, or is empty in a read-only open). Open leaves
	// such a file untouched.
	ErrNotADB = errors.New("storage: file is not a database")
	// ErrReadOnly: a write on a read transaction or a read-only store.
	ErrReadOnly = errors.New("storage: attempt to write a readonly database")
	// ErrTxClosed: use of a transaction after Commit or Rollback.
	ErrTxClosed = errors.New("storage: transaction already closed")
	// ErrFull: the database reached its page limit (2^32-1 pages), or the
	// file system reported that the disk is full (ENOSPC).
	ErrFull = errors.New("storage: database or disk is full")
	// ErrKeyTooLarge: a key longer than MaxKeySize for the page size.
	ErrKeyTooLarge = errors.New("storage: key too large")
	// ErrClosed: use of a Store after Close.
	ErrClosed = errors.New("storage: database is closed")
	// ErrTxFailed: an earlier error left this write transaction unusable;
	// roll it back.
	ErrTxFailed = errors.New("storage: transaction failed earlier and must be rolled back")
	// ErrInvalid: an argument out of range (a meta slot, a page size, a
	// tree root that is not a tree).
	ErrInvalid = errors.New("storage: invalid argument")
)

// ioErr marks a full disk as ErrFull while keeping the cause.
func ioErr(err error) error {
	if errors.Is(err, syscall.ENOSPC) && !errors.Is(err, ErrFull) {
		return fmt.Errorf("%w: %w", ErrFull, err)
	}
	return err
}

// guard turns a runtime panic into ErrCorrupt. Pages are validated when
// read and every edit keeps them valid, so a panic means a damaged page
// got past validation; the caller gets an error, never a crash, and a
// write transaction is marked failed (its pages may be half edited).
func (tx *Tx) guard(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%w: damaged page (%v)", ErrCorrupt, r)
		if tx.rw {
			tx.fail(*err)
		}
	}
}
