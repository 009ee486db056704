package storage

import (
	"fmt"
)

// Tree is a B+tree in a transaction, ordered by bytes.Compare of keys.
type Tree struct {
	tx   *Tx
	root uint32
}

// Tree returns the tree rooted at root. Methods report ErrCorrupt if root
// is not a tree page.
func (tx *Tx) Tree(root uint32) *Tree { return &Tree{tx: tx, root: root} }

// Root returns the tree's root page, which never changes.
func (t *Tree) Root() uint32 { return t.root }

// pathEnt is one step of a descent: a page and the child index taken (for
// the leaf: the cell index).
type pathEnt struct {
	pg  uint32
	idx int
}

// path is a root-to-leaf descent.
type path struct {
	ents      [maxDepth]pathEnt
	depth     int  // index of the leaf in ents
	rightmost bool // every step took the right child
}

// treeNode checks that n is a tree page.
func treeNode(p uint32, n node) error {
	if t := n.typ(); t != typeLeaf && t != typeBranch {
		return fmt.Errorf("%w: page %d has type %d, want a tree page", ErrCorrupt, p, t)
	}
	return nil
}

// Get returns the value stored under key. The value is valid until the
// next write in the transaction; copy it to keep it.
func (t *Tree) Get(key []byte) (val []byte, found bool, err error) {
	tx := t.tx
	defer tx.guard(&err)
	if err := tx.checkRead(); err != nil {
		return nil, false, err
	}
	p := t.root
	for range maxDepth {
		n, err := tx.node(p)
		if err != nil {
			return nil, false, err
		}
		if n.typ() == typeBranch {
			p = n.child(n.childIndex(key))
			continue
		}
		if n.typ() != typeLeaf {
			return nil, false, treeNode(p, n)
		}
		i, found := n.search(key)
		if !found {
			return nil, false, nil
		}
		_, val, ovfl, vlen := n.leafCell(i)
		if ovfl != 0 {
			val, err = tx.readOverflow(ovfl, vlen)
			if err != nil {
				return nil, false, err
			}
		}
		return val, true, nil
	}
	return nil, false, fmt.Errorf("%w: tree %d deeper than %d levels", ErrCorrupt, t.root, maxDepth)
}

// descend fills pa with the path from the root to the leaf covering key.
func (t *Tree) descend(key []byte, pa *path) error {
	tx := t.tx
	p := t.root
	pa.rightmost = true
	for d := range maxDepth {
		n, err := tx.node(p)
		if err != nil {
			return err
		}
		if err := treeNode(p, n); err != nil {
			return err
		}
		pa.ents[d].pg = p
		if n.isLeaf() {
			pa.ents[d].idx, _ = n.search(key)
			pa.depth = d
			return nil
		}
		i := n.childIndex(key)
		pa.ents[d].idx = i
		if i < n.count() {
			pa.rightmost = false
		}
		p = n.child(i)
	}
	return fmt.Errorf("%w: tree %d deeper than %d levels", ErrCorrupt, t.root, maxDepth)
}

// findLeaf returns the path to the leaf covering key for a write. It
// reuses the writer's last path (tx.w.hint) when that leaf provably covers
// key, so sequential and clustered writes skip the descent: the tree's
// shape cannot have changed, since every split, merge or free clears the
// hint. The path lives in tx.w.hint and is valid until the next write.
func (t *Tree) findLeaf(key []byte) (*path, error) {
	tx := t.tx
	h := &tx.w.hint
	pa := &h.pa
	if h.ok && h.root == t.root {
		leaf := &pa.ents[pa.depth]
		if n := node(tx.w.dirty[leaf.pg].DataOrNil()); n != nil && n.count() > 0 &&
			compareKeys(key, n.leafKey(0)) >= 0 &&
			(pa.rightmost || compareKeys(key, n.leafKey(n.count()-1)) <= 0) {
			leaf.idx, _ = n.search(key)
			return pa, nil
		}
	}
	h.ok = false
	if err := t.descend(key, pa); err != nil {
		return nil, err
	}
	h.root, h.ok = t.root, true
	return pa, nil
}

