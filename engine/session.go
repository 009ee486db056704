package engine

import (
	"context"
	"time"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
)

// TxOptions configure Session.Begin.
type TxOptions struct{ ReadOnly, Immediate bool }

// Session is one connection's state: its open transaction, the catalog of
// that transaction's uncommitted DDL, and the counters behind changes()
// and last_insert_rowid(). It is used by one goroutine at a time.
type Session struct {
	db *DB
	tx *txn.Tx // explicit transaction, nil in autocommit mode
	// txCat is the catalog including tx's uncommitted DDL, nil when tx
	// changed no schema.
	txCat *catalog.Catalog

	lastRowid, changes, totalChanges int64
	foreignKeys                      bool
	closed                           bool
	// roSession refuses writes on a database opened read-write: a mode=ro
	// connector sharing the process's engine for the file.
	roSession bool
	// savepointTx is set when a SAVEPOINT began the transaction.
	savepointTx bool
	// deferred lists tables whose deferred foreign keys await the commit.
	deferred map[string]bool
	// trigCache holds bound triggers per table for catalog trigCat.
	trigCat   *catalog.Catalog
	trigCache map[string][]*plan.BoundTrigger
	// firing is the stack of triggers whose programs are running: unless
	// recursiveTriggers (PRAGMA recursive_triggers) is on, a trigger does
	// not fire inside its own program.
	firing            []*plan.BoundTrigger
	recursiveTriggers bool
	// open holds the Rows not yet closed (each knows its index, openAt):
	// those reading the explicit transaction are closed when it ends, all
	// when the session closes. A slice, not a map: a query loop tracks
	// and untracks one Rows per query.
	open []*Rows
	// spareRows is a released Rows the next Query reuses (see Rows.Release).
	spareRows *Rows
	// spareTx is the last finished autocommit transaction, which the next
	// one begins in (see txn.Manager.BeginReuse).
	spareTx *txn.Tx
	// settingFn and deferFKFn are the method values s.setting and
	// s.deferFK, made once so each statement's context does not allocate
	// two closures.
	settingFn func(string) (types.Value, bool)
	deferFKFn func(string)
	// temp is the session's temp database, nil until its first temp
	// object; ttx is the explicit transaction's temp side and txTempCat
	// the temp schema including ttx's uncommitted DDL (see tempdb.go).
	temp      *tempDB
	ttx       *txn.Tx
	txTempCat *catalog.Catalog
	// compMain and compTemp are the parts of comp, the last composed
	// catalog (see compose).
	compMain, compTemp, comp *catalog.Catalog
	// triggers is the session as its statements' exec.TriggerFirer.
	triggers sessionTriggers

	// kept is the last closed query program, reused by the next run of
	// its plan on this session (see keptProg).
	kept keptProg
	// sizer sizes tables for the session's binds (see tableSizer).
	sizer tableSizer

	// analysisLimit is PRAGMA analysis_limit: ANALYZE reads at most about
	// this many entries of each index (0: all).
	analysisLimit int64
	// busyTimeout is PRAGMA busy_timeout on this session (busySet): the
	// writer-lock wait of the transactions it begins.
	busyTimeout time.Duration
	busySet     bool
	// tempStore is PRAGMA temp_store as last set (0 default, 1 file,
	// 2 memory); temp objects live in memory whatever it says.
	tempStore int64
}

// LastInsertRowid implements exec.Session.
func (s *Session) LastInsertRowid() int64 { return s.lastRowid }

// SetLastInsertRowid implements exec.Session.
func (s *Session) SetLastInsertRowid(r int64) { s.lastRowid = r }

// Changes implements exec.Session.
func (s *Session) Changes() int64 { return s.changes }

// TotalChanges implements exec.Session.
func (s *Session) TotalChanges() int64 { return s.totalChanges }

// AddTotalChanges implements exec.Session.
func (s *Session) AddTotalChanges(n int64) { s.totalChanges += n }

// SetReadOnly makes the session refuse every write with a read-only error,
// as if its database had been opened read-only.
func (s *Session) SetReadOnly(on bool) { s.roSession = on }

// readOnly reports whether writes are refused for this session.
func (s *Session) readOnly() bool { return s.roSession || s.db.opts.ReadOnly }

// Close rolls back an open transaction and releases the session.
func (s *Session) Close() error {
	if s.closed {
		return nil
	}
	s.closeAll()
	var err error
	if s.tx != nil {
		err = s.Rollback()
	}
	// The session's temp objects go with it.
	if e := s.closeTemp(); err == nil {
		err = e
	}
	s.closed = true
	s.kept = keptProg{}
	s.db.forget(s)
	return err
}

func (s *Session) usable() error {
	if s.closed || s.db.isClosed() {
		return ErrClosed
	}
	return nil
}

