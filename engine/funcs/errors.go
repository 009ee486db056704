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

// Budget is implemented by an Env whose statement runs under a memory
// limit: Fits fails with the statement's memory-limit error when a result
// of n bytes would not fit in what the statement may still hold. It only
// checks: a result lives until the next batch, so it is not held.
type Budget interface{ Fits(n int64) error }

// budgetFloor is the smallest result checked against the Env's Budget:
// smaller ones cannot matter to a limit and skip the interface call.
const budgetFloor = 64 << 10

// maxLen is the largest TEXT or BLOB a function may produce: MaxLength or
// the Context's lower MaxLen (the connection's length limit).
func (c *Context) maxLen() int64 {
	if c != nil && c.MaxLen > 0 && c.MaxLen < MaxLength {
		return c.MaxLen
	}
	return MaxLength
}

// checkLen fails with ErrTooBig when a result of n bytes exceeds the length
// limit, and with the memory-limit error when it does not fit the
// statement's memory limit (SQLite's hard heap limit fails the same
// allocation with SQLITE_NOMEM).
func (c *Context) checkLen(n int64) error {
	if n > c.maxLen() || n < 0 {
		return ErrTooBig
	}
	if c != nil && n >= budgetFloor {
		if b, ok := c.Env.(Budget); ok {
			return b.Fits(n)
		}
	}
	return nil
}
