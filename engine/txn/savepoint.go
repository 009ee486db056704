package txn

import (
	"context"
	"strings"
)

// stmtMark is the undo point of an open statement.
type stmtMark struct {
	pos   undoPos
	nsave int // savepoints open when the statement started
}

// savepoint is a named undo point (SAVEPOINT name).
type savepoint struct {
	name string
	pos  undoPos
}

// StartStatement marks the undo point of a statement. The first statement of
// a deferred transaction takes its snapshot here. Statements may nest (a
// statement run by another); each EndStatement closes the innermost.
func (tx *Tx) StartStatement(ctx context.Context) error {
	if err := tx.usable(); err != nil {
		return err
	}
	if ctx != nil {
		tx.ctx = ctx
	}
	if err := tx.beginRead(); err != nil {
		return err
	}
	tx.stmts = append(tx.stmts, stmtMark{pos: tx.undo.pos(), nsave: len(tx.savepoints)})
	return nil
}

// StartWriteStatement is StartStatement for a statement known to write
// (INSERT, UPDATE, DELETE, DDL). It takes the writer lock before the
// snapshot, so the first statement of a deferred transaction never fails
// with a busy snapshot; a later one fails here, before doing any work, if
// the snapshot its earlier statements read went stale.
func (tx *Tx) StartWriteStatement(ctx context.Context) error {
	if err := tx.usable(); err != nil {
		return err
	}
	if ctx != nil {
		tx.ctx = ctx
	}
	if err := tx.beginWrite(); err != nil {
		return err
	}
	return tx.StartStatement(ctx)
}

// EndStatement closes the innermost statement. With err != nil everything
// the statement did (writes, tombstones, DDL, savepoints, hooks) is undone
// and the transaction continues with the earlier statements' work. It
// returns err, or the error of a failed undo (after which only Rollback
// works). On a finished transaction it just returns err.
func (tx *Tx) EndStatement(err error) error {
	if tx.done {
		return err // the statement ended the transaction (COMMIT, ROLLBACK): nothing left to undo
	}
	if len(tx.stmts) == 0 {
		if err != nil {
			return err
		}
		return ErrNoStatement
	}
	m := tx.stmts[len(tx.stmts)-1]
	tx.stmts = tx.stmts[:len(tx.stmts)-1]
	if err != nil && !tx.done {
		tx.stats.StatementsUndone++
		if uerr := tx.undoTo(m.pos); uerr != nil {
			return uerr
		}
		tx.savepoints = tx.savepoints[:min(m.nsave, len(tx.savepoints))]
	}
	tx.trimUndo()
	return err
}

// Savepoint opens a named undo point (SAVEPOINT name). Names compare
// case-insensitively and may repeat; the innermost wins.
func (tx *Tx) Savepoint(name string) error {
	if err := tx.usable(); err != nil {
		return err
	}
	tx.savepoints = append(tx.savepoints, savepoint{name: name, pos: tx.undo.pos()})
	return nil
}

// Release closes the innermost savepoint named name and every savepoint
// opened after it, keeping their work (RELEASE name). Whether releasing the
// outermost savepoint commits is the caller's decision (SQLite commits when
// the transaction was begun by that SAVEPOINT).
func (tx *Tx) Release(name string) error {
	if err := tx.usable(); err != nil {
		return err
	}
	i := tx.findSavepoint(name)
	if i < 0 {
		return errNoSavepoint(name)
	}
	tx.savepoints = tx.savepoints[:i]
	tx.lowerStatementMarks(i, tx.undo.pos())
	tx.trimUndo()
	return nil
}

// RollbackTo undoes everything done since the innermost savepoint named
// name, closes the savepoints opened after it and keeps it open (ROLLBACK TO
// name).
func (tx *Tx) RollbackTo(name string) error {
	if err := tx.usable(); err != nil {
		return err
	}
	i := tx.findSavepoint(name)
	if i < 0 {
		return errNoSavepoint(name)
	}
	sp := tx.savepoints[i]
	tx.savepoints = tx.savepoints[:i+1]
	tx.stats.SavepointsRolled++
	if err := tx.undoTo(sp.pos); err != nil {
		return err
	}
	tx.lowerStatementMarks(i+1, sp.pos)
	return nil
}

// Savepoints returns the names of the open savepoints, outermost first.
func (tx *Tx) Savepoints() []string {
	names := make([]string, len(tx.savepoints))
	for i, sp := range tx.savepoints {
		names[i] = sp.name
	}
	return names
}

func (tx *Tx) findSavepoint(name string) int {
	for i := len(tx.savepoints) - 1; i >= 0; i-- {
		if strings.EqualFold(tx.savepoints[i].name, name) {
			return i
		}
	}
	return -1
}

// lowerStatementMarks keeps open statements' marks valid after a RELEASE or
// ROLLBACK TO closed savepoints they counted (only nsave stay open) or
// rewound the undo log below them (to p), so a statement that fails later
// drops exactly the savepoints it opened itself.
func (tx *Tx) lowerStatementMarks(nsave int, p undoPos) {
	for i := range tx.stmts {
		s := &tx.stmts[i]
		s.nsave = min(s.nsave, nsave)
		if s.pos.entries > p.entries {
			s.pos = p
		}
	}
}

// trimUndo empties the undo log once no statement or savepoint can need it:
// a full rollback discards the storage transaction wholesale instead.
func (tx *Tx) trimUndo() {
	if !tx.undoing() {
		tx.undo.reset()
	}
}
