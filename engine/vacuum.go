package engine

import (
	"context"
	"errors"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/storage"
)

// isVacuum reports whether a bound statement is VACUUM, which runs outside
// the statement-transaction machinery: the store takes the writer lock,
// compacts the file in one write transaction and checkpoints it.
func isVacuum(p plan.Statement) bool {
	nop, ok := p.(*plan.Nop)
	return ok && nop.What == "VACUUM"
}

// vacuum compacts the database file (SQLite's VACUUM): live pages move
// down, the free list shrinks, and the file is truncated once no reader
// needs the old pages. Tree roots keep their page numbers, so the catalog
// stays valid.
func (s *Session) vacuum(ctx context.Context) error {
	if s.tx != nil {
		return errs.New(errs.CodeGeneric, "cannot VACUUM from within a transaction")
	}
	if s.readOnly() {
		return errs.New(errs.CodeReadOnly, "attempt to write a readonly database")
	}
	err := s.db.store.Vacuum(ctx)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &errs.Error{Code: errs.CodeInterrupt, ExtendedCode: 9, Msg: "interrupted", Err: err}
	case errors.Is(err, storage.ErrBusy):
		return &errs.Error{Code: errs.CodeBusy, ExtendedCode: 5, Msg: "database is locked: " + err.Error(), Err: err}
	case errors.Is(err, storage.ErrCorrupt):
		return &errs.Error{Code: errs.CodeCorrupt, ExtendedCode: 11, Msg: "VACUUM: " + err.Error(), Err: err}
	case errors.Is(err, storage.ErrFull):
		return &errs.Error{Code: errs.CodeFull, ExtendedCode: 13, Msg: "VACUUM: " + err.Error(), Err: err}
	}
	return &errs.Error{Code: errs.CodeIO, ExtendedCode: 10, Msg: "VACUUM: " + err.Error(), Err: err}
}
