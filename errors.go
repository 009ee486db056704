package ladybug

import (
	"runtime/debug"

	"github.com/ladybugsql/ladybug/engine/errs"
)

// Error is the error every ladybug call returns: SQLite's primary result
// code in Code (19 for a constraint, 5 busy, 11 corrupt, 26 not a
// database...), SQLite's extended result code in ExtendedCode (2067 for a
// UNIQUE constraint, 787 FOREIGN KEY...; the primary code when SQLite has
// none finer), and a message that starts with "ladybug: " and names the
// table, column or position. Compare codes with the constants below, or
// match classes with errors.Is and the sentinels; README has the table.
type Error = errs.Error

// Code is SQLite's primary result code.
type Code = errs.Code

// SQLite's primary result codes, the values of Error.Code.
const (
	CodeError      = errs.CodeError      // 1: a SQL error: syntax, unknown table, unsupported SQL, ...
	CodeInternal   = errs.CodeInternal   // 2
	CodePerm       = errs.CodePerm       // 3
	CodeAbort      = errs.CodeAbort      // 4
	CodeBusy       = errs.CodeBusy       // 5: the writer lock, or the file held by another process
	CodeLocked     = errs.CodeLocked     // 6
	CodeNoMem      = errs.CodeNoMem      // 7: memory_limit reached
	CodeReadOnly   = errs.CodeReadOnly   // 8
	CodeInterrupt  = errs.CodeInterrupt  // 9: the context ended
	CodeIOErr      = errs.CodeIOErr      // 10
	CodeCorrupt    = errs.CodeCorrupt    // 11
	CodeNotFound   = errs.CodeNotFound   // 12
	CodeFull       = errs.CodeFull       // 13
	CodeCantOpen   = errs.CodeCantOpen   // 14
	CodeProtocol   = errs.CodeProtocol   // 15
	CodeEmpty      = errs.CodeEmpty      // 16
	CodeSchema     = errs.CodeSchema     // 17
	CodeTooBig     = errs.CodeTooBig     // 18
	CodeConstraint = errs.CodeConstraint // 19
	CodeMismatch   = errs.CodeMismatch   // 20
	CodeMisuse     = errs.CodeMisuse     // 21
	CodeNoLFS      = errs.CodeNoLFS      // 22
	CodeAuth       = errs.CodeAuth       // 23
	CodeFormat     = errs.CodeFormat     // 24
	CodeRange      = errs.CodeRange      // 25: a parameter index out of range
	CodeNotADB     = errs.CodeNotADB     // 26: the file is not a database

	// CodeGeneric and CodeIO are other names of CodeError and CodeIOErr.
	CodeGeneric = errs.CodeGeneric
	CodeIO      = errs.CodeIO
)

// SQLite's extended result codes ladybug returns in Error.ExtendedCode.
const (
	ExtConstraintCheck      = errs.ExtConstraintCheck      // 275
	ExtConstraintForeignKey = errs.ExtConstraintForeignKey // 787
	ExtConstraintNotNull    = errs.ExtConstraintNotNull    // 1299
	ExtConstraintPrimaryKey = errs.ExtConstraintPrimaryKey // 1555 (also a duplicate rowid)
	ExtConstraintTrigger    = errs.ExtConstraintTrigger    // 1811: RAISE(ABORT|FAIL|ROLLBACK, ...)
	ExtConstraintUnique     = errs.ExtConstraintUnique     // 2067
	ExtConstraintDatatype   = errs.ExtConstraintDatatype   // 3091: a STRICT column's type
	ExtBusySnapshot         = errs.ExtBusySnapshot         // 517
)

// Sentinels for errors.Is. Each matches every *Error of its code; a
// constraint error matches both ErrConstraint and the sentinel of its
// kind; ErrSyntax and ErrNotSupported match those classes of CodeError.
var (
	// ErrBusy: the writer lock was not free within busy_timeout, a
	// deferred transaction's snapshot went stale before its first write,
	// or (at open) another process holds the database file.
	ErrBusy = errs.ErrBusy
	// ErrReadOnly: a write on a mode=ro database or a read-only transaction.
	ErrReadOnly = errs.ErrReadOnly
	// ErrCorrupt: the file or its WAL failed a checksum or structure check,
	// at open or later, or was written by an unsupported format version.
	ErrCorrupt = errs.ErrCorrupt
	// ErrNotADB: the file at the path is not a ladybug database (another
	// program's file, or an empty file opened read-only); it was not
	// written.
	ErrNotADB = errs.ErrNotADB
	// ErrCantOpen: the file could not be opened or created (a missing file
	// with mode=rw or ro, a missing directory, no permission).
	ErrCantOpen = errs.ErrCantOpen
	// ErrSyntax: the SQL does not parse; errors.As finds the position.
	ErrSyntax = errs.ErrSyntax
	// ErrConstraint and its kinds: a write broke a declared constraint.
	ErrConstraint           = errs.ErrConstraint
	ErrConstraintUnique     = errs.ErrConstraintUnique
	ErrConstraintPrimaryKey = errs.ErrConstraintPrimaryKey
	ErrConstraintForeignKey = errs.ErrConstraintForeignKey
	ErrConstraintNotNull    = errs.ErrConstraintNotNull
	ErrConstraintCheck      = errs.ErrConstraintCheck
	// ErrNotSupported: valid SQL that ladybug does not run (ATTACH, ...).
	ErrNotSupported = errs.ErrNotSupported
	// ErrInterrupt: the context was cancelled or its deadline passed.
	ErrInterrupt = errs.ErrInterrupt
	// ErrFull: the disk is full or the database reached its page limit.
	ErrFull = errs.ErrFull
	// ErrIO: the operating system reported an I/O error.
	ErrIO = errs.ErrIO
	// ErrNoMem: the connection's memory_limit was reached.
	ErrNoMem = errs.ErrNoMem
	// ErrTooBig: a string, blob or row over SQLite's size limits.
	ErrTooBig = errs.ErrTooBig
	// ErrMismatch: a datatype mismatch (a non-integer rowid).
	ErrMismatch = errs.ErrMismatch
	// ErrRange: a parameter index out of range.
	ErrRange = errs.ErrRange
	// ErrMisuse: a call on a closed database, statement or transaction.
	ErrMisuse = errs.ErrMisuse
)

var (
	errClosed     = errs.New(errs.CodeMisuse, "database is closed")
	errEmptyQuery = errs.New(errs.CodeMisuse, "empty query: no SQL statement to run")
	errTxDone     = errs.New(errs.CodeMisuse, "transaction has already been committed or rolled back")
)

// recoverErr turns a panic below the driver into an error, so no panic
// reaches the caller; the stack goes into the message for the bug report.
func recoverErr(err *error) {
	if r := recover(); r != nil {
		*err = errs.New(errs.CodeGeneric, "internal error: %v\n%s", r, debug.Stack())
	}
}
