package txn

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
