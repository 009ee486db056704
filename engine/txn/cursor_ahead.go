package txn

import "github.com/ladybugsql/ladybug/engine/storage"

// aheadSeeker is a storage cursor that can seek forward within its leaf.
type aheadSeeker interface{ SeekAhead(key []byte) bool }

// SeekAhead moves to the first visible key >= key, for a key at or after
// the current one: the storage cursor searches only the rest of its leaf
// when key is there (see storage.Cursor.SeekAhead). After a write to the
// tree, from no position, or on a store without it, it is Seek.
func (c *Cursor) SeekAhead(key []byte) bool {
	if c.c == nil {
		return false
	}
	sa, ok := c.c.(aheadSeeker)
	if !ok || !c.valid || c.stale() {
		return c.Seek(key)
	}
	return c.settle(sa.SeekAhead(key), true)
}

// rowidReader is a storage cursor that reads table entries by sorted
// rowids (see storage.Cursor.AppendRowids).
type rowidReader interface {
	AppendRowids(dst []storage.Entry, rowids []int64) ([]storage.Entry, int)
}

// AppendRowids appends the entries of ascending rowids that lie on one
// leaf, starting with rowids[0], and returns how many it read (see
// storage.Cursor.AppendRowids). The entries are valid until the cursor
// moves or the transaction writes. When the tree has tombstones or was
// written since the cursor moved, or the store cannot read this way, it
// reads nothing: the caller reads rowids[0] with SeekAhead.
func (c *Cursor) AppendRowids(dst []storage.Entry, rowids []int64) ([]storage.Entry, int) {
	rr, ok := c.c.(rowidReader)
	if !ok || c.t.tombs.live != 0 || (c.valid && c.stale()) {
		return dst, 0
	}
	dst, n := rr.AppendRowids(dst, rowids)
	c.version, c.valid = c.t.version, n > 0
	if n > 0 {
		c.key = append(c.key[:0], dst[len(dst)-1].Key...)
	}
	return dst, n
}
