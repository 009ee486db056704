package storage

import "encoding/binary"

// interpMin is the fewest cells a node's search interpolates over; below it
// a binary search costs as few probes.
const interpMin = 8

// interpSearch is the binary search of a leaf (searchFrom) or branch
// (childIndex) over cells [lo, hi), guided by interpolation, for 8-byte
// keys (the rowid keys of table trees): it returns the first cell whose key
// is >= key (> key when upper), the answer a binary search gives. Rowids
// are spread close to evenly, so the cell the end keys predict is the
// target or a few cells off, and galloping from it costs two or three
// probes instead of a binary search's seven to nine — each probe a likely
// cache miss on a page a point lookup touches once. ok is false when the
// node has too few cells or its end keys are not 8 bytes long.
func (n node) interpSearch(lo, hi int, key []byte, leaf, upper bool) (i int, ok bool) {
	if hi-lo < interpMin || len(key) != 8 {
		return 0, false
	}
	a, b := n.searchKey(lo, leaf), n.searchKey(hi-1, leaf)
	if len(a) != 8 || len(b) != 8 {
		return 0, false
	}
	x, y, t := binary.BigEndian.Uint64(a), binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(key)
	// Cell c is before key when its key is < key (<= key when upper).
	if x > t || !upper && x == t {
		return lo, true
	}
	if y < t || upper && y == t {
		return hi, true
	}
	// The answer lies in (lo, hi-1]: cell lo is before key, cell hi-1 not.
	// A hit on the guessed cell answers at once.
	g := lo + 1
	if y > x {
		g = lo + int(float64(t-x)/float64(y-x)*float64(hi-1-lo))
		g = min(max(g, lo+1), hi-1)
	}
	c := compareKeys(n.searchKey(g, leaf), key)
	if c == 0 { // the usual outcome: the keys are distinct
		if upper {
			return g + 1, true
		}
		return g, true
	}
	if c < 0 {
		l, step := g, 1 // gallop forwards: cell l is before key
		for l+step < hi-1 && n.before(l+step, key, leaf, upper) {
			l += step
			step *= 2
		}
		return n.narrow(l, min(l+step, hi-1), key, leaf, upper), true
	}
	r, step := g, 1 // gallop backwards: cell r is not before key
	for r-step > lo && !n.before(r-step, key, leaf, upper) {
		r -= step
		step *= 2
	}
	return n.narrow(max(r-step, lo), r, key, leaf, upper), true
}

// before reports whether cell i's key sorts before key: < key, or <= key
// when upper.
func (n node) before(i int, key []byte, leaf, upper bool) bool {
	c := compareKeys(n.searchKey(i, leaf), key)
	return c < 0 || upper && c == 0
}

// narrow returns the first cell in (l, r] not before key, given that cell
// l is before it and cell r is not.
func (n node) narrow(l, r int, key []byte, leaf, upper bool) int {
	for r-l > 1 {
		m := int(uint(l+r) >> 1)
		if n.before(m, key, leaf, upper) {
			l = m
		} else {
			r = m
		}
	}
	return r
}

// searchKey is cell i's key as the searches compare it.
func (n node) searchKey(i int, leaf bool) []byte {
	if leaf {
		return n.leafKey(i)
	}
	return n.branchKey(i)
}
