package engine

import (
	"context"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/types"
)

// Arg is one bound argument: Ordinal is 1-based, Name is without its prefix
// or "".
type Arg struct {
	Ordinal int
	Name    string
	Value   types.Value
}

// Result is what Exec reports.
type Result struct{ LastInsertID, RowsAffected int64 }

// Stmt is a prepared script of one or more statements.
type Stmt struct {
	s *Session
}

// NumInput returns the true placeholder count, -1 only when unknowable.
func (st *Stmt) NumInput() int { return 0 }

// ParamNames returns, per 1-based position i at [i-1], "" or the
// placeholder's name without its prefix.
func (st *Stmt) ParamNames() []string { return nil }

// Exec runs every statement of the script.
func (st *Stmt) Exec(ctx context.Context, args []Arg) (Result, error) {
	return Result{}, errs.New(errs.CodeNotSupported, "not supported: exec")
}

// Query runs the script and returns the result sets of the statements that
// return rows.
func (st *Stmt) Query(ctx context.Context, args []Arg) (*Rows, error) {
	return nil, errs.New(errs.CodeNotSupported, "not supported: query")
}

// Close releases the statement.
func (st *Stmt) Close() error { return nil }
