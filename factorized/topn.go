package factorized

import "cmp"

// TopN keeps the n smallest keys offered so far, for ORDER BY … LIMIT n
// (with OFFSET, n is limit+offset): a max-heap of n entries whose root is
// the worst kept key. Each kept candidate owns a slot number below n; when a
// better candidate evicts the root it inherits the root's slot, so the
// caller stores payloads in a table of at most n rows, overwriting in place.
// Ties keep the earlier candidate, as a stable sort followed by LIMIT would.
// Overwriting a row's long text or blob leaves the old bytes in that table's
// overflow buffer until it is Reset or Released.
type TopN struct {
	n     int
	keys  keyStore
	heap  []topEntry // max-heap by (key, arrival)
	seq   int64
	dead  int // bytes of evicted long keys still in the key store
	live  int // bytes of kept long keys
	pool  *Pool
	order bool // heap has been sorted ascending by Sort
}

// NewTopN returns an empty TopN keeping n keys (n ≤ 0 keeps none).
func NewTopN(p *Pool, n int) *TopN {
	return &TopN{n: max(n, 0), keys: keyStore{ovf: newOverflow(p)}, pool: p}
}

// Offer considers a candidate. If it is among the n smallest so far it
// returns ok and the slot to write its payload to: the number of slots in
// use before (a new row to append) or the slot of the candidate it evicted
// (a row to overwrite). Offer must not be called after Sort.
func (h *TopN) Offer(key []byte) (slot int, ok bool) {
	if h.n == 0 || h.order {
		return 0, false
	}
	if len(h.heap) < h.n {
		slot = len(h.heap)
		h.heap = append(h.heap, h.entry(key, slot))
		h.countLive(len(key))
		h.up(len(h.heap) - 1)
		return slot, true
	}
	if root := &h.heap[0]; !h.keys.before(key, root.pre, root.ref) {
		return 0, false
	}
	slot = int(h.heap[0].slot)
	h.evict(&h.heap[0])
	h.heap[0] = h.entry(key, slot)
	h.countLive(len(key))
	h.down(0)
	h.maybeCompact()
	return slot, true
}

// Sort orders the kept candidates ascending; after it, Len and Slot list
// them in order.
func (h *TopN) Sort() {
	for end := len(h.heap) - 1; end > 0; end-- {
		h.heap[0], h.heap[end] = h.heap[end], h.heap[0]
		h.siftDown(0, end)
	}
	h.order = true
}

// Len returns the number of kept candidates.
func (h *TopN) Len() int { return len(h.heap) }

// Slot returns the slot of the i-th kept candidate in key order (after
// Sort).
func (h *TopN) Slot(i int) int { return int(h.heap[i].slot) }

// Key appends the i-th kept key in key order (after Sort) to dst.
func (h *TopN) Key(dst []byte, i int) []byte {
	e := &h.heap[i]
	return h.keys.appendKey(dst, e.pre, e.ref)
}

// SizeBytes is the memory the TopN holds: its entries and long keys.
func (h *TopN) SizeBytes() int64 { return int64(cap(h.heap))*32 + h.keys.ovf.bytes }

// Reset empties the TopN for reuse.
func (h *TopN) Reset() {
	h.heap = h.heap[:0]
	h.keys.ovf.release()
	h.seq, h.dead, h.live, h.order = 0, 0, 0, false
}

// topEntry is a kept candidate: its key, its arrival and its slot.
type topEntry struct {
	pre, ref  uint64
	seq, slot int64
}

func (h *TopN) entry(key []byte, slot int) topEntry {
	pre, ref := h.keys.store(key)
	h.seq++
	return topEntry{pre: pre, ref: ref, seq: h.seq - 1, slot: int64(slot)}
}

// compare orders kept candidates by key, then arrival.
func (h *TopN) compare(a, b *topEntry) int {
	if a.pre != b.pre {
		return cmp.Compare(a.pre, b.pre)
	}
	if c := h.keys.compare(a.ref, b.ref); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

func (h *TopN) countLive(n int) {
	if n > 8 {
		h.live += n
	}
}

func (h *TopN) evict(e *topEntry) {
	if e.ref&inlineRef == 0 {
		n := len(h.keys.ovf.get(e.ref))
		h.live -= n
		h.dead += n
	}
}

// maybeCompact copies the kept long keys into fresh blocks once evicted
// keys take more space than kept ones and a block, so a long descending
// input does not grow the key store without bound.
func (h *TopN) maybeCompact() {
	if h.dead <= BlockSize || h.dead <= h.live {
		return
	}
	fresh := keyStore{ovf: newOverflow(h.pool)}
	for i := range h.heap {
		if e := &h.heap[i]; e.ref&inlineRef == 0 {
			e.ref = fresh.ovf.add(h.keys.ovf.get(e.ref))
		}
	}
	h.keys.ovf.release()
	h.keys = fresh
	h.dead = 0
}

func (h *TopN) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if h.compare(&h.heap[p], &h.heap[i]) >= 0 {
			return
		}
		h.heap[p], h.heap[i] = h.heap[i], h.heap[p]
		i = p
	}
}

func (h *TopN) down(i int) { h.siftDown(i, len(h.heap)) }

// siftDown restores the max-heap property of heap[:end] below i.
func (h *TopN) siftDown(i, end int) {
	for {
		c := 2*i + 1
		if c >= end {
			return
		}
		if c+1 < end && h.compare(&h.heap[c+1], &h.heap[c]) > 0 {
			c++
		}
		if h.compare(&h.heap[i], &h.heap[c]) >= 0 {
			return
		}
		h.heap[i], h.heap[c] = h.heap[c], h.heap[i]
		i = c
	}
}
