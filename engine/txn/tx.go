package txn

import (
	"context"
	"slices"

	"github.com/ladybugsql/ladybug/engine/storage"
)

// Tx is one SQL transaction, explicit or autocommit. It is not safe for
// concurrent use; database/sql gives each connection one goroutine.
type Tx struct {
	m    *Manager
	opts Options
	ctx  context.Context // of the current statement; bounds the writer-lock wait

	// rtx is the read snapshot of a deferred transaction, taken at its first
	// statement. It stays open after the upgrade to wtx so cursors opened
	// on it remain valid; wtx's snapshot equals it (checked at the upgrade).
	rtx kvTx
	// wtx is the storage write transaction, nil until the first write.
	wtx kvTx
	gen uint64 // incremented whenever rtx or wtx changes; invalidates cached trees
	// stripe is where the Manager counts this Tx's end (see endStripes):
	// chosen when the Tx is made, kept when it is reused.
	stripe uint8

	trees  []*TxTree          // every tree this tx touched, in first-touch order
	byRoot map[uint32]*TxTree // index of trees once it outgrows a linear search
	keys   keyArena           // tombstone key strings
	// tombBytes is what the trees' tombstone buffers have grown by, which
	// they hold until commit (TombstoneBytes).
	tombBytes int64

	undo       undoLog
	stmts      []stmtMark  // open statements, innermost last
	savepoints []savepoint // innermost last
	hooks      []hook

	stats  Stats
	broken error // set when an undo failed: only Rollback is safe
	done   bool

	// First backing stores, so that a statement reading one tree (a point
	// lookup) allocates no Tree, tree list or statement mark.
	tree0   TxTree
	treeArr [linearTrees]*TxTree
	stmtArr [2]stmtMark
	// ... and so that a one-row write (an autocommit INSERT) records its
	// undo entry without allocating.
	undoArr  [2]undoEntry
	arenaArr [32]byte
	// rtxRoom holds the first read snapshot's storage transaction, wtxRoom
	// the first write's.
	rtxRoom     storage.Tx
	rtxRoomUsed bool
	wtxRoom     storage.Tx
	wtxRoomUsed bool
}

// linearTrees is how many trees Tree finds by a linear search before it
// indexes them in a map.
const linearTrees = 8

// newTx returns a transaction of m, not yet begun.
func newTx(m *Manager, o Options, ctx context.Context) *Tx {
	tx := &Tx{stripe: uint8(m.total.nextStripe.Add(1))}
	initTx(tx, m, o, ctx)
	return tx
}

// initTx readies the zero Tx tx as a transaction of m, not yet begun.
func initTx(tx *Tx, m *Manager, o Options, ctx context.Context) {
	tx.m, tx.opts, tx.ctx = m, o, ctx
	tx.trees, tx.stmts = tx.treeArr[:0], tx.stmtArr[:0]
	tx.undo.entries, tx.undo.arena = tx.undoArr[:0], tx.arenaArr[:0]
}

// cur returns the storage transaction reads go to: the write tx once there
// is one (it sees this transaction's own writes), else the snapshot.
func (tx *Tx) cur() kvTx {
	if tx.wtx != nil {
		return tx.wtx
	}
	return tx.rtx
}

// Writable reports whether the transaction holds the writer lock.
func (tx *Tx) Writable() bool { return tx.wtx != nil }

// ReadOnly reports whether the transaction was begun read-only.
func (tx *Tx) ReadOnly() bool { return tx.opts.ReadOnly }

// Snapshot returns the commit sequence number the transaction reads, or 0
// before its first statement.
func (tx *Tx) Snapshot() uint64 {
	if c := tx.cur(); c != nil {
		return c.Snapshot()
	}
	return 0
}

// Done reports whether the transaction has been committed or rolled back.
func (tx *Tx) Done() bool { return tx.done }

// usable returns the error that forbids further work, if any.
func (tx *Tx) usable() error {
	if tx.done {
		return ErrTxDone
	}
	return tx.broken
}

// Tree returns the tree at root as this transaction sees it. The same *TxTree
// is returned for the same root for the life of the transaction.
func (tx *Tx) Tree(root uint32) *TxTree {
	if i := tx.treeIndex(root); i >= 0 {
		return tx.trees[i]
	}
	return tx.putTree(root)
}

// treeIndex returns the position of root's tree in tx.trees, or -1.
func (tx *Tx) treeIndex(root uint32) int {
	if tx.byRoot == nil {
		for i, t := range tx.trees {
			if t.root == root {
				return i
			}
		}
		return -1
	}
	if t, ok := tx.byRoot[root]; ok {
		return slices.Index(tx.trees, t)
	}
	return -1
}

// putTree records a fresh Tree for root, replacing any earlier one (a
// tree whose creation was undone, its root page created again).
func (tx *Tx) putTree(root uint32) *TxTree {
	t := &tx.tree0
	if len(tx.trees) > 0 {
		t = &TxTree{}
	}
	*t = TxTree{tx: tx, root: root}
	if i := tx.treeIndex(root); i >= 0 {
		tx.trees[i] = t
	} else {
		tx.trees = append(tx.trees, t)
	}
	if tx.byRoot != nil {
		tx.byRoot[root] = t
	} else if len(tx.trees) > linearTrees {
		tx.byRoot = make(map[uint32]*TxTree, 2*len(tx.trees))
		for _, x := range tx.trees {
			tx.byRoot[x.root] = x
		}
	}
	return t
}

