package storage

import "fmt"

// rebalance restores fill after a delete from the node at pa.ents[d]: an
// underfull node (less than a quarter used) merges with a sibling when
// both fit in one page, removing a separator from the parent, which may
// in turn merge; a root branch left with a single child absorbs it.
func (tx *Tx) rebalance(pa *path, d int) error {
	p := pa.ents[d].pg
	if d == 0 {
		return tx.collapseRoot(p)
	}
	n, err := tx.nodeQuiet(p)
	if err != nil {
		return err
	}
	if n.used() >= n.capacity()/4 {
		return nil
	}
	par := pa.ents[d-1]
	pn, err := tx.nodeQuiet(par.pg)
	if err != nil {
		return err
	}
	li := par.idx - 1
	if li < 0 {
		if pn.count() == 0 {
			return nil
		}
		li = 0
	}
	merged, err := tx.mergeChildren(par.pg, li)
	if err != nil || !merged {
		return err
	}
	return tx.rebalance(pa, d-1)
}

// mergeChildren merges child li+1 of branch pp into child li when both fit
// in one page, reporting whether it did.
func (tx *Tx) mergeChildren(pp uint32, li int) (bool, error) {
	pn, err := tx.nodeQuiet(pp)
	if err != nil {
		return false, err
	}
	lp, rp := pn.child(li), pn.child(li+1)
	L, err := tx.nodeQuiet(lp)
	if err != nil {
		return false, err
	}
	R, err := tx.nodeQuiet(rp)
	if err != nil {
		return false, err
	}
	if err := treeNode(lp, L); err != nil {
		return false, err
	}
	if L.typ() != R.typ() {
		return false, fmt.Errorf("%w: siblings %d and %d have types %d and %d", ErrCorrupt, lp, rp, L.typ(), R.typ())
	}
	var sepCell []byte
	need := R.used()
	if !L.isLeaf() {
		sepCell = appendBranchCell(nil, L.right(), pn.branchKey(li))
		need += len(sepCell) + slotSize
	}
	if L.used()+need > L.capacity() {
		return false, nil
	}
	w, err := tx.writable(lp)
	if err != nil {
		return false, err
	}
	if sepCell != nil {
		w.insertCell(w.count(), sepCell, tx.w.scratch)
	}
	for j := 0; j < R.count(); j++ {
		w.insertCell(w.count(), R.cellBytes(j), tx.w.scratch)
	}
	if !w.isLeaf() {
		w.setRight(R.right())
	}
	w[1] |= R[1] & nodeFlagBigKeys
	wp, err := tx.writable(pp)
	if err != nil {
		return false, err
	}
	wp.removeCell(li)
	wp.setChild(li, lp)
	return true, tx.free(rp)
}

// collapseRoot replaces a root branch that has no separators by its only
// child's contents, keeping the root's page number.
func (tx *Tx) collapseRoot(root uint32) error {
	for range maxDepth {
		n, err := tx.nodeQuiet(root)
		if err != nil {
			return err
		}
		if n.typ() != typeBranch || n.count() > 0 {
			return nil
		}
		c := n.right()
		cn, err := tx.nodeQuiet(c)
		if err != nil {
			return err
		}
		if err := treeNode(c, cn); err != nil {
			return err
		}
		w, err := tx.writable(root)
		if err != nil {
			return err
		}
		copy(w, cn)
		if err := tx.free(c); err != nil {
			return err
		}
	}
	return nil
}
