package factorized

import (
	"bytes"
	"hash/maphash"
)

// Hash slots are 16 bytes: the key's 64-bit hash, then 1+ the index of the
// group's first tuple. A zero slot is empty, which is why slot blocks take
// the zero-up-front path.
const (
	slotSize      = 16
	slotsPerBlock = BlockSize / slotSize
	slotShift     = 14 // log2(slotsPerBlock)
	minSlots      = ZeroStep / slotSize

	// A key cell is keyWidth bytes: a tag byte (0 no key, 1+length for a key
	// of up to keyInlineMax bytes stored after it, keyInOverflow for an
	// overflow reference at bytes 8..15), so keys of two encoded numbers
	// compare without leaving the tuple.
	keyWidth      = 24
	keyInlineMax  = keyWidth - 1
	keyInOverflow = 0xFF
)

// HashTable maps byte keys to tuples of a Table: the hash-join build side
// (Insert every build row, Probe with each probe key, iterate duplicates)
// and hash aggregation (FindOrInsert one tuple per group). Keys are opaque
// bytes compared for equality; the caller encodes composite keys so that
// equal SQL keys give equal bytes.
//
// The tuples carry the caller's payload columns first, then two hidden
// columns: the key (stored once per group, inline up to 23 bytes) and the
// link to the group's next tuple. Slots use linear probing at a load factor
// of at most one half. A HashTable is not safe for concurrent use.
type HashTable struct {
	t       Table
	keyCol  int
	nextCol int
	keyOff  int // byte offset of the key cell in a tuple
	pool    *Pool
	slots   []*Block // slot storage, zeroed up front
	views   [][]byte // slots[i]'s claimed bytes
	mask    uint64   // number of slots - 1; a power of two minus one
	groups  int      // distinct keys
	seed    maphash.Seed
	// oneSlot and oneView back slots and views while the table has one
	// slot block, sparing a small table two allocations.
	oneSlot [1]*Block
	oneView [1][]byte
}

// NewHashTable returns an empty hash table whose tuples have the columns of
// payload followed by the hidden key and link columns.
func NewHashTable(p *Pool, payload *Schema) (*HashTable, error) {
	s := payload.hashed.Load()
	if s == nil {
		var err error
		if s, err = payload.Extend(Bytes(keyWidth), Int64()); err != nil {
			return nil, err
		}
		payload.hashed.Store(s)
	}
	n := payload.NumColumns()
	h := &HashTable{keyCol: n, nextCol: n + 1, keyOff: s.Offset(n), pool: p, seed: maphash.MakeSeed()}
	h.t.Init(p, s)
	return h, nil
}

// Table returns the table of tuples; payload column i is column i.
func (h *HashTable) Table() *Table { return &h.t }

// Len returns the number of tuples.
func (h *HashTable) Len() int { return h.t.rows }

// Groups returns the number of distinct keys.
func (h *HashTable) Groups() int { return h.groups }

// Insert appends a zeroed tuple under key, after any tuples already under
// an equal key, and returns it for the caller to fill in (join build side).
// Its index is Len()-1.
func (h *HashTable) Insert(key []byte) Row {
	hash := maphash.Bytes(h.seed, key)
	slot, head := h.find(hash, key)
	if head < 0 {
		return h.newGroup(slot, hash, key)
	}
	r := h.t.Append()
	first := h.t.Row(head)
	// Chain after the group's first tuple: first -> r -> previous second.
	r.SetInt64(h.nextCol, first.Int64(h.nextCol))
	first.SetInt64(h.nextCol, int64(h.t.rows))
	return r
}

// FindOrInsert returns the tuple of key's group, appending a zeroed one if
// the key is new (found false); hash aggregation keeps one tuple per group.
func (h *HashTable) FindOrInsert(key []byte) (r Row, found bool) {
	hash := maphash.Bytes(h.seed, key)
	slot, head := h.find(hash, key)
	if head < 0 {
		return h.newGroup(slot, hash, key), false
	}
	return h.t.Row(head), true
}

// Find returns the index of the first tuple under key.
func (h *HashTable) Find(key []byte) (row int, ok bool) {
	if h.groups == 0 {
		return -1, false
	}
	_, head := h.find(maphash.Bytes(h.seed, key), key)
	return head, head >= 0
}

// Probe returns an iterator over the tuples under key.
func (h *HashTable) Probe(key []byte) Matches {
	head, _ := h.Find(key)
	return Matches{h: h, next: head + 1}
}

// Key returns a view of the key stored in a group's first tuple (the row
// FindOrInsert or Find return); nil for other tuples.
func (h *HashTable) Key(row int) []byte { return h.rowKey(h.t.Row(row)) }

func (h *HashTable) rowKey(r Row) []byte {
	k := r.b[h.keyOff : h.keyOff+keyWidth]
	switch tag := int(k[0]); {
	case tag == keyInOverflow:
		return h.t.ovf.get(le.Uint64(k[8:]))
	case tag > 0:
		return k[1:tag:tag]
	}
	return nil
}