// Put inserts or overwrites key. Values of any size work (large ones go
// to overflow pages); keys are limited to Store.MaxKeySize.
func (t *Tree) Put(key, val []byte) (err error) {
	tx := t.tx
	defer tx.guard(&err)
	if err := tx.checkWrite(); err != nil {
		return err
	}
	ps := tx.s.ps
	if len(key) > maxKey(ps) {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrKeyTooLarge, len(key), maxKey(ps))
	}
	if err := tx.maybeSpill(); err != nil {
		return err
	}
	var ovfl uint32
	if len(key)+len(val)+10 > maxLocal(ps) {
		var err error
		if ovfl, err = tx.writeOverflow(val); err != nil {
			return err
		}
	}
	tx.w.cellBuf = appendLeafCell(tx.w.cellBuf[:0], key, val, ovfl, len(val))
	pa, err := t.findLeaf(key)
	if err != nil {
		return err
	}
	return t.putCell(pa, key, tx.w.cellBuf)
}

// putCell stores cell in the leaf at the end of pa, replacing an equal key.
func (t *Tree) putCell(pa *path, key, cell []byte) error {
	tx := t.tx
	leaf := pa.ents[pa.depth]
	n, err := tx.writable(leaf.pg)
	if err != nil {
		return err
	}
	i := leaf.idx
	if i < n.count() && string(n.leafKey(i)) == string(key) {
		if _, _, ovfl, vlen := n.leafCell(i); ovfl != 0 {
			if err := tx.freeOverflow(ovfl, vlen); err != nil {
				return err
			}
		}
		if n.replaceCell(i, cell, tx.w.scratch) {
			return nil
		}
		n.removeCell(i)
	}
	if n.insertCell(i, cell, tx.w.scratch) {
		return nil
	}
	return tx.split(pa, pa.depth, i, cell)
}

// Delete removes key, reporting whether it was present.
func (t *Tree) Delete(key []byte) (found bool, err error) {
	tx := t.tx
	defer tx.guard(&err)
	if err := tx.checkWrite(); err != nil {
		return false, err
	}
	if err := tx.maybeSpill(); err != nil {
		return false, err
	}
	pa, err := t.findLeaf(key)
	if err != nil {
		return false, err
	}
	leaf := pa.ents[pa.depth]
	ro, err := tx.node(leaf.pg)
	if err != nil {
		return false, err
	}
	if leaf.idx >= ro.count() || string(ro.leafKey(leaf.idx)) != string(key) {
		return false, nil
	}
	n, err := tx.writable(leaf.pg)
	if err != nil {
		return false, err
	}
	if _, _, ovfl, vlen := n.leafCell(leaf.idx); ovfl != 0 {
		if err := tx.freeOverflow(ovfl, vlen); err != nil {
			return false, err
		}
	}
	n.removeCell(leaf.idx)
	return true, tx.rebalance(pa, pa.depth)
}

// Count returns the number of entries, visiting every leaf.
func (t *Tree) Count() (total int64, err error) {
	defer t.tx.guard(&err)
	if err := t.tx.checkRead(); err != nil {
		return 0, err
	}
	err = t.tx.walk(t.root, 0, func(p uint32, n node, depth int) error {
		if n.isLeaf() {
			total += int64(n.count())
		}
		return nil
	})
	return total, err
}

// walk visits every tree page under p depth-first, parents first.
func (tx *Tx) walk(p uint32, depth int, visit func(p uint32, n node, depth int) error) error {
	if depth >= maxDepth {
		return fmt.Errorf("%w: tree deeper than %d levels at page %d", ErrCorrupt, maxDepth, p)
	}
	n, err := tx.node(p)
	if err != nil {
		return err
	}
	if err := treeNode(p, n); err != nil {
		return err
	}
	if err := visit(p, n, depth); err != nil {
		return err
	}
	if n.isLeaf() {
		return nil
	}
	for i := 0; i <= n.count(); i++ {
		if err := tx.walk(n.child(i), depth+1, visit); err != nil {
			return err
		}
	}
	return nil
}
