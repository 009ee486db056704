package txn

// undoOp names one logical operation recorded in the undo log.
type undoOp uint8

const (
	opPut    undoOp = iota + 1 // storage Put or Delete; undo restores the old value or deletes the key
	opTomb                     // n tombstones added to one tree; undo pops them
	opUntomb                   // tombstone cancelled by a Put; undo re-adds it
	opCreate                   // tree created; undo drops it from storage
	opDrop                     // tree marked dropped; undo unmarks it
	opMeta                     // meta slot set; undo restores the old value
	opHook                     // hook registered; undo unregisters it (running a rollback hook)
)

// undoEntry is one record of the undo log. Keys and old values of opPut
// live in the log's arena so recording a write allocates nothing per row.
type undoEntry struct {
	op      undoOp
	existed bool   // opPut: the key had a value before the Put; opUntomb: the tombstone was verified
	root    uint32 // tree of opPut, opTomb, opUntomb, opCreate, opDrop
	slot    int    // opMeta: the slot; opTomb: how many tombstones
	meta    uint64 // opMeta: old value
	key     string // opUntomb: the tombstone's key (shared with the set)
	koff    int    // opPut: key at arena[koff:voff], old value at arena[voff:vend]
	voff    int
	vend    int
}

// undoPos is a position in the undo log: a statement start or a savepoint.
// Undoing to a position reverts, newest first, every entry after it.
type undoPos struct {
	entries int
	arena   int
}

// undoLog records logical operations in the order they were applied.
// Invariant: arena holds exactly the bytes of the opPut entries present.
type undoLog struct {
	entries []undoEntry
	arena   []byte
	// barrier: entries before it may not be extended, because an undo
	// point may sit right after them. Raised to len(entries) whenever an
	// undo point is taken or the log is rewound.
	barrier int
	epoch   uint64 // incremented by reset: positions of older epochs are void
}

// addTomb records one more tombstone on root, extending the previous entry
// when it is a run of tombstones on the same tree with no undo point after
// it.
func (u *undoLog) addTomb(root uint32) {
	if n := len(u.entries); n > u.barrier {
		if last := &u.entries[n-1]; last.op == opTomb && last.root == root {
			last.slot++
			return
		}
	}
	u.entries = append(u.entries, undoEntry{op: opTomb, root: root, slot: 1})
}

// pos returns the current position and makes it an undo point.
func (u *undoLog) pos() undoPos {
	u.barrier = len(u.entries)
	return undoPos{len(u.entries), len(u.arena)}
}

// addPut records a Put of key whose old value was old (existed false: none).
func (u *undoLog) addPut(root uint32, key, old []byte, existed bool) {
	koff := len(u.arena)
	u.arena = append(u.arena, key...)
	voff := len(u.arena)
	u.arena = append(u.arena, old...)
	u.entries = append(u.entries, undoEntry{
		op: opPut, root: root, existed: existed, koff: koff, voff: voff, vend: len(u.arena),
	})
}

// putLogged puts key = val through po and records the Put with the value it
// replaced, which po appends straight into the arena. The entry is kept
// even when the Put fails part-way (the storage transaction is then
// failed, and undo can only break it).
func (u *undoLog) putLogged(po kvPutOlder, root uint32, key, val []byte) error {
	koff := len(u.arena)
	u.arena = append(u.arena, key...)
	voff := len(u.arena)
	arena, existed, err := po.PutOld(key, val, u.arena)
	u.arena = arena
	u.entries = append(u.entries, undoEntry{
		op: opPut, root: root, existed: existed, koff: koff, voff: voff, vend: len(u.arena),
	})
	return err
}

func (u *undoLog) add(e undoEntry) { u.entries = append(u.entries, e) }

// putKey and putOld return the bytes of an opPut entry.
func (u *undoLog) putKey(e *undoEntry) []byte { return u.arena[e.koff:e.voff:e.voff] }
func (u *undoLog) putOld(e *undoEntry) []byte { return u.arena[e.voff:e.vend:e.vend] }

// truncate drops every entry after p without undoing it.
func (u *undoLog) truncate(p undoPos) {
	clear(u.entries[p.entries:])
	u.entries = u.entries[:p.entries]
	u.arena = u.arena[:p.arena]
	u.barrier = min(u.barrier, p.entries)
}

// reset empties the log, keeping small buffers for reuse.
func (u *undoLog) reset() {
	const keep = 1 << 16
	if cap(u.arena) > keep {
		u.arena = nil
	}
	if cap(u.entries) > keep/64 {
		u.entries = nil
	}
	u.truncate(undoPos{})
	u.epoch++
}

// undoTo reverts, newest first, every entry recorded after p. A storage
// error leaves the transaction broken: only Rollback is then safe.
func (tx *Tx) undoTo(p undoPos) error {
	for i := len(tx.undo.entries) - 1; i >= p.entries; i-- {
		if err := tx.revert(&tx.undo.entries[i]); err != nil {
			tx.broken = err
			return err
		}
	}
	tx.undo.truncate(p)
	return nil
}

// revert undoes one entry.
func (tx *Tx) revert(e *undoEntry) error {
	switch e.op {
	case opPut:
		return tx.revertPut(e)
	case opTomb:
		tx.Tree(e.root).tombs.pop(e.slot)
	case opUntomb:
		st := tsUnverified
		if e.existed {
			st = tsVerified
		}
		tx.Tree(e.root).tombs.set(sbytes(e.key), st, func([]byte) string { return e.key })
	case opCreate:
		t := tx.Tree(e.root)
		t.dead = true
		t.dropTombs()
		return wrapStorage(tx.m.store, "undo create tree", tx.wtx.DropTree(e.root))
	case opDrop:
		tx.Tree(e.root).dropped = false
	case opMeta:
		return wrapStorage(tx.m.store, "undo set meta", tx.wtx.SetMeta(e.slot, e.meta))
	case opHook:
		tx.popHook()
	}
	return nil
}

// revertPut restores the value a Put replaced, or removes the key it added.
func (tx *Tx) revertPut(e *undoEntry) error {
	t := tx.Tree(e.root)
	st := t.storage()
	t.version++
	key := tx.undo.putKey(e)
	if e.existed {
		return wrapStorage(tx.m.store, "undo put", st.Put(key, tx.undo.putOld(e)))
	}
	_, err := st.Delete(key)
	return wrapStorage(tx.m.store, "undo put", err)
}