func (h *HashTable) setKey(r Row, key []byte) {
	k := r.b[h.keyOff : h.keyOff+keyWidth]
	if len(key) <= keyInlineMax {
		k[0] = byte(len(key) + 1)
		copy(k[1:], key)
		return
	}
	k[0] = keyInOverflow
	le.PutUint64(k[8:], h.t.ovf.add(key))
}

// Reset empties the table for reuse, keeping the first tuple block; slot
// blocks go back to the pool and are taken (zeroed) again on first use.
func (h *HashTable) Reset() {
	h.t.Reset()
	h.releaseSlots()
}

// Release empties the table and returns all its blocks to the pool.
func (h *HashTable) Release() {
	h.t.Release()
	h.releaseSlots()
}

// SizeBytes returns the memory held by tuples and slots.
func (h *HashTable) SizeBytes() int64 {
	return h.t.SizeBytes() + int64(len(h.slots))*BlockSize
}

// Matches iterates over the tuples under one key. It is a small value.
type Matches struct {
	h    *HashTable
	next int // 1 + index of the next tuple; 0 at the end
}

// Next returns the next tuple, or ok false at the end.
func (m *Matches) Next() (r Row, ok bool) {
	_, r, ok = m.step()
	return r, ok
}

// NextIndex is Next returning the tuple's index in Table().
func (m *Matches) NextIndex() (row int, ok bool) {
	row, _, ok = m.step()
	return row, ok
}

func (m *Matches) step() (i int, r Row, ok bool) {
	if m.next == 0 {
		return -1, Row{}, false
	}
	i = m.next - 1
	r = m.h.t.Row(i)
	m.next = int(r.Int64(m.h.nextCol))
	return i, r, true
}

// find returns key's slot and its group's first tuple, or the empty slot
// where the key belongs and -1. Slots are allocated on first use, so an
// empty or released table holds none.
func (h *HashTable) find(hash uint64, key []byte) (slot uint64, head int) {
	if len(h.views) == 0 {
		h.allocSlots(minSlots)
	}
	i := hash & h.mask
	for range h.mask + 1 {
		s := h.slot(i)
		ref := le.Uint64(s[8:])
		if ref == 0 {
			return i, -1
		}
		if le.Uint64(s) == hash && bytes.Equal(h.Key(int(ref-1)), key) {
			return i, int(ref - 1)
		}
		i = (i + 1) & h.mask
	}
	// Unreachable while the load factor stays at most one half; reaching it
	// means the slots were not zeroed, a bug in this package.
	panic("factorized: hash table has no empty slot")
}

func (h *HashTable) slot(i uint64) []byte {
	off := (i & (slotsPerBlock - 1)) * slotSize
	return h.views[i>>slotShift][off : off+slotSize : off+slotSize]
}

// newGroup appends key's first tuple and fills the empty slot for it.
func (h *HashTable) newGroup(slot, hash uint64, key []byte) Row {
	r := h.t.Append()
	h.setKey(r, key)
	s := h.slot(slot)
	le.PutUint64(s, hash)
	le.PutUint64(s[8:], uint64(h.t.rows))
	h.groups++
	if uint64(h.groups)*2 > h.mask+1 {
		h.grow()
	}
	return r
}

// grow doubles the slots and reinserts every group by its stored hash.
func (h *HashTable) grow() {
	oldBlocks, oldViews, oldN := h.slots, h.views, h.mask+1
	if len(oldBlocks) == 1 {
		// They may be oneSlot and oneView, which allocSlots reuses.
		var ob [1]*Block
		var ov [1][]byte
		ob[0], ov[0] = oldBlocks[0], oldViews[0]
		oldBlocks, oldViews = ob[:], ov[:]
	}
	h.slots, h.views = nil, nil
	h.allocSlots(int(oldN * 2))
	for _, v := range oldViews {
		for off := 0; off < len(v); off += slotSize {
			if ref := le.Uint64(v[off+8:]); ref != 0 {
				h.place(le.Uint64(v[off:]), ref)
			}
		}
	}
	for _, b := range oldBlocks {
		h.pool.Put(b)
	}
}

// place puts a (hash, ref) pair into the first empty slot of its chain.
func (h *HashTable) place(hash, ref uint64) {
	i := hash & h.mask
	for le.Uint64(h.slot(i)[8:]) != 0 {
		i = (i + 1) & h.mask
	}
	s := h.slot(i)
	le.PutUint64(s, hash)
	le.PutUint64(s[8:], ref)
}

// allocSlots takes n zeroed slots (n a power of two) from the pool.
func (h *HashTable) allocSlots(n int) {
	h.mask = uint64(n - 1)
	if h.slots == nil {
		h.slots, h.views = h.oneSlot[:0], h.oneView[:0]
	}
	for left := n * slotSize; left > 0; left -= BlockSize {
		b := h.pool.GetZeroed(min(left, BlockSize))
		h.slots = append(h.slots, b)
		h.views = append(h.views, b.Bytes())
	}
}

// releaseSlots returns every slot block to the pool.
func (h *HashTable) releaseSlots() {
	for i, b := range h.slots {
		h.pool.Put(b)
		h.slots[i], h.views[i] = nil, nil
	}
	h.slots, h.views = h.slots[:0], h.views[:0]
	h.mask, h.groups = 0, 0
}
