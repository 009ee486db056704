package engine

import (
	"context"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/vfs"
)

// tempDB is a session's temp database (SQLite's "temp" schema): an
// in-memory store of its own, opened at the session's first temp object
// and closed with the session, so nothing of it reaches the database file
// or outlives the connection. Its transactions begin, commit and roll back
// with the session's main ones; only the session uses it, so writing a
// temp table never takes the database's writer lock.
type tempDB struct {
	store *storage.Store
	txm   *txn.Manager
	// cat is the committed temp schema.
	cat *catalog.Catalog
}

// tempCacheSize bounds the page cache of a temp store; its pages live in
// memory anyway (vfs.MemFS), so the cache only saves decoding.
const tempCacheSize = 1 << 20

func openTempDB() (*tempDB, error) {
	st, err := storage.Open(memPath, storage.Options{FS: vfs.NewMemFS(), Create: true,
		Sync: storage.SyncOff, CacheSize: tempCacheSize})
	if err != nil {
		return nil, wrapOpen(err, "temp")
	}
	return &tempDB{store: st, txm: txn.NewManager(st), cat: catalog.NewTemp()}, nil
}

// tempCatalog returns the temp schema statements of the session see now:
// its transaction's uncommitted one, the committed one, or nil.
func (s *Session) tempCatalog() *catalog.Catalog {
	if s.txTempCat != nil {
		return s.txTempCat
	}
	if s.temp != nil {
		return s.temp.cat
	}
	return nil
}

// compose returns main with the session's temp schema laid over it. The
// result is cached per (main, temp) pair, so a plan bound against it is
// found again by pointer identity, and never by another session: the
// plan cache keys plans by the catalog they were bound against.
func (s *Session) compose(main *catalog.Catalog) *catalog.Catalog {
	t := s.tempCatalog()
	if t == nil {
		return main
	}
	if s.compMain != main || s.compTemp != t {
		s.compMain, s.compTemp, s.comp = main, t, main.WithTemp(t)
	}
	return s.comp
}

// needsTemp reports whether a bound statement creates a temp object.
func needsTemp(p plan.Statement) bool {
	switch p := p.(type) {
	case *plan.CreateTable:
		return p.Table.Temp
	case *plan.CreateView:
		return p.View.Temp
	case *plan.CreateTrigger:
		return p.Trigger.Temp
	}
	return false
}

// ensureTemp opens the session's temp database if it has none; inside an
// explicit transaction its transaction starts at once, holding the
// savepoints already open so ROLLBACK TO undoes temp work too.
func (s *Session) ensureTemp(ctx context.Context) error {
	if s.temp != nil {
		return nil
	}
	t, err := openTempDB()
	if err != nil {
		return err
	}
	s.temp = t
	s.db.tempDBs.Add(1)
	if s.tx != nil {
		return s.beginTemp(ctx)
	}
	return nil
}

// beginTemp starts the temp side of the explicit transaction.
func (s *Session) beginTemp(ctx context.Context) error {
	ttx, err := s.temp.txm.Begin(ctx, txn.Options{})
	if err != nil {
		return err
	}
	for _, name := range s.tx.Savepoints() {
		if err := ttx.Savepoint(name); err != nil {
			ttx.Rollback()
			return err
		}
	}
	s.ttx = ttx
	return nil
}

// tempOnly reports whether a write changes nothing but temp objects, so
// its statement needs no writer lock on the database: writes to a temp
// table and temp DDL (cat resolves what a DROP drops). A trigger of such a
// write that writes a main table takes the lock when it writes.
func tempOnly(cat *catalog.Catalog, p plan.Statement) bool {
	switch p := p.(type) {
	case *plan.Drop:
		temp, err := ddlInTemp(cat, p)
		return temp && err == nil
	case *plan.Insert:
		return p.Table.Temp
	case *plan.Update:
		return p.Table.Temp
	case *plan.Delete:
		return p.Table.Temp
	case *plan.CreateIndex:
		return p.Index.Temp
	case *plan.AlterTable:
		return p.Table.Temp
	}
	return needsTemp(p)
}

// commitTemp commits the temp side of a transaction whose main side has
// committed, and makes its schema the session's.
func (s *Session) commitTemp(ttx *txn.Tx, cat *catalog.Catalog) error {
	if ttx == nil {
		return nil
	}
	if err := ttx.Commit(); err != nil {
		return err
	}
	if cat != nil {
		s.temp.cat = cat
	}
	return nil
}

// reloadTempCatalog rebuilds the temp schema of the explicit transaction
// after ROLLBACK TO undid temp DDL in its trees.
func (s *Session) reloadTempCatalog() error {
	if s.txTempCat == nil || s.ttx == nil {
		return nil
	}
	cat, err := loadTempCatalog(s.ttx)
	if err != nil {
		return err
	}
	s.txTempCat = cat
	if cat.Version == s.temp.cat.Version {
		s.txTempCat = nil // back to the committed schema
	}
	return nil
}

// closeTemp drops the session's temp database.
func (s *Session) closeTemp() error {
	if s.temp == nil {
		return nil
	}
	t := s.temp
	s.temp, s.txTempCat, s.compMain, s.compTemp, s.comp = nil, nil, nil, nil, nil
	s.db.tempDBs.Add(-1)
	if err := t.store.Close(); err != nil {
		return errs.Wrap(errs.CodeIO, err)
	}
	return nil
}
