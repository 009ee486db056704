package txn

// Commit makes the transaction's work durable. The recipe:
//
//  1. run the OnCommit hooks: first the functions, in registration order
//     (deferred checks, statistics), then the tombstone steps the trees
//     registered at their first tombstone, tree by tree in root order,
//     each deleting its keys sorted, leaf by leaf, so each leaf page is
//     modified once, after all of the transaction's writes;
//  2. free the pages of dropped trees;
//  3. release the read snapshot, so the commit may checkpoint;
//  4. commit the storage transaction (WAL append and sync).
//
// The tombstones are applied to the storage transaction's private pages,
// so until step 4 syncs the log's commit record nothing of them is
// durable: a crash between the hooks and the sync loses the whole
// transaction, never part of it.
//
// Any failure rolls everything back (running the OnRollback hooks) before
// Commit returns it; the transaction is finished either way.
func (tx *Tx) Commit() error {
	if tx.done {
		return ErrTxDone
	}
	if err := tx.commit(); err != nil {
		tx.rollback()
		return err
	}
	tx.finish(true)
	return nil
}

func (tx *Tx) commit() error {
	if tx.broken != nil {
		return tx.broken
	}
	// The statements are over; nothing can be undone piecemeal any more.
	tx.stmts, tx.savepoints = tx.stmts[:0], tx.savepoints[:0]
	tx.undo.reset()
	// 1. Hooks, the tombstone steps last.
	if err := tx.runCommitHooks(); err != nil {
		return err
	}
	if tx.wtx == nil {
		return nil // a reader: nothing to make durable
	}
	// 2. Dropped trees.
	if err := tx.applyDrops(); err != nil {
		return err
	}
	// 3. The snapshot: nothing reads it any more.
	if tx.rtx != nil {
		_ = tx.rtx.Rollback()
		tx.rtx = nil
	}
	// 4. Durability.
	if err := tx.wtx.Commit(); err != nil {
		return wrapStorage(tx.m.store, "commit", err)
	}
	tx.wtx = nil
	return nil
}

// Rollback discards the transaction: the storage write transaction (so
// nothing reaches the file) and the undo log; then the rollback hooks run,
// the trees' tombstone discards among them. Rolling back a finished transaction returns
// ErrTxDone.
func (tx *Tx) Rollback() error {
	if tx.done {
		return ErrTxDone
	}
	tx.rollback()
	return nil
}

func (tx *Tx) rollback() {
	if tx.wtx != nil {
		_ = tx.wtx.Rollback() // storage rollback is idempotent and cannot lose data
		tx.wtx = nil
	}
	tx.runRollbackHooks()
	tx.finish(false)
}

// finish releases the snapshot and records the transaction's totals.
func (tx *Tx) finish(committed bool) {
	if tx.rtx != nil {
		_ = tx.rtx.Rollback() // releasing a read snapshot
		tx.rtx = nil
	}
	tx.done = true
	tx.gen++
	tx.m.record(tx.stats, committed, tx.stripe)
	tx.undo = undoLog{}
	tx.hooks = nil
}