// CreateTree creates an empty tree and returns its root page. Undoing the
// statement or savepoint that created it drops it again.
func (tx *Tx) CreateTree() (uint32, error) {
	if err := tx.beginWrite(); err != nil {
		return 0, err
	}
	root, err := tx.wtx.CreateTree()
	if err != nil {
		return 0, wrapStorage(tx.m.store, "create tree", err)
	}
	t := tx.putTree(root)
	if tx.undoing() {
		t.created, t.createdAt, t.createdEpoch = true, len(tx.undo.entries), tx.undo.epoch
		tx.undo.add(undoEntry{op: opCreate, root: root})
	}
	return root, nil
}

// DropTree drops the tree at root. The drop is buffered like a tombstone:
// the tree's pages are freed by the commit, and a rollback leaves it intact.
func (tx *Tx) DropTree(root uint32) error {
	if err := tx.beginWrite(); err != nil {
		return err
	}
	t := tx.Tree(root)
	if err := t.alive(); err != nil {
		return err
	}
	t.dropped = true
	tx.log(undoEntry{op: opDrop, root: root})
	return nil
}

// ClearTree deletes every entry of the tree at root, as tombstones.
func (tx *Tx) ClearTree(root uint32) error {
	if err := tx.beginWrite(); err != nil {
		return err
	}
	return tx.Tree(root).clear()
}

// Meta returns header slot slot (see storage: 0 catalog root, 1 schema
// cookie, 2 user_version, 3 application_id, the rest the engine's). It
// returns 0 when no snapshot can be taken; StartStatement, which takes the
// snapshot first, reports that error.
func (tx *Tx) Meta(slot int) uint64 {
	if tx.beginRead() != nil {
		return 0
	}
	return tx.cur().Meta(slot)
}

// SetMeta sets header slot slot; undone with the statement or savepoint.
func (tx *Tx) SetMeta(slot int, v uint64) error {
	if err := tx.beginWrite(); err != nil {
		return err
	}
	old := tx.wtx.Meta(slot)
	if err := tx.wtx.SetMeta(slot, v); err != nil {
		return wrapStorage(tx.m.store, "set meta", err)
	}
	tx.log(undoEntry{op: opMeta, slot: slot, meta: old})
	return nil
}

// log records e when some statement or savepoint may need to undo it.
func (tx *Tx) log(e undoEntry) {
	if tx.undoing() {
		tx.undo.add(e)
	}
}

// logTomb records a tombstone added to root.
func (tx *Tx) logTomb(root uint32) {
	if tx.undoing() {
		tx.undo.addTomb(root)
	}
}

// markTop returns the position of the newest undo point, 0 when none.
func (tx *Tx) markTop() int {
	top := 0
	if n := len(tx.stmts); n > 0 {
		top = tx.stmts[n-1].pos.entries
	}
	if n := len(tx.savepoints); n > 0 {
		top = max(top, tx.savepoints[n-1].pos.entries)
	}
	return top
}

// undoing reports whether writes must be recorded: an undo point is open.
func (tx *Tx) undoing() bool { return len(tx.stmts) > 0 || len(tx.savepoints) > 0 }

// sortedTrees returns the touched trees that keep accepts, in root order,
// for deterministic commits.
func (tx *Tx) sortedTrees(keep func(*TxTree) bool) []*TxTree {
	var ts []*TxTree
	for _, t := range tx.trees {
		if keep(t) {
			ts = append(ts, t)
		}
	}
	slices.SortFunc(ts, func(a, b *TxTree) int { return int(int64(a.root) - int64(b.root)) })
	return ts
}

// TombstoneBytes is the memory the transaction's pending deletes have
// taken so far: the tombstone buffers of its trees, held until commit or
// rollback. It only grows; a statement's share is the difference across
// it.
func (tx *Tx) TombstoneBytes() int64 {
	if tx == nil {
		return 0
	}
	return tx.tombBytes
}

// approxCounter is a storage transaction that estimates a tree's entries
// from one root-to-leaf path (storage.Tx.ApproxCount).
type approxCounter interface {
	ApproxCount(root uint32) (int64, error)
}

// ApproxCount estimates the entries of the tree at root as the
// transaction's storage sees it (its own writes included, its buffered
// deletes not), reading a page per tree level. ok is false before the
// transaction's first statement, when it has no snapshot yet, and when
// the estimate fails (a damaged page: the statement reading the tree
// reports that).
func (tx *Tx) ApproxCount(root uint32) (n int64, ok bool) {
	c, isCounter := tx.cur().(approxCounter)
	if !isCounter || tx.done {
		return 0, false
	}
	n, err := c.ApproxCount(root)
	return n, err == nil
}
