package storage

import (
	"encoding/binary"
	"fmt"

	"github.com/ladybugsql/ladybug/engine/keycodec"
)

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

// AppendRowids appends to dst the entries of a table tree (8-byte rowid
// keys) for rowids, which ascend: the entry of rowids[0] and of those after
// it on the same leaf, stopping before the first that is missing, on a
// later leaf, or in a cell the short-cell path cannot read (an overflow
// value). It returns dst and how many rowids it read: 0 when rowids[0]
// itself cannot be read this way (the caller then uses Seek and Value).
//
// The cursor reaches rowids[0] as SeekAhead does; within the leaf each
// later key is found from the previous one by interpolation and a short
// gallop (searchRowid), not a search of the whole leaf, so a sorted batch
// of rowids costs one leaf load per leaf it touches and a few key
// comparisons per rowid. The entries view the pinned leaf and are valid
// until the cursor moves; the cursor stays on the last one. As with
// SeekAhead, a cursor whose tree was written since it moved must Seek
// first.
func (c *Cursor) AppendRowids(dst []Entry, rowids []int64) (out []Entry, n int) {
	if len(rowids) == 0 {
		return dst, 0
	}
	base := len(dst)
	defer func() {
		if r := recover(); r != nil {
			c.fail(fmt.Errorf("%w: damaged page (%v)", ErrCorrupt, r))
			out, n = dst[:base], 0
		}
	}()
	t := keycodec.RowidBits(rowids[0])
	i, ok := c.rowidSlot(t, rowids)
	if !ok {
		return dst, 0
	}
	leaf := c.leaf
	cnt := leaf.count()
	last, at := leaf.rowidAt(cnt-1), i
	for n < len(rowids) {
		if n > 0 {
			prev := t
			if t = keycodec.RowidBits(rowids[n]); t > last {
				break
			}
			if t != prev {
				i = leaf.searchRowid(i, cnt, prev, last, t)
			}
		}
		if leaf.rowidAt(i) != t {
			break // missing: the caller's Seek reports it
		}
		key, val, ok := leaf.shortCell(i)
		if !ok || len(key) != 8 {
			break
		}
		dst = append(dst, Entry{key, val})
		at = i
		n++
	}
	if n > 0 {
		c.stack[c.depth].idx = at
		c.decoded = false
	}
	return dst, n
}

// rowidSlot moves the cursor to the first entry whose key is >= the rowid
// key with bits t, rowids[0]'s, and returns its slot: within the current
// leaf when t is there (searchRowid), otherwise by climb or Seek. It
// touches the cells of the rowids on the leaf first (touchRowids). false
// means no entry there or an error (see Err).
func (c *Cursor) rowidSlot(t uint64, rowids []int64) (int, bool) {
	if c.valid && !c.tx.closed && !c.leaf.hasBigKeys() {
		cnt := c.leaf.count()
		if i := c.stack[c.depth].idx; i < cnt {
			lo, hi := c.leaf.rowidAt(i), c.leaf.rowidAt(cnt-1)
			if lo <= t && t <= hi {
				c.touched = c.leaf.touchRowids(i, cnt, lo, hi, rowids)
				return c.leaf.searchRowid(i, cnt, lo, hi, t), true
			}
		}
	}
	var key [8]byte
	binary.BigEndian.PutUint64(key[:], t)
	if c.valid && !c.tx.closed && c.depth > 0 && c.leaf.count() > 0 && t > c.leaf.rowidAt(c.leaf.count()-1) {
		return c.climb(t, key[:], rowids)
	}
	if !c.Seek(key[:]) || c.leaf.hasBigKeys() {
		return 0, false
	}
	return c.stack[c.depth].idx, true
}

// climb is Seek for a rowid key past the cursor's leaf: it climbs only to
// the lowest ancestor with a later child covering the key (for ascending
// keys, nearly always the leaf's parent) and descends from there, so a
// walk over a table in rowid order reads one branch page per leaf it
// moves to instead of a whole root-to-leaf path, and finds the key in the
// new leaf by interpolation rather than a binary search.
func (c *Cursor) climb(t uint64, key []byte, rowids []int64) (int, bool) {
	c.decoded = false
	for d := c.depth - 1; d >= 0; d-- {
		n, err := c.tx.node(c.stack[d].pg)
		if err != nil {
			return 0, c.fail(err)
		}
		if err := treeNode(c.stack[d].pg, n); err != nil || n.isLeaf() {
			return 0, c.fail(fmt.Errorf("%w: page %d is not a branch", ErrCorrupt, c.stack[d].pg))
		}
		j := n.childFrom(c.stack[d].idx, key)
		if j == n.count() && d > 0 {
			continue // the key may lie past this branch: climb on
		}
		c.stack[d].idx = j
		return c.descendRowid(d+1, n.child(j), t, key, rowids)
	}
	return 0, c.fail(fmt.Errorf("%w: cursor path of tree %d has no root", ErrCorrupt, c.root))
}

