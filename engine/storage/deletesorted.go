package storage

import "fmt"

// DeleteSorted removes every key of keys, which must be in ascending
// bytes.Compare order (duplicates allowed), and reports how many were
// present. It descends once per run of keys that fall in one leaf, edits
// that leaf once (one pass over its slot array) and then rebalances it,
// so a batch costs a descent per leaf touched instead of one per key.
// Keys out of order give ErrInvalid before anything changes.
func (t *Tree) DeleteSorted(keys [][]byte) (n int, err error) {
	tx := t.tx
	defer tx.guard(&err)
	if err := tx.checkWrite(); err != nil {
		return 0, err
	}
	for i := 1; i < len(keys); i++ {
		if compareKeys(keys[i-1], keys[i]) > 0 {
			return 0, fmt.Errorf("%w: DeleteSorted keys out of order at %d", ErrInvalid, i)
		}
	}
	tx.w.hint.ok = false // the batch changes the shape; the hint path is not kept
	var pa path
	for i := 0; i < len(keys); {
		if err := tx.maybeSpill(); err != nil {
			return n, err
		}
		if err := t.descend(keys[i], &pa); err != nil {
			return n, err
		}
		end, err := tx.leafRunEnd(&pa, keys, i)
		if err != nil {
			return n, err
		}
		removed, err := tx.deleteLeafRun(&pa, keys[i:end])
		n += removed
		if err != nil {
			return n, tx.fail(err)
		}
		i = end
	}
	return n, nil
}

// leafRunEnd returns the index past the last key of keys[i:] that the leaf
// at the end of pa covers: keys below the separator of the nearest
// ancestor whose descent did not take the right child.
func (tx *Tx) leafRunEnd(pa *path, keys [][]byte, i int) (int, error) {
	var bound []byte
	for d := pa.depth - 1; d >= 0; d-- {
		n, err := tx.nodeQuiet(pa.ents[d].pg)
		if err != nil {
			return 0, err
		}
		if idx := pa.ents[d].idx; idx < n.count() {
			bound = n.branchKey(idx)
			break
		}
	}
	j := i + 1
	if bound == nil {
		return len(keys), nil
	}
	for j < len(keys) && compareKeys(keys[j], bound) < 0 {
		j++
	}
	return j, nil
}

// deleteLeafRun removes the present keys of run (all covered by the leaf
// at the end of pa) from that leaf in one edit, frees their overflow
// chains, and rebalances the leaf.
func (tx *Tx) deleteLeafRun(pa *path, run [][]byte) (int, error) {
	pg := pa.ents[pa.depth].pg
	n, err := tx.nodeQuiet(pg)
	if err != nil {
		return 0, err
	}
	idxs := tx.w.idxs[:0]
	lo := 0
	for _, k := range run {
		var i int
		var found bool
		if n.hasBigKeys() {
			i, found, err = tx.searchLeaf(n, k)
			if err != nil {
				return 0, err
			}
		} else {
			i, found = n.searchFrom(lo, k)
		}
		if found && (len(idxs) == 0 || idxs[len(idxs)-1] != i) {
			idxs = append(idxs, i)
		}
		lo = i
	}
	tx.w.idxs = idxs
	if len(idxs) == 0 {
		return 0, nil
	}
	w, err := tx.writable(pg)
	if err != nil {
		return 0, err
	}
	for _, i := range idxs {
		if e := w.leafCell(i); e.ovfl != 0 {
			if err := tx.freeOverflow(e.ovfl, e.chain); err != nil {
				return 0, err
			}
		}
	}
	w.removeCells(idxs)
	return len(idxs), tx.rebalance(pa, pa.depth)
}
