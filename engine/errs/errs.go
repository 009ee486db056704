// Package errs holds the typed error every ladybug layer above storage
// returns: SQLite's primary result code in Code, its extended code in
// ExtendedCode, and sentinels for errors.Is. It imports only the standard
// library.
package errs

import (
	"errors"
	"fmt"
)

// Code is SQLite's primary result code: the number a program compares
// with SQLITE_CONSTRAINT (19), SQLITE_BUSY (5) and so on. Error.Code holds
// one; a few classes ladybug tells apart within a primary code (syntax
// errors, unsupported SQL) are passed to New as CodeSyntax and
// CodeNotSupported and matched with ErrSyntax and ErrNotSupported.
type Code int

// SQLite's primary result codes.
const (
	CodeError      Code = 1  // SQLITE_ERROR: a SQL error or missing database
	CodeInternal   Code = 2  // SQLITE_INTERNAL
	CodePerm       Code = 3  // SQLITE_PERM
	CodeAbort      Code = 4  // SQLITE_ABORT
	CodeBusy       Code = 5  // SQLITE_BUSY: the database file is locked
	CodeLocked     Code = 6  // SQLITE_LOCKED
	CodeNoMem      Code = 7  // SQLITE_NOMEM
	CodeReadOnly   Code = 8  // SQLITE_READONLY
	CodeInterrupt  Code = 9  // SQLITE_INTERRUPT: cancelled
	CodeIOErr      Code = 10 // SQLITE_IOERR
	CodeCorrupt    Code = 11 // SQLITE_CORRUPT: the database disk image is malformed
	CodeNotFound   Code = 12 // SQLITE_NOTFOUND
	CodeFull       Code = 13 // SQLITE_FULL
	CodeCantOpen   Code = 14 // SQLITE_CANTOPEN
	CodeProtocol   Code = 15 // SQLITE_PROTOCOL
	CodeEmpty      Code = 16 // SQLITE_EMPTY
	CodeSchema     Code = 17 // SQLITE_SCHEMA
	CodeTooBig     Code = 18 // SQLITE_TOOBIG
	CodeConstraint Code = 19 // SQLITE_CONSTRAINT
	CodeMismatch   Code = 20 // SQLITE_MISMATCH
	CodeMisuse     Code = 21 // SQLITE_MISUSE
	CodeNoLFS      Code = 22 // SQLITE_NOLFS
	CodeAuth       Code = 23 // SQLITE_AUTH
	CodeFormat     Code = 24 // SQLITE_FORMAT
	CodeRange      Code = 25 // SQLITE_RANGE
	CodeNotADB     Code = 26 // SQLITE_NOTADB: the file is not a database
)

// Other names, and ladybug's classes within SQLITE_ERROR: an error made
// with CodeSyntax or CodeNotSupported has Code CodeError.
const (
	CodeGeneric      = CodeError
	CodeIO           = CodeIOErr
	CodeSyntax       = CodeError | 1<<8
	CodeNotSupported = CodeError | 2<<8
)

// SQLite's extended result codes for constraint failures and busy snapshots.
const (
	ExtConstraintCheck      = 275
	ExtConstraintForeignKey = 787
	ExtConstraintNotNull    = 1299
	ExtConstraintPrimaryKey = 1555
	ExtConstraintUnique     = 2067
	ExtConstraintTrigger    = 1811 // RAISE(ABORT|FAIL|ROLLBACK, ...) in a trigger
	ExtConstraintDatatype   = 3091 // a STRICT table's column type
	ExtBusySnapshot         = 517
	ExtBusyTimeout          = 773
)

// Error is a ladybug error. Msg is the text after "ladybug: ".
type Error struct {
	Code         Code // SQLite's primary result code
	ExtendedCode int  // SQLite's extended result code, or the primary code
	Msg          string
	Err          error // wrapped cause, may be nil
	// class is the CodeSyntax or CodeNotSupported an error was made with
	// (0 otherwise): what ErrSyntax and ErrNotSupported match.
	class Code
}

func (e *Error) Error() string {
	if e.Err != nil && e.Msg == "" {
		return "ladybug: " + e.Err.Error()
	}
	return "ladybug: " + e.Msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is matches the sentinels below: an *Error is its code's sentinel, a
// constraint error is also the sentinel of its extended code, and a syntax
// or unsupported-SQL error is ErrSyntax or ErrNotSupported.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok || t.Msg != sentinelMsg {
		return false
	}
	switch {
	case t.ExtendedCode != 0:
		return e.ExtendedCode == t.ExtendedCode
	case t.class != 0:
		return e.class == t.class
	}
	return e.Code == t.Code
}

const sentinelMsg = "\x00sentinel"

func sentinel(c Code, ext int) *Error {
	e := Of(c, sentinelMsg, nil)
	e.ExtendedCode = ext
	return e
}

// Sentinels for errors.Is.
var (
	ErrBusy                 = sentinel(CodeBusy, 0)
	ErrReadOnly             = sentinel(CodeReadOnly, 0)
	ErrCorrupt              = sentinel(CodeCorrupt, 0)
	ErrNotADB               = sentinel(CodeNotADB, 0)
	ErrSyntax               = sentinel(CodeSyntax, 0)
	ErrConstraint           = sentinel(CodeConstraint, 0)
	ErrConstraintUnique     = sentinel(CodeConstraint, ExtConstraintUnique)
	ErrConstraintPrimaryKey = sentinel(CodeConstraint, ExtConstraintPrimaryKey)
	ErrConstraintForeignKey = sentinel(CodeConstraint, ExtConstraintForeignKey)
	ErrConstraintNotNull    = sentinel(CodeConstraint, ExtConstraintNotNull)
	ErrConstraintCheck      = sentinel(CodeConstraint, ExtConstraintCheck)
	ErrNotSupported         = sentinel(CodeNotSupported, 0)
	ErrInterrupt            = sentinel(CodeInterrupt, 0)
	ErrFull                 = sentinel(CodeFull, 0)
	ErrIO                   = sentinel(CodeIOErr, 0)
	ErrMisuse               = sentinel(CodeMisuse, 0)
	ErrRange                = sentinel(CodeRange, 0)
	ErrTooBig               = sentinel(CodeTooBig, 0)
	ErrNoMem                = sentinel(CodeNoMem, 0)
	ErrCantOpen             = sentinel(CodeCantOpen, 0)
	ErrMismatch             = sentinel(CodeMismatch, 0)
)

// Of returns an *Error of class c (a primary code, CodeSyntax or
// CodeNotSupported) with message msg wrapping err; its ExtendedCode is the
// primary code.
func Of(c Code, msg string, err error) *Error {
	e := &Error{Code: c & 0xff, ExtendedCode: int(c & 0xff), Msg: msg, Err: err}
	if c > 0xff {
		e.class = c
	}
	return e
}

// New returns an *Error with code c and a formatted message.
func New(c Code, format string, args ...any) *Error {
	return Of(c, fmt.Sprintf(format, args...), nil)
}

// Constraint returns a constraint error with SQLite's extended code ext.
func Constraint(ext int, format string, args ...any) *Error {
	return &Error{Code: CodeConstraint, ExtendedCode: ext, Msg: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error with code c wrapping err, or err itself when it is
// already an *Error.
func Wrap(c Code, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return Of(c, err.Error(), err)
}
