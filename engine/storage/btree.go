package storage

import (
	"fmt"

	"github.com/ladybugsql/ladybug/pagecache"
)

// Tree is a B+tree in a transaction, ordered by bytes.Compare of keys.
type Tree struct {
	tx   *Tx
	root uint32
}

// Tree returns the tree rooted at root. Methods report ErrCorrupt if root
// is not a tree page. A Tree is only its root, so the first one a
// transaction asks for is held in the Tx and handed out again for the
// same root: a point read allocates none.
func (tx *Tx) Tree(root uint32) *Tree {
	if tx.tree0.tx == nil {
		tx.tree0 = Tree{tx: tx, root: root}
	}
	if tx.tree0.root == root {
		return &tx.tree0
	}
	return &Tree{tx: tx, root: root}
}

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
	found     bool // the leaf holds key at ents[depth].idx
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
	if tx.rw { // a write tx: its path is kept for the write that follows
		return t.getWrite(key)
	}
	p := t.root
	// lo and hi are the separators around the node's keys, nil at the
	// tree's edges: the searches guess from them (see boundedGuess).
	var lo, hi []byte
	for range maxDepth {
		pg, err := tx.pageRef(p)
		if err != nil {
			return nil, false, err
		}
		n := node(pg.Data)
		if n.typ() == typeBranch {
			i := n.childIndexIn(key, lo, hi)
			if i > 0 {
				lo = n.branchKey(i - 1)
			}
			if i < n.count() {
				hi = n.branchKey(i)
			}
			p = n.child(i)
			continue
		}
		if n.typ() != typeLeaf {
			return nil, false, treeNode(p, n)
		}
		return leafValue(tx, pg, key, lo, hi)
	}
	return nil, false, fmt.Errorf("%w: tree %d deeper than %d levels", ErrCorrupt, t.root, maxDepth)
}

// leafValue looks key up in leaf pg. Only a hit exposes the page (the
// value is a slice of it): a miss, such as a uniqueness check before an
// insert, leaves the buffer recyclable.
// Its keys lie in [lo, hi), the separators the descent passed (nil when
// unbounded), from which the search guesses.
func leafValue(tx *Tx, pg *pagecache.Page, key, lo, hi []byte) ([]byte, bool, error) {
	n := node(pg.Data)
	var i int
	var found bool
	var err error
	if n.hasBigKeys() {
		i, found, err = tx.searchLeaf(n, key)
	} else {
		i, found = n.searchIn(key, lo, hi)
	}
	if err != nil || !found {
		return nil, false, err
	}
	pg.Expose()
	val, err := tx.entryValue(n.leafCell(i))
	if err != nil {
		return nil, false, err
	}
	return val, true, nil
}

