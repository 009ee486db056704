package storage

import "encoding/binary"

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
	c.stack[c.depth].idx = searchAhead(c.leaf, i, n, key)
	c.decoded = false
	return true
}

// searchAhead returns the first slot in [i, n) of leaf whose key is >=
// key, given slot i's key is <= key and slot n-1's is >= key. Rowid keys
// (8 bytes) of a table are close to evenly spread, so it starts at the
// slot interpolation predicts and gallops from there.
func searchAhead(leaf node, i, n int, key []byte) int {
	g := interpolate(leaf, i, n, key)
	if g == i || compareKeys(leaf.leafKey(g), key) < 0 {
		return gallop(leaf, g, n, key)
	}
	hi, step := g, 1 // leafKey(hi) >= key: gallop backwards
	for hi-step > i && compareKeys(leaf.leafKey(hi-step), key) >= 0 {
		hi -= step
		step *= 2
	}
	return firstAtLeast(leaf, max(hi-step, i), hi, key)
}

// interpolate guesses key's slot in [i, n) from the 8-byte keys at both
// ends; i when the keys are not rowid keys.
func interpolate(leaf node, i, n int, key []byte) int {
	a, b := leaf.leafKey(i), leaf.leafKey(n-1)
	if len(a) != 8 || len(b) != 8 || len(key) != 8 {
		return i
	}
	x, y, t := binary.BigEndian.Uint64(a), binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(key)
	if y <= x || t <= x {
		return i
	}
	g := i + int(float64(t-x)/float64(y-x)*float64(n-1-i))
	return min(max(g, i), n-1)
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
	return firstAtLeast(leaf, lo, min(lo+step, n-1), key)
}

// firstAtLeast binary-searches [lo, hi] for the first slot whose key is
// >= key, given slot hi's is.
func firstAtLeast(leaf node, lo, hi int, key []byte) int {
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
