package txn

// beginRead makes sure the transaction has a snapshot: a deferred one takes
// the newest snapshot at its first read.
func (tx *Tx) beginRead() error {
	if err := tx.usable(); err != nil {
		return err
	}
	if tx.cur() != nil {
		return nil
	}
	var r kvTx
	var err error
	if in, ok := tx.m.store.(kvReadIn); ok && !tx.rtxRoomUsed {
		tx.rtxRoomUsed = true // the room holds one transaction, ever
		r, err = in.beginReadIn(&tx.rtxRoom)
	} else {
		r, err = tx.m.store.BeginRead()
	}
	if err != nil {
		return wrapStorage(tx.m.store, "begin read", err)
	}
	tx.rtx = r
	tx.gen++
	return nil
}

// beginWrite makes sure the transaction holds the writer lock. A deferred
// transaction that already read must still be on the newest snapshot:
// otherwise writing would overwrite commits it never saw, so it fails with a
// busy-snapshot error and stays a (still consistent) reader.
func (tx *Tx) beginWrite() error {
	if err := tx.usable(); err != nil {
		return err
	}
	if tx.wtx != nil {
		return nil
	}
	if tx.opts.ReadOnly {
		return errReadOnly()
	}
	return tx.lockWrite()
}

// lockWrite waits for the writer lock and checks the snapshot.
func (tx *Tx) lockWrite() error {
	var w kvTx
	var err error
	if in, ok := tx.m.store.(kvReadIn); ok && !tx.wtxRoomUsed {
		tx.wtxRoomUsed = true // the room holds one transaction, ever
		w, err = in.beginWriteIn(tx.ctx, &tx.wtxRoom)
	} else {
		w, err = tx.m.store.BeginWrite(tx.ctx)
	}
	if err != nil {
		return wrapStorage(tx.m.store, "begin write", err)
	}
	if tx.rtx != nil && w.Snapshot() != tx.rtx.Snapshot() {
		have, newest := tx.rtx.Snapshot(), w.Snapshot()
		_ = w.Rollback() // releases the lock; nothing was written
		tx.m.total.busySnapshot.Add(1)
		return errBusySnapshot(have, newest)
	}
	tx.wtx = w
	tx.gen++
	return nil
}
