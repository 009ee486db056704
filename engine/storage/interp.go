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
	g := lo + 1
	if y > x {
		g = lo + int(float64(t-x)/float64(y-x)*float64(hi-1-lo))
		g = min(max(g, lo+1), hi-1)
	}
	return n.fromGuess(lo+1, hi, g, key, leaf, upper), true
}

// boundedGuess is the cell of [lo, hi) where key is expected when the
// node's keys lie in [x, y): the separators of its parent, which a
// descent has just read, so guessing costs no probe. ok is false when the
// node is small or a bound or the key is not 8 bytes long.
func boundedGuess(lo, hi int, key, x, y []byte) (g int, ok bool) {
	if hi-lo < interpMin || len(key) != 8 || len(x) != 8 || len(y) != 8 {
		return 0, false
	}
	a, b, t := binary.BigEndian.Uint64(x), binary.BigEndian.Uint64(y), binary.BigEndian.Uint64(key)
	if b <= a || t <= a {
		return lo, true
	}
	g = lo + int(float64(t-a)/float64(b-a)*float64(hi-lo))
	return min(max(g, lo), hi-1), true
}

// fromGuess returns the first cell in [lo, hi) not before key (hi when
// all are), searching outwards from cell g (lo <= g < hi): a hit answers
// at once, otherwise it gallops towards the answer and bisects the last
// gap, so a guess d cells off costs about 2·log2(d) probes.
func (n node) fromGuess(lo, hi, g int, key []byte, leaf, upper bool) int {
	c := compareKeys(n.searchKey(g, leaf), key)
	if c == 0 && !upper {
		return g // leaf keys are distinct: g is the first >= key
	}
	if c <= 0 { // cell g is before key: the answer is in (g, hi]
		l, step := g, 1
		for l+step < hi && n.before(l+step, key, leaf, upper) {
			l += step
			step *= 2
		}
		return n.narrow(l, min(l+step, hi), key, leaf, upper)
	}
	r, step := g, 1 // cell g is not before key: the answer is in [lo, g]
	for r-step >= lo && !n.before(r-step, key, leaf, upper) {
		r -= step
		step *= 2
	}
	return n.narrow(max(r-step, lo-1), r, key, leaf, upper)
}

// searchIn is search for a leaf whose keys lie in [x, y) (nil when a side
// is unbounded), guessing from the bounds when it can.
func (n node) searchIn(key, x, y []byte) (int, bool) {
	cnt := n.count()
	g, ok := boundedGuess(0, cnt, key, x, y)
	if !ok {
		return n.search(key)
	}
	i := n.fromGuess(0, cnt, g, key, true, false)
	return i, i < cnt && compareKeys(n.leafKey(i), key) == 0
}

// childIndexIn is childIndex for a branch whose separators lie in [x, y).
func (n node) childIndexIn(key, x, y []byte) int {
	cnt := n.count()
	g, ok := boundedGuess(0, cnt, key, x, y)
	if !ok {
		return n.childIndex(key)
	}
	return n.fromGuess(0, cnt, g, key, false, true)
}

// before reports whether cell i's key sorts before key: < key, or <= key
// when upper.
func (n node) before(i int, key []byte, leaf, upper bool) bool {
	c := compareKeys(n.searchKey(i, leaf), key)
	return c < 0 || upper && c == 0
}

// narrow returns the first cell in (l, r] not before key, given that cell
// l is before it and cell r is not (either may be a bound past the cells:
// only cells strictly between are probed).
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
