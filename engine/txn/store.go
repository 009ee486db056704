package txn

import (
	"context"
	"errors"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/storage"
)

// NewManager returns the transaction manager of a store.
func NewManager(s *storage.Store) *Manager { return newManager(storeKV{s}) }

// storeKV binds kvStore to *storage.Store.
type storeKV struct{ s *storage.Store }

func (a storeKV) BeginRead() (kvTx, error) {
	tx, err := a.s.BeginRead()
	if err != nil {
		return nil, err
	}
	return txKV{tx}, nil
}

// beginReadIn starts a read transaction in room (see kvReadIn).
func (a storeKV) beginReadIn(room *storage.Tx) (kvTx, error) {
	if err := a.s.BeginReadIn(room); err != nil {
		return nil, err
	}
	return txKV{room}, nil
}

// beginWriteIn starts the write transaction in room (see kvReadIn).
func (a storeKV) beginWriteIn(ctx context.Context, room *storage.Tx) (kvTx, error) {
	if err := a.s.BeginWriteIn(ctx, room); err != nil {
		return nil, err
	}
	return txKV{room}, nil
}

func (a storeKV) BeginWrite(ctx context.Context) (kvTx, error) {
	tx, err := a.s.BeginWrite(ctx)
	if err != nil {
		return nil, err
	}
	return txKV{tx}, nil
}

// pagesModified counts pages that entered a write transaction's private
// set: the cache's dirty pages, plus those dropped because the transaction
// freed them, plus those written early by a spill.
func (a storeKV) pagesModified() uint64 {
	st := a.s.Stats()
	return uint64(st.Cache.Dirty) + st.Cache.Invalidations + st.SpilledPages
}

func (a storeKV) errCode(err error) errs.Code { return StorageCode(err) }

// StorageCode is the class of a storage error: its sentinel's code
// (busy, read-only, corrupt, not a database, ...), else CodeIO.
func StorageCode(err error) errs.Code {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return errs.CodeInterrupt // the caller gave up waiting, whatever it waited for
	case errors.Is(err, storage.ErrBusy):
		return errs.CodeBusy
	case errors.Is(err, storage.ErrReadOnly):
		return errs.CodeReadOnly
	case errors.Is(err, storage.ErrCorrupt):
		return errs.CodeCorrupt
	case errors.Is(err, storage.ErrNotADB):
		return errs.CodeNotADB
	case errors.Is(err, storage.ErrFull):
		return errs.CodeFull
	case errors.Is(err, storage.ErrKeyTooLarge):
		return errs.CodeTooBig
	case errors.Is(err, storage.ErrTxClosed), errors.Is(err, storage.ErrClosed), errors.Is(err, storage.ErrInvalid):
		return errs.CodeMisuse
	}
	return errs.CodeIO
}

// txKV binds kvTx to *storage.Tx.
type txKV struct{ *storage.Tx }

func (t txKV) Tree(root uint32) kvTree { return treeKV{t.Tx.Tree(root)} }

// treeKV binds kvTree to *storage.Tree.
type treeKV struct{ *storage.Tree }

func (t treeKV) Cursor() kvCursor { return t.Tree.Cursor() }

// cursorIn reuses old, a closed cursor of any tree, when it is a storage
// cursor (see kvCursorIn).
func (t treeKV) cursorIn(old kvCursor) kvCursor {
	if sc, ok := old.(*storage.Cursor); ok {
		return t.Tree.CursorIn(sc)
	}
	return t.Tree.Cursor()
}
