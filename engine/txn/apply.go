package txn

import (
	"slices"
	"strings"
)

// measureMin is the smallest apply whose modified pages are measured with
// the store's counters: reading them scans the page cache, which would
// dominate small commits. A smaller apply counts one page per key, an
// upper bound.
const measureMin = 128

// applyTombstones deletes every pending tombstone from storage: one batched
// run per tree, keys sorted, so consecutive deletes land on the same leaf
// and each leaf page is modified once. Dropped trees are skipped (their
// pages are freed whole). The store's page counters give PagesModified.
func (tx *Tx) applyTombstones() error {
	pending := 0
	trees := tx.sortedTrees(func(t *Tree) bool {
		pending += len(t.tombs)
		return len(t.tombs) > 0 && !t.dropped && !t.dead
	})
	if len(trees) == 0 {
		return nil
	}
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

// applyTombs deletes the tree's tombstones and empties its buffer.
func (t *Tree) applyTombs() (int, error) {
	keys := t.sortedTombs()
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

// sortedTombs returns the pending tombstones in key order without repeats.
// Deletes usually arrive in key order (a scan), so sorting is skipped when
// the buffer already is.
func (t *Tree) sortedTombs() [][]byte {
	live := t.order[:0:0]
	if len(t.order) == len(t.tombs) {
		live = t.order // no cancelled keys or repeats
	} else {
		live = make([]string, 0, len(t.tombs))
		for _, k := range t.order {
			if _, ok := t.tombs[k]; ok {
				live = append(live, k)
			}
		}
	}
	if !slices.IsSorted(live) {
		live = slices.Clone(live)
		slices.Sort(live)
	}
	size := 0
	for _, k := range live {
		size += len(k)
	}
	arena := make([]byte, 0, size) // one allocation for all keys
	keys := make([][]byte, 0, len(t.tombs))
	for i, k := range live {
		if i > 0 && strings.Compare(live[i-1], k) == 0 {
			continue
		}
		start := len(arena)
		arena = append(arena, k...)
		keys = append(keys, arena[start:len(arena):len(arena)])
	}
	return keys
}

// applyDrops frees the pages of the trees dropped by this transaction.
func (tx *Tx) applyDrops() error {
	for _, t := range tx.sortedTrees(func(t *Tree) bool { return t.dropped && !t.dead }) {
		if err := tx.wtx.DropTree(t.root); err != nil {
			return wrapStorage(tx.m.store, "drop tree", err)
		}
		t.dead = true
	}
	return nil
}
