package txn

// Stats describe one transaction's write set and what its commit did.
type Stats struct {
	// TombstonesBuffered is the number of tombstones pending now.
	TombstonesBuffered int64
	// TombstonesApplied is the number of keys the commit's tombstone hooks
	// deleted from storage. Every delete of a write transaction is
	// buffered, so this is every key the transaction deleted.
	TombstonesApplied int64
	// ApplyRuns counts the tombstone hooks that ran: one per tree with
	// tombstones at commit.
	ApplyRuns int64
	// PagesModified is the number of pages the tombstone apply modified, from
	// the store's page counters. Contiguous keys give about keys ÷ keys-per-page.
	// Applies of fewer than 128 keys are not measured (reading the counters
	// scans the page cache) and count one page per key, an upper bound.
	PagesModified int64
	// StatementsUndone counts statements whose effects were undone.
	StatementsUndone int64
	// SavepointsRolled counts ROLLBACK TO operations.
	SavepointsRolled int64
	// UndoEntries is the current length of the undo log.
	UndoEntries int
}

// Stats returns the transaction's counters.
func (tx *Tx) Stats() Stats {
	s := tx.stats
	s.TombstonesBuffered = 0
	for _, t := range tx.trees {
		s.TombstonesBuffered += int64(t.tombs.live)
	}
	s.UndoEntries = len(tx.undo.entries)
	return s
}
