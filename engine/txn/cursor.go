package txn

import (
	"bytes"

	"github.com/ladybugsql/ladybug/engine/storage"
)

// Cursor walks a Tree in key order, skipping keys this transaction
// tombstoned. Unlike a storage cursor it survives writes to its own tree:
// after a Put or an undo, the next move re-seeks from the current key.
// Deletes (tombstones) never disturb it.
type Cursor struct {
	t       *TxTree
	c       kvCursor
	err     error
	version uint64 // t.version when c was last positioned
	key     []byte // copy of the current key, for re-seeking
	valid   bool
	run     kvRunner // c, when it reads leaf runs (storage cursors do)
	cells   kvCells  // c, when it hands out leaf runs in place (storage cursors do)
	spare   kvCursor // c after Close, for Reopen to reuse
}

// kvRunner is a kvCursor that reads a run of entries in one call (see
// storage.Cursor.AppendRun).
type kvRunner interface {
	AppendRun(dst []storage.Entry, max int) []storage.Entry
}

// kvCells is a kvCursor that hands out a leaf's run of short cells in
// place (see storage.Cursor.Cells).
type kvCells interface {
	Cells(max int) (storage.Cells, bool)
}

// Cursor returns a cursor over the tree; Close it when done.
func (t *TxTree) Cursor() *Cursor { return t.Reopen(new(Cursor)) }

// Reopen returns an unpositioned cursor over t, as Cursor does, made in the
// memory of c, a cursor its user is done with (it is closed first; nil
// allocates a new one). Keys c returned are invalid after.
func (t *TxTree) Reopen(c *Cursor) *Cursor {
	if c == nil {
		c = new(Cursor)
	}
	c.Close()
	key, spare := c.key[:0], c.spare
	*c = Cursor{t: t, key: key, spare: spare}
	if err := t.readable(); err != nil {
		c.err = err
		return c
	}
	st := t.storage()
	if ci, ok := st.(kvCursorIn); ok && spare != nil {
		c.c = ci.cursorIn(spare)
	} else {
		c.c = st.Cursor()
	}
	c.run, _ = c.c.(kvRunner)
	c.cells, _ = c.c.(kvCells)
	return c
}

// First moves to the smallest visible key.
func (c *Cursor) First() bool {
	if c.c == nil {
		return false
	}
	return c.settle(c.c.First(), true)
}

// Last moves to the largest visible key.
func (c *Cursor) Last() bool {
	if c.c == nil {
		return false
	}
	return c.settle(c.c.Last(), false)
}

// Seek moves to the first visible key >= key.
func (c *Cursor) Seek(key []byte) bool {
	if c.c == nil {
		return false
	}
	return c.settle(c.c.Seek(key), true)
}

// Next moves to the next visible key. With no tombstones on the tree and
// no write since the last move it is the storage cursor's Next plus a copy
// of the key (kept so a later write can re-seek).
func (c *Cursor) Next() bool {
	if !c.valid {
		return false
	}
	if c.t.tombs.live == 0 && !c.stale() {
		c.valid = c.c.Next()
		if c.valid {
			c.key = append(c.key[:0], c.c.Key()...)
		}
		return c.valid
	}
	if c.stale() {
		ok, exact := c.reseek()
		if !ok || !exact {
			return c.settle(ok, true) // already past the old key
		}
	}
	return c.settle(c.c.Next(), true)
}

// AppendRun appends to dst the current entry and following ones, at most
// max in all (max >= 1), and leaves the cursor on the last one appended;
// the next Next moves past them. The entries are valid until the cursor
// moves or the transaction writes. When the tree has tombstones or was
// written since the last move, or the storage cursor cannot read runs, the
// run is the current entry alone. Nothing is appended at the end or on an
// error (see Err).
func (c *Cursor) AppendRun(dst []storage.Entry, max int) []storage.Entry {
	if !c.valid || max < 1 {
		return dst
	}
	if c.run != nil && c.t.tombs.live == 0 && !c.stale() {
		n := len(dst)
		dst = c.run.AppendRun(dst, max)
		if len(dst) == n {
			c.valid = false
			return dst
		}
		c.key = append(c.key[:0], dst[len(dst)-1].Key...)
		return dst
	}
	v, err := c.Value()
	if err != nil {
		c.err, c.valid = err, false
		return dst
	}
	return append(dst, storage.Entry{Key: c.key, Value: v})
}

// Cells returns the current entry and following ones on its leaf, at most
// max, as a run read in place (see storage.Cursor.Cells), and leaves the
// cursor on the run's last entry; the next Next moves past them. ok is
// false, and the cursor stays put, when the tree has tombstones or was
// written since the last move, the storage cursor cannot hand out runs,
// or the current entry is not a short cell: read it with AppendRun then.
func (c *Cursor) Cells(max int) (storage.Cells, bool) {
	if !c.valid || c.cells == nil || c.t.tombs.live != 0 || c.stale() {
		return storage.Cells{}, false
	}
	r, ok := c.cells.Cells(max)
	if ok {
		c.key = append(c.key[:0], r.Key(r.Len()-1)...)
	}
	return r, ok
}

// Prev moves to the previous visible key.
func (c *Cursor) Prev() bool {
	if !c.valid {
		return false
	}
	if c.stale() {
		ok, _ := c.reseek()
		if !ok {
			return c.settle(c.c.Last(), false)
		}
	}
	return c.settle(c.c.Prev(), false)
}

// Key returns the current key, valid until the cursor moves.
func (c *Cursor) Key() []byte {
	if !c.valid {
		return nil
	}
	return c.key
}

// Value returns the current value, valid until the cursor moves or the
// transaction writes.
func (c *Cursor) Value() ([]byte, error) {
	if !c.valid {
		return nil, c.err
	}
	if c.stale() {
		if ok, exact := c.reseek(); !ok || !exact {
			return nil, nil // the entry was removed by an undo
		}
	}
	v, err := c.c.Value()
	if err != nil {
		return nil, wrapStorage(c.t.tx.m.store, "cursor value", err)
	}
	return v, nil
}

// Err returns the first error the cursor met.
func (c *Cursor) Err() error {
	if c.err != nil {
		return c.err
	}
	if c.c != nil {
		return wrapStorage(c.t.tx.m.store, "cursor", c.c.Err())
	}
	return nil
}

// Close releases the storage cursor.
func (c *Cursor) Close() {
	if c.c != nil {
		c.c.Close()
		c.spare, c.c = c.c, nil
	}
	c.valid = false
}

// stale reports whether the tree was written since the storage cursor was
// positioned, so its position is no longer trustworthy.
func (c *Cursor) stale() bool { return c.version != c.t.version }

// reseek positions the storage cursor at the first key >= the current key;
// exact reports that the current key itself is still there.
func (c *Cursor) reseek() (ok, exact bool) {
	ok = c.c.Seek(c.key)
	c.version = c.t.version
	return ok, ok && bytes.Equal(c.c.Key(), c.key)
}

// settle skips tombstoned keys in the direction of travel and records the
// position it lands on.
func (c *Cursor) settle(ok, forward bool) bool {
	for ok && c.t.tombstoned(c.c.Key()) {
		if forward {
			ok = c.c.Next()
		} else {
			ok = c.c.Prev()
		}
	}
	c.version = c.t.version
	c.valid = ok
	if ok {
		c.key = append(c.key[:0], c.c.Key()...)
	}
	return ok
}
