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
	c.stack[c.depth].idx = gallop(c.leaf, i, n, key)
	c.decoded = false
	return true
}

// gallop returns the first slot in [i, n) of leaf whose key is >= key,
// given that slot n-1's is: it probes i+1, i+3, i+7, … and then searches
// the last gap, so a target a few slots ahead costs a few comparisons.
func gallop(leaf node, i, n int, key []byte) int {
	lo, step := i, 1
	for lo+step < n && compareKeys(leaf.leafKey(lo+step), key) < 0 {
		lo += step
		step *= 2
	}
	hi := min(lo+step, n-1) // leafKey(hi) >= key
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compareKeys(leaf.leafKey(m), key) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
