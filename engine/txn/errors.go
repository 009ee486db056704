package txn

import (
	"errors"
	"fmt"

	"github.com/ladybugsql/ladybug/engine/errs"
)

// Sentinels. Each is an *errs.Error, so the driver maps it to a code; match
// them with errors.Is.
var (
	// ErrTxDone is returned by any method of a Tx after Commit or Rollback.
	ErrTxDone = errs.New(errs.CodeMisuse, "transaction has already been committed or rolled back")
	// ErrTreeDropped is returned when a tree dropped in this transaction is used.
	ErrTreeDropped = errs.New(errs.CodeMisuse, "tree was dropped in this transaction")
	// ErrNoStatement is returned by EndStatement without a matching StartStatement.
	ErrNoStatement = errs.New(errs.CodeMisuse, "no statement in progress")
	// ErrHookPanic is returned by Commit when an OnCommit hook panicked.
	ErrHookPanic = errs.New(errs.CodeGeneric, "commit hook panicked")
)

// errReadOnly is the error of a write in a read-only transaction.
func errReadOnly() error {
	return errs.New(errs.CodeReadOnly, "attempt to write a readonly database (read-only transaction)")
}

// errNoSavepoint is the error of RELEASE or ROLLBACK TO naming no savepoint.
func errNoSavepoint(name string) error {
	return errs.New(errs.CodeGeneric, "no such savepoint: %s", name)
}

// errBusySnapshot is the error of a deferred transaction whose snapshot went
// stale before its first write.
func errBusySnapshot(have, newest uint64) error {
	return &errs.Error{
		Code:         errs.CodeBusy,
		ExtendedCode: errs.ExtBusySnapshot,
		Msg: fmt.Sprintf("database is locked (busy snapshot): the transaction read snapshot %d "+
			"but another connection committed %d since; roll back and retry", have, newest),
	}
}

// wrapStorage turns a storage error into an *errs.Error with the code the
// store assigns it, keeping the cause for errors.Is on storage sentinels.
func wrapStorage(s kvStore, op string, err error) error {
	if err == nil {
		return nil
	}
	var e *errs.Error
	if errors.As(err, &e) {
		return err
	}
	c := s.errCode(err)
	msg := op + ": " + err.Error()
	if c == errs.CodeBusy {
		msg = "database is locked: " + err.Error()
	}
	return errs.Of(c, msg, err)
}
