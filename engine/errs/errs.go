// Package errs holds the typed error every ladybug layer above storage
// returns, with stable codes callers branch on and SQLite's numbers beside
// them. It imports only the standard library.
package errs

import (
	"errors"
	"fmt"
)

// Code is ladybug's stable error class.
type Code int

// Codes. The comment gives SQLite's primary result code.
const (
	CodeGeneric      Code = iota + 1 // SQLITE_ERROR 1
	CodeSyntax                       // SQLITE_ERROR 1
	CodeBusy                         // SQLITE_BUSY 5
	CodeReadOnly                     // SQLITE_READONLY 8
	CodeCorrupt                      // SQLITE_CORRUPT 11
	CodeFull                         // SQLITE_FULL 13
	CodeIO                           // SQLITE_IOERR 10
	CodeConstraint                   // SQLITE_CONSTRAINT 19
	CodeMismatch                     // SQLITE_MISMATCH 20
	CodeMisuse                       // SQLITE_MISUSE 21
	CodeRange                        // SQLITE_RANGE 25
	CodeTooBig                       // SQLITE_TOOBIG 18
	CodeInterrupt                    // SQLITE_INTERRUPT 9
	CodeNotSupported                 // SQLITE_ERROR 1
	CodeNoMem                        // SQLITE_NOMEM 7
	CodeCantOpen                     // SQLITE_CANTOPEN 14
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
	Code         Code
	ExtendedCode int // SQLite's extended result code, or its primary code
	Msg          string
	Err          error // wrapped cause, may be nil
}

func (e *Error) Error() string {
	if e.Err != nil && e.Msg == "" {
		return "ladybug: " + e.Err.Error()
	}
	return "ladybug: " + e.Msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is matches the sentinels below: an *Error is its code's sentinel, and a
// constraint error is also the sentinel of its extended code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok || t.Msg != sentinelMsg {
		return false
	}
	if t.ExtendedCode != 0 {
		return e.ExtendedCode == t.ExtendedCode
	}
	return e.Code == t.Code
}

const sentinelMsg = "\x00sentinel"

func sentinel(c Code, ext int) *Error { return &Error{Code: c, ExtendedCode: ext, Msg: sentinelMsg} }

// Sentinels for errors.Is.
var (
	ErrBusy                 = sentinel(CodeBusy, 0)
	ErrReadOnly             = sentinel(CodeReadOnly, 0)
	ErrCorrupt              = sentinel(CodeCorrupt, 0)
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
	ErrIO                   = sentinel(CodeIO, 0)
	ErrMisuse               = sentinel(CodeMisuse, 0)
	ErrRange                = sentinel(CodeRange, 0)
	ErrTooBig               = sentinel(CodeTooBig, 0)
	ErrNoMem                = sentinel(CodeNoMem, 0)
	ErrCantOpen             = sentinel(CodeCantOpen, 0)
)

var primary = map[Code]int{
	CodeGeneric: 1, CodeSyntax: 1, CodeBusy: 5, CodeReadOnly: 8, CodeCorrupt: 11,
	CodeFull: 13, CodeIO: 10, CodeConstraint: 19, CodeMismatch: 20, CodeMisuse: 21,
	CodeRange: 25, CodeTooBig: 18, CodeInterrupt: 9, CodeNotSupported: 1, CodeNoMem: 7,
	CodeCantOpen: 14,
}

// New returns an *Error with code c and a formatted message.
func New(c Code, format string, args ...any) *Error {
	return &Error{Code: c, ExtendedCode: primary[c], Msg: fmt.Sprintf(format, args...)}
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
	return &Error{Code: c, ExtendedCode: primary[c], Msg: err.Error(), Err: err}
}