// Begin opens an explicit transaction.
func (s *Session) Begin(ctx context.Context, o TxOptions) error {
	if err := s.usable(); err != nil {
		return err
	}
	if s.tx != nil {
		return ErrTxOpen
	}
	if o.ReadOnly && o.Immediate {
		return errs.New(errs.CodeMisuse, "a read-only transaction cannot be immediate")
	}
	tx, err := s.db.txm.Begin(s.lockCtx(ctx), txn.Options{ReadOnly: o.ReadOnly, Immediate: o.Immediate})
	if err != nil {
		return err
	}
	s.tx, s.txCat, s.txTempCat = tx, nil, nil
	if s.temp != nil {
		if err := s.beginTemp(ctx); err != nil {
			s.tx = nil
			tx.Rollback()
			return err
		}
	}
	return nil
}

// Commit commits the open transaction; on failure the transaction is
// rolled back.
func (s *Session) Commit() error {
	if s.tx == nil {
		return ErrNoTx
	}
	s.closeOpen()
	if err := s.verifyDeferred(s.tx, s.ttx); err != nil {
		// The transaction stays open, as in SQLite, so the program can
		// fix the data or roll back.
		return err
	}
	tx, cat, ttx, tcat := s.tx, s.txCat, s.ttx, s.txTempCat
	s.tx, s.txCat, s.savepointTx, s.deferred = nil, nil, false, nil
	s.ttx, s.txTempCat = nil, nil
	if err := tx.Commit(); err != nil {
		tx.Rollback()
		if ttx != nil {
			ttx.Rollback()
		}
		return err
	}
	if cat != nil {
		s.db.publish(cat)
	}
	return s.commitTemp(ttx, tcat)
}

// Rollback rolls back the open transaction.
func (s *Session) Rollback() error {
	if s.tx == nil {
		return errs.New(errs.CodeGeneric, "cannot rollback - no transaction is active")
	}
	s.closeOpen()
	tx, ttx := s.tx, s.ttx
	s.tx, s.txCat, s.savepointTx, s.deferred = nil, nil, false, nil
	s.ttx, s.txTempCat = nil, nil
	if ttx != nil {
		ttx.Rollback()
	}
	return tx.Rollback()
}

// InTx reports whether an explicit transaction is open.
func (s *Session) InTx() bool { return s.tx != nil }

// ResetSession is called between pool uses; it rolls back a leftover
// transaction.
func (s *Session) ResetSession() error {
	if err := s.usable(); err != nil {
		return err
	}
	s.closeAll()
	if s.tx != nil {
		return s.Rollback()
	}
	return nil
}

// closeAll closes every open result set.
func (s *Session) closeAll() {
	for len(s.open) > 0 {
		r := s.open[len(s.open)-1]
		r.Close()
		s.untrack(r) // a no-op once Close has
	}
}

// closeOpen closes the result sets reading the explicit transaction. It
// walks down from the end: closing r moves the last entry, already seen,
// into r's place.
func (s *Session) closeOpen() {
	for i := len(s.open) - 1; i >= 0; i-- {
		if i < len(s.open) && s.open[i].explicit {
			s.open[i].Close()
		}
	}
}

func (s *Session) track(r *Rows) {
	r.explicit = s.tx != nil
	r.openAt = len(s.open)
	s.open = append(s.open, r)
}

// untrack forgets r, moving the last open Rows into its place.
func (s *Session) untrack(r *Rows) {
	i := r.openAt
	if i < 0 || i >= len(s.open) || s.open[i] != r {
		return // never tracked (Query failed before track)
	}
	last := len(s.open) - 1
	s.open[i] = s.open[last]
	s.open[i].openAt = i
	s.open[last] = nil
	s.open = s.open[:last]
	r.openAt = -1
}

// catalogFor returns the catalog a statement in tx sees.
func (s *Session) catalogFor(tx *txn.Tx) (*catalog.Catalog, error) {
	if s.txCat != nil && tx == s.tx {
		return s.txCat, nil
	}
	cookie := tx.Meta(metaSchemaCookie)
	cur := s.db.cat.Load()
	if cur != nil && cur.Version == cookie {
		return cur, nil
	}
	cat, err := loadCatalog(tx)
	if err != nil {
		return nil, err
	}
	s.db.publish(cat)
	return cat, nil
}

func (s *Session) deferFK(table string) {
	if s.deferred == nil {
		s.deferred = map[string]bool{}
	}
	s.deferred[table] = true
}

// verifyDeferred runs the deferred foreign key checks recorded in tx.
func (s *Session) verifyDeferred(tx, ttx *txn.Tx) error {
	if len(s.deferred) == 0 {
		return nil
	}
	cat, err := s.catalogFor(tx)
	if err != nil {
		return err
	}
	c := s.newCtx(context.Background(), tx, s.compose(cat), nil, nil)
	c.TempTx = ttx
	c.DeferFK = nil
	for table := range s.deferred {
		if err := exec.VerifyForeignKeys(c, table); err != nil {
			return err
		}
	}
	return nil
}
