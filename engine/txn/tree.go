package txn

// TxTree is one B+tree (a table's rows or an index's entries) as a transaction
// sees it: the storage tree minus the keys this transaction tombstoned.
//
// Delete buffers a tombstone without looking the key up (the caller found
// the row it deletes), so a tombstone may be unverified: its key might be
// absent from storage. Invariant: every verified tombstone's key exists in
// the write transaction's storage tree. Remove and ClearTree verify, Count
// verifies the rest (dropping phantom ones), a Put on a tombstoned key
// cancels the tombstone, and undo reverts in reverse order, so Count is
// exact.
type TxTree struct {
	tx   *Tx
	root uint32

	tombs tombSet // pending tombstones

	// created: CreateTree of this tx made it, and its undo entry is
	// entries[createdAt] of undo epoch createdEpoch.
	created      bool
	createdAt    int
	createdEpoch uint64

	dropped bool   // DropTree pending: freed at commit
	dead    bool   // its creation was undone
	hooked  bool   // its tombstone hooks are registered (see hookTombs)
	version uint64 // incremented by every storage write to this tree; cursors re-seek on change

	st    kvTree // storage tree of tx.cur(), valid while stGen == tx.gen
	stGen uint64
}

// Root returns the tree's root page.
func (t *TxTree) Root() uint32 { return t.root }

// alive returns the error of a dropped or uncreated tree.
func (t *TxTree) alive() error {
	if t.dropped || t.dead {
		return ErrTreeDropped
	}
	return nil
}

// storage returns the storage tree of the transaction's current storage tx.
func (t *TxTree) storage() kvTree {
	if t.st == nil || t.stGen != t.tx.gen {
		t.st = t.tx.cur().Tree(t.root)
		t.stGen = t.tx.gen
	}
	return t.st
}

func (t *TxTree) readable() error {
	if err := t.tx.beginRead(); err != nil {
		return err
	}
	return t.alive()
}

func (t *TxTree) writable() error {
	if err := t.tx.beginWrite(); err != nil {
		return err
	}
	return t.alive()
}

// tombstoned reports whether key has a pending tombstone.
func (t *TxTree) tombstoned(key []byte) bool { return t.tombs.get(key) != tsNone }

// Get returns the value of key, or ok false when it is absent or
// tombstoned. The value is valid until the next write in the transaction;
// copy it to keep it.
func (t *TxTree) Get(key []byte) ([]byte, bool, error) {
	if err := t.readable(); err != nil {
		return nil, false, err
	}
	if t.tombstoned(key) {
		return nil, false, nil
	}
	v, ok, err := t.storage().Get(key)
	return v, ok, wrapStorage(t.tx.m.store, "get", err)
}

// Put inserts or overwrites key in the write transaction's private pages,
// cancelling a pending tombstone on key.
func (t *TxTree) Put(key, val []byte) error { return t.put(key, val, false) }

// Insert is Put for a key the caller knows is absent as this transaction
// sees it (it just looked it up, or the key is a fresh rowid). It skips the
// lookup Put makes to record the old value for undo; inserting a present
// key this way would make an undo delete it.
func (t *TxTree) Insert(key, val []byte) error { return t.put(key, val, true) }

func (t *TxTree) put(key, val []byte, absent bool) error {
	if err := t.writable(); err != nil {
		return err
	}
	st := t.storage()
	tombed := t.tombstoned(key)
	written := false
	if t.tx.undoing() && !t.fresh() {
		var err error
		if written, err = t.logPut(st, key, val, absent && !tombed); err != nil {
			return err
		}
	}
	if tombed {
		old, k := t.tombs.set(key, tsNone, t.tx.keys.str)
		t.tx.log(undoEntry{op: opUntomb, root: t.root, key: k, existed: old == tsVerified})
	}
	t.version++
	if written {
		return nil
	}
	return wrapStorage(t.tx.m.store, "put", st.Put(key, val))
}

