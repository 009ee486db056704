package txn

import (
	"context"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/storage"
)

// The interfaces below are the slice of engine/storage that txn uses. They
// keep txn testable against a small in-memory model and make the storage
// binding (store.go) a thin adapter.

// kvStore opens storage transactions.
type kvStore interface {
	BeginRead() (kvTx, error)
	BeginWrite(ctx context.Context) (kvTx, error)
	// pagesModified is a monotonically increasing count of pages the store
	// has dirtied or written; the tombstone apply reports its delta.
	pagesModified() uint64
	// errCode classifies a storage error (busy, read-only, corrupt, ...).
	errCode(err error) errs.Code
}

// kvReadIn is a kvStore that can start a read transaction in memory the
// caller provides (the storage binding does), saving an allocation per
// transaction.
type kvReadIn interface {
	beginReadIn(room *storage.Tx) (kvTx, error)
	beginWriteIn(ctx context.Context, room *storage.Tx) (kvTx, error)
}

// kvTx is one storage transaction: a snapshot, plus private pages when
// writable.
type kvTx interface {
	Writable() bool
	Snapshot() uint64
	CreateTree() (uint32, error)
	DropTree(root uint32) error
	Tree(root uint32) kvTree
	Meta(slot int) uint64
	SetMeta(slot int, v uint64) error
	Commit() error
	Rollback() error
}

// kvTree is one B+tree of a storage transaction.
type kvTree interface {
	Get(key []byte) ([]byte, bool, error)
	Put(key, val []byte) error
	Delete(key []byte) (bool, error)
	Cursor() kvCursor
	Count() (int64, error)
}

// kvCursorIn is a kvTree that can open a cursor in the memory of a closed
// one (the storage binding can), saving an allocation per scan.
type kvCursorIn interface {
	cursorIn(old kvCursor) kvCursor
}

// kvBatchDeleter is implemented by trees that delete many sorted keys in
// one pass, modifying each leaf page once.
type kvBatchDeleter interface {
	DeleteSorted(keys [][]byte) (int, error)
}

// kvPutOlder is implemented by trees that Put while appending the value
// the Put replaces to dst, in one descent.
type kvPutOlder interface {
	PutOld(key, val, dst []byte) (out []byte, existed bool, err error)
}

// kvCursor walks a tree in key order.
type kvCursor interface {
	First() bool
	Last() bool
	Seek(key []byte) bool
	Next() bool
	Prev() bool
	Key() []byte
	Value() ([]byte, error)
	Err() error
	Close()
}
