package txn

import "slices"

// measureMin is the smallest apply whose modified pages are measured with
// the store's counters: reading them scans the page cache, which would
// dominate small commits. A smaller apply counts one page per key, an
// upper bound.
const measureMin = 128

// applyTombstones runs the tombstone commit steps the trees registered
// (hookTombs): one batched run per tree in root order, its keys sorted, so
// consecutive deletes land on the same leaf and each leaf page is
// modified once. Dropped trees are skipped (their pages are freed whole).
// The store's page counters give PagesModified.
func (tx *Tx) applyTombstones() error {
	pending := 0
	var trees []*TxTree
	for i := range tx.hooks {
		h := &tx.hooks[i]
		if t := h.tree; t != nil && h.onCommit && t.tombs.live > 0 {
			pending += t.tombs.live
			if !t.dropped && !t.dead {
				trees = append(trees, t)
			}
		}
	}
	if len(trees) == 0 {
		return nil
	}
	slices.SortFunc(trees, func(a, b *TxTree) int { return int(int64(a.root) - int64(b.root)) })
	measure := pending >= measureMin
	var before uint64
	if measure {
		before = tx.m.store.pagesModified()
	}
	for _, t := range trees {
		n, err := t.applyTombs()
		if err != nil {
			return err
		}
		tx.stats.TombstonesApplied += int64(n)
		tx.stats.ApplyRuns++
		if !measure {
			tx.stats.PagesModified += int64(n)
		}
	}
	if measure {
		tx.stats.PagesModified += int64(tx.m.store.pagesModified() - before)
	}
	return nil
}

// applyTombs deletes the tree's tombstones, sorted, and empties its buffer.
func (t *TxTree) applyTombs() (int, error) {
	keys := t.tombs.sorted()
	st := t.storage()
	t.dropTombs()
	t.version++
	if bd, ok := st.(kvBatchDeleter); ok {
		n, err := bd.DeleteSorted(keys)
		return n, wrapStorage(t.tx.m.store, "apply tombstones", err)
	}
	n := 0
	for _, k := range keys {
		found, err := st.Delete(k)
		if err != nil {
			return 0, wrapStorage(t.tx.m.store, "apply tombstones", err)
		}
		if found {
			n++
		}
	}
	return n, nil
}

// applyDrops frees the pages of the trees dropped by this transaction.
func (tx *Tx) applyDrops() error {
	for _, t := range tx.sortedTrees(func(t *TxTree) bool { return t.dropped && !t.dead }) {
		if err := tx.wtx.DropTree(t.root); err != nil {
			return wrapStorage(tx.m.store, "drop tree", err)
		}
		t.dead = true
	}
	return nil
}
