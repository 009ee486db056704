package txn

// Tree is one B+tree (a table's rows or an index's entries) as a transaction
// sees it: the storage tree minus the keys this transaction tombstoned.
//
// Invariant: every key in tombs exists in the storage tree of the write
// transaction. Delete checks it, a Put on a tombstoned key cancels the
// tombstone, and undo reverts in reverse order, so Count is exact.
type Tree struct {
	tx   *Tx
	root uint32

	tombs map[string]struct{} // pending tombstones
	order []string            // tombstone keys in the order added; may hold cancelled keys and repeats

	dropped bool   // DropTree pending: freed at commit
	dead    bool   // its creation was undone
	version uint64 // incremented by every storage write to this tree; cursors re-seek on change

	st    kvTree // storage tree of tx.cur(), valid while stGen == tx.gen
	stGen uint64
}

// Root returns the tree's root page.
func (t *Tree) Root() uint32 { return t.root }

// alive returns the error of a dropped or uncreated tree.
func (t *Tree) alive() error {
	if t.dropped || t.dead {
		return ErrTreeDropped
	}
	return nil
}

// storage returns the storage tree of the transaction's current storage tx.
func (t *Tree) storage() kvTree {
	if t.st == nil || t.stGen != t.tx.gen {
		t.st = t.tx.cur().Tree(t.root)
		t.stGen = t.tx.gen
	}
	return t.st
}

func (t *Tree) readable() error {
	if err := t.tx.beginRead(); err != nil {
		return err
	}
	return t.alive()
}

func (t *Tree) writable() error {
	if err := t.tx.beginWrite(); err != nil {
		return err
	}
	return t.alive()
}

// tombstoned reports whether key has a pending tombstone.
func (t *Tree) tombstoned(key []byte) bool {
	if len(t.tombs) == 0 {
		return false
	}
	_, ok := t.tombs[string(key)]
	return ok
}

// Get returns the value of key, or ok false when it is absent or
// tombstoned. The value is valid until the next write in the transaction;
// copy it to keep it.
func (t *Tree) Get(key []byte) ([]byte, bool, error) {
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
func (t *Tree) Put(key, val []byte) error {
	if err := t.writable(); err != nil {
		return err
	}
	st := t.storage()
	if t.tx.undoing() {
		old, existed, err := st.Get(key)
		if err != nil {
			return wrapStorage(t.tx.m.store, "put", err)
		}
		t.tx.undo.addPut(t.root, key, old, existed)
	}
	if t.tombstoned(key) {
		k := t.untomb(string(key))
		t.tx.log(undoEntry{op: opUntomb, root: t.root, key: k})
	}
	t.version++
	return wrapStorage(t.tx.m.store, "put", st.Put(key, val))
}

// Delete removes key as this transaction sees it by buffering a tombstone;
// no storage page changes until Commit. Deleting an absent or already
// deleted key is a no-op.
func (t *Tree) Delete(key []byte) error {
	_, err := t.Remove(key)
	return err
}

// Remove is Delete that also reports whether key was present.
func (t *Tree) Remove(key []byte) (bool, error) {
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
	t.addTomb(string(key))
	return true, nil
}

// addTomb buffers a tombstone on a key known to exist, logging it.
func (t *Tree) addTomb(k string) {
	t.tomb(k)
	t.tx.log(undoEntry{op: opTomb, root: t.root, key: k})
}

// tomb adds k to the tombstone set.
func (t *Tree) tomb(k string) {
	if t.tombs == nil {
		t.tombs = make(map[string]struct{})
	}
	t.tombs[k] = struct{}{}
	t.order = append(t.order, k)
}

// untomb removes k from the set and returns the stored key string. When k
// is the newest tombstone (undo of the latest Delete) it leaves order too.
func (t *Tree) untomb(k string) string {
	delete(t.tombs, k)
	if n := len(t.order); n > 0 && t.order[n-1] == k {
		k = t.order[n-1]
		t.order = t.order[:n-1]
	}
	return k
}

// Count returns the number of entries visible to the transaction.
func (t *Tree) Count() (int64, error) {
	if err := t.readable(); err != nil {
		return 0, err
	}
	n, err := t.storage().Count()
	if err != nil {
		return 0, wrapStorage(t.tx.m.store, "count", err)
	}
	return n - int64(len(t.tombs)), nil
}

// clear tombstones every visible entry (ClearTree).
func (t *Tree) clear() error {
	if err := t.alive(); err != nil {
		return err
	}
	c := t.storage().Cursor()
	defer c.Close()
	for ok := c.First(); ok; ok = c.Next() {
		if !t.tombstoned(c.Key()) {
			t.addTomb(string(c.Key()))
		}
	}
	return wrapStorage(t.tx.m.store, "clear tree", c.Err())
}
