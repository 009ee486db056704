package txn

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"slices"
)

// keyTable is a set of byte keys with a tombState each: the tombstones of
// a tree that arrived out of key order (random point deletes, index
// entries). The keys are packed in one buffer and found through an
// open-addressing table of entry numbers, so adding one costs an append
// and a probe, and the garbage collector has no pointers to trace. Entries
// are never removed: a key leaving the live states keeps its entry in
// state tsNone, and adding it again revives that entry.
type keyTable struct {
	buf   []byte
	ents  []keyEnt
	slots []uint64 // 0: empty; else hash tag (high 32 bits) | entry index+1
}

// keyEnt is one key of a keyTable: buf[off:off+n].
type keyEnt struct {
	hash uint64
	off  int
	n    int32
	st   tombState
}

// keyFirstSlots is the first table size: 64 slots, 512 bytes.
const keyFirstSlots = 64

// keyHash hashes a key. Rowid keys (8 bytes) take a multiply-xorshift mix
// of their bits, cheaper than maphash and as well spread.
func keyHash(key []byte) uint64 {
	if len(key) == 8 {
		x := binary.BigEndian.Uint64(key)
		x ^= x >> 33
		x *= 0xff51afd7ed558ccd
		x ^= x >> 33
		x *= 0xc4ceb9fe1a85ec53
		return x ^ x>>33
	}
	return maphash.Bytes(tombSeed, key)
}

// tombSeed seeds maphash for keyHash; any fixed seed works.
var tombSeed = maphash.MakeSeed()

// key returns entry i's key; it must not be written.
func (t *keyTable) key(i int) []byte {
	e := &t.ents[i]
	end := e.off + int(e.n)
	return t.buf[e.off:end:end]
}

// find returns the index of key's entry, or -1.
func (t *keyTable) find(key []byte) int {
	if len(t.ents) == 0 {
		return -1
	}
	return t.probe(key, keyHash(key))
}

// probe is find with the hash computed.
func (t *keyTable) probe(key []byte, h uint64) int {
	mask := uint64(len(t.slots) - 1)
	tag := h >> 32 << 32
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return -1
		}
		if s&^0xffffffff == tag {
			if e := int(uint32(s)) - 1; string(t.key(e)) == string(key) {
				return e
			}
		}
	}
}

// insert adds key, which must be absent, in state st and returns its
// entry index.
func (t *keyTable) insert(key []byte, st tombState) int {
	if 2*(len(t.ents)+1) > len(t.slots) {
		t.grow()
	}
	h := keyHash(key)
	i := len(t.ents)
	t.ents = append(t.ents, keyEnt{hash: h, off: len(t.buf), n: int32(len(key)), st: st})
	t.buf = append(t.buf, key...)
	t.place(h, i)
	return i
}

// place records entry i of hash h in the first free slot of its probe run.
func (t *keyTable) place(h uint64, i int) {
	mask := uint64(len(t.slots) - 1)
	j := h & mask
	for t.slots[j] != 0 {
		j = (j + 1) & mask
	}
	t.slots[j] = h>>32<<32 | uint64(i+1)
}

// grow doubles the slot table and re-places every entry.
func (t *keyTable) grow() {
	n := max(keyFirstSlots, 2*len(t.slots))
	if want := 1 << bits.Len(uint(2*len(t.ents)+1)); n < want {
		n = want
	}
	t.slots = make([]uint64, n)
	for i := range t.ents {
		t.place(t.ents[i].hash, i)
	}
}

// live returns the number of entries in a live state.
func (t *keyTable) live() int {
	n := 0
	for i := range t.ents {
		if t.ents[i].st != tsNone {
			n++
		}
	}
	return n
}

// sorted appends the live keys to dst in key order, sharing the table's
// buffer.
// It sorts them by the 8 bytes that follow the prefix every key shares,
// as integers with a radix sort (rowid keys, and index keys that share a
// leading run, are decided there in a few linear passes), and only keys
// tied on those bytes by comparison.
func (t *keyTable) sorted(dst [][]byte) [][]byte {
	items := make([]sortItem, 0, len(t.ents))
	var first []byte
	lcp := 0
	for i := range t.ents {
		if t.ents[i].st == tsNone {
			continue
		}
		k := t.key(i)
		if first == nil {
			first, lcp = k, len(k)
		} else {
			lcp = commonPrefix(first[:lcp], k)
		}
		items = append(items, sortItem{idx: int32(i)})
	}
	for j := range items {
		items[j].key = prefix64(t.key(int(items[j].idx))[lcp:])
	}
	radixSort(items)
	base := len(dst)
	for j := range items {
		dst = append(dst, t.key(int(items[j].idx)))
	}
	keys := dst[base:]
	for lo := 0; lo < len(items); {
		hi := lo + 1
		for hi < len(items) && items[hi].key == items[lo].key {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(keys[lo:hi], bytes.Compare)
		}
		lo = hi
	}
	return dst
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i+8 <= n; i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	i := n &^ 7
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// prefix64 returns the first 8 bytes of b as a big-endian integer, zero
// padded: a < b as bytes implies prefix64(a) <= prefix64(b).
func prefix64(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.BigEndian.Uint64(b)
	}
	var x [8]byte
	copy(x[:], b)
	return binary.BigEndian.Uint64(x[:])
}