// descendRowid descends from page p at depth d to the first entry >= the
// rowid key with bits t (key), touching the leaf cells of rowids first.
func (c *Cursor) descendRowid(d int, p uint32, t uint64, key []byte, rowids []int64) (int, bool) {
	for ; ; d++ {
		n, err := c.load(d, p)
		if err != nil {
			return 0, c.fail(err)
		}
		if n.isLeaf() {
			break
		}
		i := n.childIndex(key)
		c.stack[d].idx = i
		p = n.child(i)
	}
	leaf := c.leaf
	if leaf.hasBigKeys() {
		return 0, false
	}
	cnt, i := leaf.count(), 0
	if cnt > 0 {
		lo, hi := leaf.rowidAt(0), leaf.rowidAt(cnt-1)
		if t <= hi {
			c.touched = leaf.touchRowids(0, cnt, lo, hi, rowids)
		}
		switch {
		case t > hi:
			i = cnt
		case t > lo:
			i = leaf.searchRowid(0, cnt, lo, hi, t)
		}
	}
	c.stack[c.depth].idx = i
	if i >= cnt {
		if !c.up(true) {
			return 0, false
		}
		return c.stack[c.depth].idx, true
	}
	c.valid = true
	return i, true
}

// childFrom returns the index of the child of branch n that covers key,
// for a key at or after child i's range: the first separator from i on
// greater than key (count = the right child). It gallops from i, since a
// walk in key order mostly moves to the next child.
func (n node) childFrom(i int, key []byte) int {
	cnt := n.count()
	if i >= cnt || compareKeys(n.branchKey(i), key) > 0 {
		return min(i, cnt)
	}
	lo, step := i, 1 // separator lo is <= key
	for lo+step < cnt && compareKeys(n.branchKey(lo+step), key) <= 0 {
		lo += step
		step *= 2
	}
	hi := min(lo+step, cnt) // separator hi is > key, or hi = cnt
	for lo+1 < hi {
		m := int(uint(lo+hi) >> 1)
		if compareKeys(n.branchKey(m), key) <= 0 {
			lo = m
		} else {
			hi = m
		}
	}
	return hi
}

// touchRowids reads the first byte of the cells where rowids on this leaf
// (from slot i, key lo, to the last, key hi) are predicted to be, in one tight loop of
// independent loads, so their cache misses overlap instead of each
// stalling the search that needs it; the result only keeps the loads.
func (n node) touchRowids(i, cnt int, lo, hi uint64, rowids []int64) uint64 {
	if hi <= lo {
		return 0
	}
	var x uint64
	scale := float64(cnt-1-i) / float64(hi-lo)
	for _, id := range rowids {
		t := keycodec.RowidBits(id)
		if t > hi {
			break
		}
		if t < lo {
			continue
		}
		g := min(i+int(float64(t-lo)*scale), cnt-1)
		x += uint64(n[n.slot(g)])
	}
	return x
}

// rowidAt returns leaf cell i's key as a rowid key integer; keys of
// another length (never in a table tree) read as 0.
func (n node) rowidAt(i int) uint64 {
	if k := n.leafKey(i); len(k) == 8 {
		return binary.BigEndian.Uint64(k)
	}
	return 0
}

// searchRowid returns the first slot in [i, cnt) whose rowid key is >= t,
// given slot i's is lo <= t and slot cnt-1's is hi >= t. It probes the slot
// interpolation predicts (exact for a table of consecutive rowids) and
// gallops from there.
func (n node) searchRowid(i, cnt int, lo, hi, t uint64) int {
	g := i
	if hi > lo {
		g += int(float64(t-lo) / float64(hi-lo) * float64(cnt-1-i))
		g = min(max(g, i), cnt-1)
	}
	kg := n.rowidAt(g)
	if kg == t {
		return g // keys are distinct
	}
	if kg < t { // gallop forward: the answer is in (g, cnt)
		lo, step := g, 1
		for lo+step < cnt && n.rowidAt(lo+step) < t {
			lo += step
			step *= 2
		}
		return n.firstRowid(lo+1, min(lo+step, cnt-1), t)
	}
	hiSlot, step := g, 1 // slot g's key is >= t: gallop backwards
	for hiSlot-step > i && n.rowidAt(hiSlot-step) >= t {
		hiSlot -= step
		step *= 2
	}
	return n.firstRowid(max(hiSlot-step, i), hiSlot, t)
}

// firstRowid binary-searches [lo, hi] for the first slot whose rowid key
// is >= t, given slot hi's is.
func (n node) firstRowid(lo, hi int, t uint64) int {
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if n.rowidAt(m) < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
