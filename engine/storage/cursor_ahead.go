package storage

// SeekAhead moves to the first entry whose key is >= key, for a key at or
// after the cursor's current entry. When key falls inside the current
// leaf it searches only the rest of that leaf, so a walk over ascending
// keys that cluster on few leaves descends from the root once per leaf
// instead of once per key; otherwise it is Seek. As with Seek, a cursor
// whose tree was written since it moved must Seek instead.
func (c *Cursor) SeekAhead(key []byte) (ok bool) {
	if !c.valid || c.tx.closed || c.leaf.hasBigKeys() {
		return c.Seek(key)
	}
	n := c.leaf.count()
	i := c.stack[c.depth].idx
	if i >= n || compareKeys(c.leaf.leafKey(n-1), key) < 0 || compareKeys(c.leaf.leafKey(i), key) > 0 {
		return c.Seek(key)
	}
	defer c.guard(&ok)
	j, _ := c.leaf.searchFrom(i, key)
	c.stack[c.depth].idx = j
	c.decoded = false
	return true
}
