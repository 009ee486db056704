package storage

import (
	"fmt"

	"github.com/ladybugsql/ladybug/pagecache"
)

// Cursor walks a tree in key order. It holds its leaf pinned until it
// moves off it or is closed. A cursor on a write transaction survives
// writes to other trees; after writing its own tree, Seek again.
type Cursor struct {
	tx    *Tx
	root  uint32
	stack [maxDepth]pathEnt // root to leaf; stack[depth] is the leaf
	depth int
	leaf  node
	pin   *pagecache.Page
	valid bool
	err   error

	// The current cell, decoded by the first Key or Value after a move
	// (short cells only; see node.shortCell). Every move clears decoded.
	decoded bool
	ckey    []byte
	cval    []byte
	touched uint64 // AppendRowids' prefetch result (kept so the loads stay)

	spans []uint32 // the value spans of the last Cells run
}

// Cursor returns an unpositioned cursor; call First, Last or Seek.
func (t *Tree) Cursor() *Cursor { return &Cursor{tx: t.tx, root: t.root} }

// CursorIn makes c, a cursor no longer needed, an unpositioned cursor on t,
// as Cursor would return, without allocating one. It closes c first.
func (t *Tree) CursorIn(c *Cursor) *Cursor {
	c.unpin()
	*c = Cursor{tx: t.tx, root: t.root, spans: c.spans[:0]}
	return c
}

// Err returns the error that stopped the cursor, if any.
func (c *Cursor) Err() error { return c.err }

// Close releases the cursor's pin. The cursor can be repositioned after.
func (c *Cursor) Close() {
	c.unpin()
	c.valid = false
}

func (c *Cursor) unpin() {
	if c.pin != nil {
		c.tx.s.cache.Unpin(c.pin)
		c.pin = nil
	}
}

// fail stops the cursor with err.
func (c *Cursor) fail(err error) bool {
	c.err = err
	c.valid = false
	c.unpin()
	return false
}

// load reads the tree page at depth d of the stack. Leaves stay pinned.
func (c *Cursor) load(d int, p uint32) (node, error) {
	if d >= maxDepth {
		return nil, fmt.Errorf("%w: tree %d deeper than %d levels", ErrCorrupt, c.root, maxDepth)
	}
	pg, err := c.tx.page(p)
	if err != nil {
		return nil, err
	}
	n := node(pg.Data)
	if err := treeNode(p, n); err != nil {
		c.tx.s.cache.Unpin(pg)
		return nil, err
	}
	c.stack[d].pg = p
	c.decoded = false
	if n.isLeaf() {
		c.unpin()
		c.pin, c.leaf, c.depth = pg, n, d
	} else {
		c.tx.s.cache.Unpin(pg)
	}
	return n, nil
}

func (c *Cursor) start() bool {
	c.err = nil
	c.decoded = false
	if err := c.tx.checkRead(); err != nil {
		return c.fail(err)
	}
	return true
}

// First moves to the smallest key.
func (c *Cursor) First() (ok bool) {
	defer c.guard(&ok)
	if !c.start() {
		return false
	}
	return c.edge(0, c.root, false)
}

// Last moves to the largest key.
func (c *Cursor) Last() (ok bool) {
	defer c.guard(&ok)
	if !c.start() {
		return false
	}
	return c.edge(0, c.root, true)
}

// edge descends from p at depth d to the leftmost (or rightmost) entry,
// moving on to a neighbour when the leaf reached is empty.
func (c *Cursor) edge(d int, p uint32, right bool) bool {
	for {
		n, err := c.load(d, p)
		if err != nil {
			return c.fail(err)
		}
		if n.isLeaf() {
			break
		}
		i := 0
		if right {
			i = n.count()
		}
		c.stack[d].idx = i
		p = n.child(i)
		d++
	}
	if c.leaf.count() == 0 {
		c.stack[c.depth].idx = 0
		if right {
			return c.up(false)
		}
		return c.up(true)
	}
	c.stack[c.depth].idx = 0
	if right {
		c.stack[c.depth].idx = c.leaf.count() - 1
	}
	c.valid = true
	return true
}

// Seek moves to the first entry whose key is >= key.
func (c *Cursor) Seek(key []byte) (ok bool) {
	defer c.guard(&ok)
	if !c.start() {
		return false
	}
	p := c.root
	for d := 0; ; d++ {
		n, err := c.load(d, p)
		if err != nil {
			return c.fail(err)
		}
		if n.isLeaf() {
			break
		}
		i := n.childIndex(key)
		c.stack[d].idx = i
		p = n.child(i)
	}
	i, _, err := c.tx.searchLeaf(c.leaf, key)
	if err != nil {
		return c.fail(err)
	}
	c.stack[c.depth].idx = i
	if i >= c.leaf.count() {
		return c.up(true)
	}
	c.valid = true
	return true
}

// Next moves to the next key. Within a leaf it is a slot increment; only
// moving to another leaf reads pages (under the panic guard).
func (c *Cursor) Next() bool {
	if !c.valid {
		return false
	}
	if c.tx.closed {
		return c.fail(ErrTxClosed)
	}
	ent := &c.stack[c.depth]
	c.decoded = false
	if ent.idx+1 < c.leaf.count() {
		ent.idx++
		return true
	}
	return c.step(true)
}

