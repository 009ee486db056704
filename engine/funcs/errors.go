package funcs

import (
	"fmt"

	"github.com/ladybugsql/ladybug/engine/errs"
)

// MaxLength is the largest TEXT or BLOB a function may produce, SQLite's
// default SQLITE_MAX_LENGTH (1e9 bytes). Larger results fail with
// ErrTooBig instead of allocating.
const MaxLength = 1000000000

// ErrTooBig is returned (wrapped in an *errs.Error with CodeTooBig) when a
// result would exceed MaxLength.
var ErrTooBig = errs.New(errs.CodeTooBig, "string or blob too big")

// errWrongArgs is SQLite's message for a call with a bad argument count.
func errWrongArgs(name string) error {
	return errs.New(errs.CodeGeneric, "wrong number of arguments to function %s()", name)
}

// errNoSuchFunc is SQLite's message for an unknown function.
func errNoSuchFunc(name string) error {
	return errs.New(errs.CodeGeneric, "no such function: %s", name)
}

// errf returns a generic SQL error with a formatted message.
func errf(format string, args ...any) error {
	return errs.New(errs.CodeGeneric, "%s", fmt.Sprintf(format, args...))
}

// checkLen fails with ErrTooBig when n exceeds MaxLength.
func checkLen(n int64) error {
	if n > MaxLength || n < 0 {
		return ErrTooBig
	}
	return nil
}
