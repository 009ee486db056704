package storage

import (
	"encoding/binary"
	"fmt"
)

// split inserts cell at index i of the full node at pa.ents[d]: the node
// keeps the lower part of its cells in place (its page number, and so a
// root's, never changes), a new right sibling takes the rest, and the
// parent gets a separator, splitting in turn when it is full.
func (tx *Tx) split(pa *path, d, i int, cell []byte) error {
	if d == 0 {
		if err := tx.growRoot(pa); err != nil {
			return err
		}
		d = 1
	}
	p := pa.ents[d].pg
	n, err := tx.writable(p)
	if err != nil {
		return err
	}
	if n.isLeaf() && pa.rightmost && i == n.count() && n.count() > 0 {
		return tx.splitAppend(pa, d, n, cell)
	}
	old := node(tx.w.copyBuf)
	copy(old, n)
	cells := tx.gatherCells(old, i, cell)
	appendMode := old.isLeaf() && pa.rightmost && i == old.count()
	k := splitPoint(cells, appendMode, old.isLeaf())
	var sep []byte
	if old.isLeaf() {
		if sep, err = tx.separator(cells[k-1], cells[k]); err != nil {
			return err
		}
	}
	q, r, err := tx.allocNode()
	if err != nil {
		return err
	}
	if old.isLeaf() {
		fillNode(r, typeLeaf, cells[k:], tx.w.scratch)
		fillNode(n, typeLeaf, cells[:k], tx.w.scratch)
		if old.hasBigKeys() || cellHasBigKey(cell, tx.s.ps) {
			r[1] |= nodeFlagBigKeys
			n[1] |= nodeFlagBigKeys
		}
	} else {
		mid := cells[k]
		fillNode(r, typeBranch, cells[k+1:], tx.w.scratch)
		r.setRight(old.right())
		fillNode(n, typeBranch, cells[:k], tx.w.scratch)
		n.setRight(binary.BigEndian.Uint32(mid))
		sep = branchCellKey(mid)
	}
	return tx.linkRight(pa, d, q, sep)
}

// splitAppend is split for a cell appended past the last key of the
// tree's rightmost leaf n (sequential inserts): n stays as it is, full,
// and a new right sibling starts with just the cell, so the split copies
// no cells.
func (tx *Tx) splitAppend(pa *path, d int, n node, cell []byte) error {
	sep, err := tx.separator(n.cellBytes(n.count()-1), cell)
	if err != nil {
		return err
	}
	sep = append(tx.w.sepBuf[:0], sep...) // may point into n, which alloc can move
	tx.w.sepBuf = sep
	q, r, err := tx.allocNode()
	if err != nil {
		return err
	}
	initNode(r, typeLeaf)
	r.insertCell(0, cell, tx.w.scratch)
	if n.hasBigKeys() || cellHasBigKey(cell, tx.s.ps) {
		r[1] |= nodeFlagBigKeys
		n[1] |= nodeFlagBigKeys
	}
	return tx.linkRight(pa, d, q, sep)
}

// linkRight gives the parent of the node at pa.ents[d] a separator sep
// for q, the node's new right sibling, splitting the parent when full.
func (tx *Tx) linkRight(pa *path, d int, q uint32, sep []byte) error {
	p := pa.ents[d].pg
	pc := appendBranchCell(make([]byte, 0, len(sep)+9), p, sep)
	par := pa.ents[d-1]
	pn, err := tx.writable(par.pg)
	if err != nil {
		return err
	}
	pn.setChild(par.idx, q)
	if pn.insertCell(par.idx, pc, tx.w.scratch) {
		return nil
	}
	return tx.split(pa, d-1, par.idx, pc)
}

// growRoot moves the root's contents to a new page and makes the root a
// branch whose only child is that page, so the root can split like any
// other node while keeping its page number.
func (tx *Tx) growRoot(pa *path) error {
	if pa.depth+1 >= maxDepth {
		return tx.fail(fmt.Errorf("%w: tree taller than %d levels", ErrCorrupt, maxDepth))
	}
	root := pa.ents[0].pg
	rn, err := tx.writable(root)
	if err != nil {
		return err
	}
	a, an, err := tx.allocNode()
	if err != nil {
		return err
	}
	copy(an, rn)
	initNode(rn, typeBranch)
	rn.setRight(a)
	copy(pa.ents[1:pa.depth+2], pa.ents[0:pa.depth+1])
	pa.ents[1].pg = a
	pa.ents[0] = pathEnt{pg: root, idx: 0}
	pa.depth++
	return nil
}

// gatherCells lists old's cells with cell inserted at index i.
func (tx *Tx) gatherCells(old node, i int, cell []byte) [][]byte {
	cells := tx.w.cells[:0]
	for j := 0; j < old.count(); j++ {
		if j == i {
			cells = append(cells, cell)
		}
		cells = append(cells, old.cellBytes(j))
	}
	if i >= old.count() {
		cells = append(cells, cell)
	}
	tx.w.cells = cells
	return cells
}

// splitPoint returns how many cells stay on the left. Appending at the
// right edge of a tree leaves the left page full and starts a new one with
// just the new cell, so sequential inserts fill pages completely;
// otherwise the split balances bytes. A branch's middle cell moves up, so
// both sides keep at least one cell.
func splitPoint(cells [][]byte, appendMode, leaf bool) int {
	if appendMode {
		return len(cells) - 1
	}
	total := 0
	for _, c := range cells {
		total += len(c) + slotSize
	}
	k, acc := 0, 0
	for k < len(cells)-1 && acc+len(cells[k])+slotSize <= total/2 {
		acc += len(cells[k]) + slotSize
		k++
	}
	lo, hi := 1, len(cells)-1
	if !leaf {
		hi = len(cells) - 2
	}
	return max(lo, min(k, hi))
}

// fillNode makes n a fresh node of type typ holding cells in order.
func fillNode(n node, typ byte, cells [][]byte, scratch []byte) {
	initNode(n, typ)
	for _, c := range cells {
		n.insertCell(n.count(), c, scratch)
	}
}

// cellHasBigKey reports whether an encoded leaf cell holds a big key.
func cellHasBigKey(c []byte, ps int) bool { return decodeLeafCell(c, ps).keyRest() > 0 }

// branchCellKey returns the key inside an encoded branch cell.
func branchCellKey(c []byte) []byte {
	klen, a := uvarint(c[4:])
	return c[4+a : 4+a+klen]
}

// allocNode allocates a page for a new node and returns its number and
// its zeroed contents, to be initialized by the caller.
func (tx *Tx) allocNode() (uint32, node, error) {
	q, err := tx.alloc()
	if err != nil {
		return 0, nil, err
	}
	n, err := tx.newPage(q)
	return q, n, err
}