// Prev moves to the previous key.
func (c *Cursor) Prev() bool {
	if !c.valid {
		return false
	}
	if c.tx.closed {
		return c.fail(ErrTxClosed)
	}
	ent := &c.stack[c.depth]
	c.decoded = false
	if ent.idx > 0 {
		ent.idx--
		return true
	}
	return c.step(false)
}

// step moves to the neighbouring leaf in the direction of travel.
func (c *Cursor) step(forward bool) (ok bool) {
	defer c.guard(&ok)
	return c.up(forward)
}

// up climbs until an ancestor has a further child in the direction of
// travel and descends to that subtree's edge; it ends the cursor at the
// tree's end.
func (c *Cursor) up(forward bool) bool {
	for d := c.depth - 1; d >= 0; d-- {
		n, err := c.tx.node(c.stack[d].pg)
		if err != nil {
			return c.fail(err)
		}
		if err := treeNode(c.stack[d].pg, n); err != nil || n.isLeaf() {
			return c.fail(fmt.Errorf("%w: page %d is not a branch", ErrCorrupt, c.stack[d].pg))
		}
		i := c.stack[d].idx
		if forward && i < n.count() {
			c.stack[d].idx = i + 1
			return c.edge(d+1, n.child(i+1), false)
		}
		if !forward && i > 0 && i <= n.count() {
			c.stack[d].idx = i - 1
			return c.edge(d+1, n.child(i-1), true)
		}
	}
	c.valid = false
	c.unpin()
	return false
}

// Valid reports whether the cursor is on an entry.
func (c *Cursor) Valid() bool { return c.valid }

// Key returns the current key, valid until the cursor moves. A key longer
// than Store.MaxKeySize is read from its overflow pages; if that fails,
// Key returns nil and Err reports why.
func (c *Cursor) Key() []byte {
	if !c.valid {
		return nil
	}
	i := c.stack[c.depth].idx
	if i >= c.leaf.count() {
		return nil // (the leaf shrank: a write to this tree without a new Seek)
	}
	if c.decode(i) {
		return c.ckey
	}
	return c.slowKey(i)
}

// decode decodes cell i of the leaf into ckey and cval once per position;
// false means the cell needs the general path.
func (c *Cursor) decode(i int) bool {
	if !c.decoded {
		c.ckey, c.cval, c.decoded = c.leaf.shortCell(i)
	}
	return c.decoded
}

// slowKey is Key for a big key or a cell shortCell cannot decode.
func (c *Cursor) slowKey(i int) (key []byte) {
	var err error
	defer c.tx.guard(&err)
	key, err = c.tx.entryKey(c.leaf.leafCell(i))
	if err != nil {
		c.fail(err)
		return nil
	}
	return key
}

// Value returns the current value, valid until the cursor moves.
func (c *Cursor) Value() ([]byte, error) {
	if !c.valid {
		return nil, c.err
	}
	i := c.stack[c.depth].idx
	if i >= c.leaf.count() {
		return nil, fmt.Errorf("%w: cursor moved by a write to its tree; Seek again", ErrInvalid)
	}
	if c.decode(i) {
		return c.cval, nil
	}
	return c.slowValue(i)
}

// slowValue is Value for an overflow value or a cell shortCell cannot
// decode.
func (c *Cursor) slowValue(i int) (val []byte, err error) {
	defer c.tx.guard(&err)
	return c.tx.entryValue(c.leaf.leafCell(i))
}

// guard stops the cursor with ErrCorrupt on a panic (see Tx.guard).
func (c *Cursor) guard(ok *bool) {
	if r := recover(); r != nil {
		*ok = c.fail(fmt.Errorf("%w: damaged page (%v)", ErrCorrupt, r))
	}
}

// Entry is one key/value pair of a tree, as a view of the cursor's pages.
type Entry struct{ Key, Value []byte }

// AppendRun appends to dst the current entry and the entries after it on
// the same leaf, at most max in all, and leaves the cursor on the last one
// appended, so that the next Next moves past the run. A scan reads a leaf
// this way with one call instead of a Next, Key and Value per entry.
//
// The entries view the pinned leaf and are valid until the cursor moves.
// An entry whose key or value lives on overflow pages ends the run before
// it, except as the run's first entry. Nothing is appended when the
// cursor is not on an entry or max < 1; when reading fails the cursor
// stops and Err reports why.
func (c *Cursor) AppendRun(dst []Entry, max int) []Entry {
	if !c.valid || max < 1 {
		return dst
	}
	if c.tx.closed {
		c.fail(ErrTxClosed)
		return dst
	}
	ent := &c.stack[c.depth]
	i, n := ent.idx, c.leaf.count()
	if i >= n {
		return dst // (the leaf shrank: a write to this tree without a new Seek)
	}
	if !c.decode(i) {
		key := c.slowKey(i)
		if key == nil {
			return dst
		}
		val, err := c.slowValue(i)
		if err != nil {
			c.fail(err)
			return dst
		}
		return append(dst, Entry{key, val})
	}
	dst = append(dst, Entry{c.ckey, c.cval})
	dst, j := c.leaf.appendShortRun(dst, i+1, min(n, i+max))
	if last := j - 1; last > i {
		ent.idx = last
		c.ckey, c.cval = dst[len(dst)-1].Key, dst[len(dst)-1].Value
	}
	return dst
}