// logPut records the value key had before a Put of val, for undo. A tree
// that can hand over the old value while it writes (kvPutOlder) does the
// Put itself, in one descent: written reports that.
func (t *TxTree) logPut(st kvTree, key, val []byte, absent bool) (written bool, err error) {
	if absent {
		t.tx.undo.addPut(t.root, key, nil, false)
		return false, nil
	}
	if po, ok := st.(kvPutOlder); ok {
		return true, wrapStorage(t.tx.m.store, "put", t.tx.undo.putLogged(po, t.root, key, val))
	}
	old, existed, err := st.Get(key)
	if err != nil {
		return false, wrapStorage(t.tx.m.store, "put", err)
	}
	t.tx.undo.addPut(t.root, key, old, existed)
	return false, nil
}

// fresh reports whether the tree was created after the newest undo point:
// any undo that reaches its writes drops the whole tree, so they need no
// undo entries (CREATE TABLE … AS, CREATE INDEX build without the cost).
func (t *TxTree) fresh() bool {
	return t.created && t.createdEpoch == t.tx.undo.epoch && t.createdAt >= t.tx.markTop()
}

// Delete removes key as this transaction sees it: it buffers a tombstone,
// without looking the key up (the caller found the row it deletes), and
// no storage page changes until the commit applies the tree's tombstones
// leaf by leaf (see hookTombs). Keys may come in any order: a key above
// every key of the tree's tombstone run (a scan, a sorted batch) is
// appended to the run, any other goes to the set's hash table. Deleting
// an absent or already deleted key is a no-op. Use Remove to learn
// whether the key was there.
func (t *TxTree) Delete(key []byte) error {
	if err := t.writable(); err != nil {
		return err
	}
	t.delete(key, tsUnverified)
	return nil
}

// Remove is Delete that also reports whether key was present.
func (t *TxTree) Remove(key []byte) (bool, error) {
	if err := t.writable(); err != nil {
		return false, err
	}
	if t.tombstoned(key) {
		return false, nil
	}
	_, ok, err := t.storage().Get(key)
	if err != nil || !ok {
		return false, wrapStorage(t.tx.m.store, "delete", err)
	}
	t.delete(key, tsVerified)
	return true, nil
}

// delete tombstones key in state st unless it is tombstoned already. The
// tree's first tombstone registers its commit and rollback hooks.
func (t *TxTree) delete(key []byte, st tombState) {
	if !t.hooked {
		t.hookTombs()
	}
	before := t.tombs.bytes()
	if t.tombs.add(key, st) {
		t.tx.logTomb(t.root)
	}
	t.tx.tombBytes += t.tombs.bytes() - before
}

// dropTombs empties the tombstone buffer.
func (t *TxTree) dropTombs() { t.tombs = tombSet{} }

// verify looks up every unverified tombstone: a key that exists is marked
// verified, a phantom one (a Delete of an absent key) is dropped.
func (t *TxTree) verify() error {
	if t.tombs.unverified == 0 {
		return nil
	}
	st := t.storage()
	return t.tombs.verify(func(key []byte) (bool, error) {
		_, ok, err := st.Get(key)
		return ok, wrapStorage(t.tx.m.store, "count", err)
	})
}

// Count returns the number of entries visible to the transaction.
func (t *TxTree) Count() (int64, error) {
	if err := t.readable(); err != nil {
		return 0, err
	}
	if err := t.verify(); err != nil {
		return 0, err
	}
	n, err := t.storage().Count()
	if err != nil {
		return 0, wrapStorage(t.tx.m.store, "count", err)
	}
	return n - int64(t.tombs.live), nil
}

// clear tombstones every visible entry (ClearTree).
func (t *TxTree) clear() error {
	if err := t.alive(); err != nil {
		return err
	}
	c := t.storage().Cursor()
	defer c.Close()
	for ok := c.First(); ok; ok = c.Next() {
		if !t.tombstoned(c.Key()) {
			t.delete(c.Key(), tsVerified)
		}
	}
	return wrapStorage(t.tx.m.store, "clear tree", c.Err())
}
