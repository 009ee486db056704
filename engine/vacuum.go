package engine

import (
	"context"
	"errors"
	"io/fs"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/engine/types"
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
	if err := s.db.store.Vacuum(ctx); err != nil {
		return storageErr("VACUUM", err)
	}
	return nil
}

// storageErr maps an error of a storage operation (what: VACUUM, backup,
// clone) onto the engine's error codes.
func storageErr(what string, err error) error {
	var e *errs.Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &errs.Error{Code: errs.CodeInterrupt, ExtendedCode: 9, Msg: "interrupted", Err: err}
	case errors.Is(err, storage.ErrBusy):
		return &errs.Error{Code: errs.CodeBusy, ExtendedCode: 5, Msg: "database is locked: " + err.Error(), Err: err}
	case errors.Is(err, storage.ErrCorrupt):
		return &errs.Error{Code: errs.CodeCorrupt, ExtendedCode: 11, Msg: what + ": " + err.Error(), Err: err}
	case errors.Is(err, storage.ErrFull):
		return &errs.Error{Code: errs.CodeFull, ExtendedCode: 13, Msg: what + ": " + err.Error(), Err: err}
	case errors.Is(err, storage.ErrClosed):
		return &errs.Error{Code: errs.CodeMisuse, ExtendedCode: 21, Msg: what + " of a closed database", Err: err}
	}
	return &errs.Error{Code: errs.CodeIO, ExtendedCode: 10, Msg: what + ": " + err.Error(), Err: err}
}

// isVacuumInto reports whether a bound statement is VACUUM INTO.
func isVacuumInto(p plan.Statement) (*plan.Nop, bool) {
	nop, ok := p.(*plan.Nop)
	return nop, ok && nop.What == "VACUUM INTO"
}

// vacuumInto writes a compact copy of the database to the file its
// expression names (SQLite's VACUUM INTO): a new file, never an existing
// one, written from one read snapshot while other connections keep
// reading and writing.
func (s *Session) vacuumInto(c *exec.Ctx, nop *plan.Nop) error {
	if s.tx != nil {
		return errs.New(errs.CodeGeneric, "cannot VACUUM INTO from within a transaction")
	}
	v, err := exec.EvalConst(c, nop.Into)
	if err != nil {
		return err
	}
	if v.Kind() != types.KindText || v.Str() == "" {
		return errs.New(errs.CodeMisuse, "VACUUM INTO needs a file name (a non-empty text value)")
	}
	return s.db.BackupFile(c.Go, v.Str(), BackupOptions{Compact: true})
}

// BackupOptions configure DB.BackupFile.
type BackupOptions = storage.BackupOptions

// BackupFile writes a consistent copy of the database's newest commit to a
// new file at path (the online backup, and VACUUM INTO with Compact):
// readers and writers keep running meanwhile, the copy is fsynced under a
// temporary name and linked to path only when complete, and an existing
// path is refused. Restoring is opening the copy.
func (db *DB) BackupFile(ctx context.Context, path string, opts BackupOptions) error {
	if db.isClosed() {
		return errs.New(errs.CodeMisuse, "backup of a closed database")
	}
	_, err := db.store.BackupFile(ctx, path, opts)
	var pe *fs.PathError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, storage.ErrExists):
		return &errs.Error{Code: errs.CodeGeneric, ExtendedCode: 1, Msg: "output file already exists: " + path, Err: err}
	case errors.As(err, &pe) && !errors.Is(err, storage.ErrFull):
		return &errs.Error{Code: errs.CodeCantOpen, ExtendedCode: 14, Msg: "backup: cannot write " + path + ": " + err.Error(), Err: err}
	}
	return storageErr("backup", err)
}