// descend fills pa with the path from the root to the leaf covering key.
func (t *Tree) descend(key []byte, pa *path) error {
	tx := t.tx
	p := t.root
	pa.rightmost = true
	// lo and hi are the separators around the node's keys, as in Get: the
	// searches guess from them instead of probing the node's end keys.
	var lo, hi []byte
	for d := range maxDepth {
		n, err := tx.nodeQuiet(p)
		if err != nil {
			return err
		}
		if err := treeNode(p, n); err != nil {
			return err
		}
		pa.ents[d].pg = p
		if n.isLeaf() {
			pa.depth = d
			if n.hasBigKeys() {
				pa.ents[d].idx, pa.found, err = tx.searchLeaf(n, key)
				return err
			}
			pa.ents[d].idx, pa.found = n.searchIn(key, lo, hi)
			return nil
		}
		i := n.childIndexIn(key, lo, hi)
		pa.ents[d].idx = i
		if i > 0 {
			lo = n.branchKey(i - 1)
		}
		if i < n.count() {
			hi = n.branchKey(i)
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
	if h.exact {
		h.exact = false
		if h.ok && h.root == t.root && compareKeys(h.key, key) == 0 {
			return pa, nil
		}
	}
	if n := t.hintLeaf(key); n != nil {
		leaf := &pa.ents[pa.depth]
		leaf.idx, pa.found = n.search(key)
		return pa, nil
	}
	h.ok = false
	if err := t.descend(key, pa); err != nil {
		return nil, err
	}
	h.root, h.ok = t.root, true
	return pa, nil
}

// hintLeaf returns the writer's private copy of the leaf of its last
// write path when that leaf provably covers key (key at or after its first
// key, and at or before its last unless the leaf is the tree's rightmost),
// or nil. Any write that changes the tree's shape clears the hint.
func (t *Tree) hintLeaf(key []byte) node {
	return node(t.hintPage(key).DataOrNil())
}

// hintPage is hintLeaf returning the page.
func (t *Tree) hintPage(key []byte) *pagecache.Page {
	tx := t.tx
	if !tx.rw || tx.w == nil {
		return nil
	}
	h := &tx.w.hint
	if !h.ok || h.root != t.root {
		return nil
	}
	pa := &h.pa
	pg := tx.w.dirty[pa.ents[pa.depth].pg]
	n := node(pg.DataOrNil())
	if n == nil || n.count() == 0 || n.hasBigKeys() || compareKeys(key, n.leafKey(0)) < 0 ||
		(!pa.rightmost && compareKeys(key, n.leafKey(n.count()-1)) > 0) {
		return nil
	}
	return pg
}

// Put inserts or overwrites key. Values of any size work (large ones go
// to overflow pages), and keys up to 16 MiB: a key longer than
// Store.MaxKeySize keeps a prefix in the leaf and the rest in overflow
// pages (see nodeFlagBigKeys). Two adjacent keys that share a prefix
// longer than MaxKeySize-1 bytes cannot be separated in a branch and give
// ErrKeyTooLarge.
func (t *Tree) Put(key, val []byte) (err error) {
	defer t.tx.guard(&err)
	if err := t.tx.checkWrite(); err != nil {
		return err
	}
	_, _, err = t.put(key, val, nil, false)
	return err
}

// PutOld is Put that first appends key's current value, when there is one,
// to dst, and reports whether key existed. It finds the leaf once where a
// Get then a Put would descend twice (an undo log recording the value a
// write replaces).
func (t *Tree) PutOld(key, val, dst []byte) (out []byte, existed bool, err error) {
	defer t.tx.guard(&err)
	if err := t.tx.checkWrite(); err != nil {
		return dst, false, err
	}
	return t.put(key, val, dst, true)
}

// put is Put, appending the old value to dst when keep is set.
func (t *Tree) put(key, val, dst []byte, keep bool) ([]byte, bool, error) {
	tx := t.tx
	ps := tx.s.ps
	if len(key) > maxBigKey {
		return dst, false, fmt.Errorf("%w: %d bytes, limit %d", ErrKeyTooLarge, len(key), maxBigKey)
	}
	if err := tx.maybeSpill(); err != nil {
		return dst, false, err
	}
	// Find the leaf first: a failed descent must not leak an overflow
	// chain. Writing the chain only allocates, so the path stays valid.
	pa, err := t.findLeaf(key)
	if err != nil {
		return dst, false, err
	}
	// An overwrite that keeps the old value takes the leaf's private copy
	// at once and reads the old value from it: the write needs that copy
	// anyway, so the leaf is looked up once instead of twice.
	var n node
	var old *leafEntry
	if pa.found && keep {
		if n, err = tx.writable(pa.ents[pa.depth].pg); err != nil {
			return dst, false, err
		}
		e := n.leafCell(pa.ents[pa.depth].idx)
		if dst, err = t.appendOldEntry(e, dst); err != nil {
			return dst, false, err
		}
		old = &e
	}
	var ovfl uint32
	switch {
	case len(key) > maxKey(ps): // a big key: its rest leads the chain
		chain := append(append(make([]byte, 0, len(key)+len(val)), key[bigKeyPrefix(ps):]...), val...)
		if ovfl, err = tx.writeOverflow(chain); err != nil {
			return dst, pa.found, err
		}
	case len(key)+len(val)+10 > maxLocal(ps):
		if ovfl, err = tx.writeOverflow(val); err != nil {
			return dst, pa.found, err
		}
	}
	if ovfl != 0 {
		n, old = nil, nil // writing the chain may have spilled the leaf's copy
	}
	tx.w.cellBuf = appendLeafCell(tx.w.cellBuf[:0], key, val, ovfl, len(val), ps)
	if err := t.putCell(pa, n, old, key, tx.w.cellBuf); err != nil {
		return dst, pa.found, tx.fail(err) // a half-done edit or a leaked chain: roll back
	}
	return dst, pa.found, nil
}

// appendOldEntry appends the value of leaf entry e to dst. e is a cell of
// the writer's private copy of a leaf, about to be written: the value is
// copied, so no page is exposed.
func (t *Tree) appendOldEntry(e leafEntry, dst []byte) ([]byte, error) {
	v, err := t.tx.entryValue(e)
	if err != nil {
		return dst, err
	}
	return append(dst, v...), nil
}

// putCell stores cell in the leaf at the end of pa, replacing an equal key.
// n is the leaf's private copy when the caller holds it, else nil; old,
// when set, is the replaced cell of n as the caller decoded it.
func (t *Tree) putCell(pa *path, n node, old *leafEntry, key, cell []byte) error {
	tx := t.tx
	leaf := pa.ents[pa.depth]
	if n == nil {
		var err error
		if n, err = tx.writable(leaf.pg); err != nil {
			return err
		}
	}
	i := leaf.idx
	if pa.found {
		if old == nil {
			e := n.leafCell(i)
			old = &e
		}
		if e := *old; e.ovfl != 0 {
			if err := tx.freeOverflow(e.ovfl, e.chain); err != nil {
				return err
			}
		}
		if n.replaceCell(i, cell, tx.w.scratch) {
			return nil
		}
		n.removeCell(i)
	}
	if len(key) > maxKey(tx.s.ps) {
		n[1] |= nodeFlagBigKeys
	}
	if n.insertCell(i, cell, tx.w.scratch) {
		return nil
	}
	return tx.split(pa, pa.depth, i, cell)
}

// Delete removes key, reporting whether it was present.
func (t *Tree) Delete(key []byte) (found bool, err error) {
	defer t.tx.guard(&err)
	_, found, err = t.delete(key, nil, false)
	return found, err
}

// DeleteOld is Delete that first appends key's value, when it is present,
// to dst: an undo log records the value a delete removes in the delete's
// own descent.
func (t *Tree) DeleteOld(key, dst []byte) (out []byte, found bool, err error) {
	defer t.tx.guard(&err)
	return t.delete(key, dst, true)
}

// delete is Delete, appending the old value to dst when keep is set.
func (t *Tree) delete(key, dst []byte, keep bool) ([]byte, bool, error) {
	tx := t.tx
	if err := tx.checkWrite(); err != nil {
		return dst, false, err
	}
	if err := tx.maybeSpill(); err != nil {
		return dst, false, err
	}
	pa, err := t.findLeaf(key)
	if err != nil {
		return dst, false, err
	}
	leaf := pa.ents[pa.depth]
	if !pa.found {
		return dst, false, nil
	}
	n, err := tx.writable(leaf.pg)
	if err != nil {
		return dst, false, err
	}
	e := n.leafCell(leaf.idx)
	if keep {
		if dst, err = t.appendOldEntry(e, dst); err != nil {
			return dst, false, err
		}
	}
	if e.ovfl != 0 {
		if err := tx.freeOverflow(e.ovfl, e.chain); err != nil {
			return dst, false, err
		}
	}
	n.removeCell(leaf.idx)
	return dst, true, tx.rebalance(pa, pa.depth)
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

// ApproxCount estimates the tree's entries from one root-to-leaf path:
// the product of the branch pages' child counts along the middle path
// times the entries of the leaf it ends at. It reads one page per level
// (the upper ones are usually cached), so a planner can ask it for every
// table of a statement; the answer is exact for a one-page tree and
// within a small factor of Count for trees filled by inserts.
func (t *Tree) ApproxCount() (int64, error) { return t.tx.ApproxCount(t.root) }

// ApproxCount is Tree.ApproxCount of the tree at root, without making a
// Tree.
func (tx *Tx) ApproxCount(root uint32) (n int64, err error) {
	defer tx.guard(&err)
	if err := tx.checkRead(); err != nil {
		return 0, err
	}
	p, mult := root, int64(1)
	for range maxDepth {
		nd, err := tx.node(p)
		if err != nil {
			return 0, err
		}
		if err := treeNode(p, nd); err != nil {
			return 0, err
		}
		if nd.isLeaf() {
			return mult * int64(nd.count()), nil
		}
		kids := nd.count() + 1
		// No tree of maxDepth levels holds 2^62 entries, but a damaged
		// page's counts must not overflow the product.
		mult = min(mult*int64(kids), 1<<40)
		p = nd.child(kids / 2)
	}
	return 0, fmt.Errorf("%w: tree %d deeper than %d levels", ErrCorrupt, root, maxDepth)
}
