package factorized

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"
)

// keyStore holds sort keys: each key's first 8 bytes big-endian and
// zero-padded (its prefix, so most comparisons are one integer compare) and
// a reference to the rest. Keys of up to 8 bytes live entirely in the
// prefix; longer ones are copied into pooled overflow blocks. Shared by
// Sorter and TopN.
type keyStore struct{ ovf overflow }

// inlineRef marks a key held entirely in its prefix; the low bits are its
// length.
const inlineRef = 1 << 63

// prefix returns key's first 8 bytes, big-endian, zero-padded.
func prefix(key []byte) uint64 {
	if len(key) >= 8 {
		return binary.BigEndian.Uint64(key)
	}
	var p [8]byte
	copy(p[:], key)
	return binary.BigEndian.Uint64(p[:])
}

// store returns key's prefix and reference.
func (ks *keyStore) store(key []byte) (pre, ref uint64) {
	if len(key) <= 8 {
		return prefix(key), inlineRef | uint64(len(key))
	}
	return prefix(key), ks.ovf.add(key)
}

// appendKey appends the stored key (pre, ref) to dst.
func (ks *keyStore) appendKey(dst []byte, pre, ref uint64) []byte {
	if ref&inlineRef != 0 {
		var p [8]byte
		binary.BigEndian.PutUint64(p[:], pre)
		return append(dst, p[:ref&^inlineRef]...)
	}
	return append(dst, ks.ovf.get(ref)...)
}

// compare orders two stored keys with equal prefixes by memcmp of the whole
// keys, a key that is a prefix of another first.
func (ks *keyStore) compare(ra, rb uint64) int {
	ai, bi := ra&inlineRef != 0, rb&inlineRef != 0
	switch {
	case ai && bi:
		return cmp.Compare(ra, rb) // the shorter key first
	case ai:
		return -1 // same first bytes and at most 8 of them: a prefix
	case bi:
		return 1
	}
	return bytes.Compare(ks.ovf.get(ra)[8:], ks.ovf.get(rb)[8:])
}

// before reports whether key sorts strictly before the stored key (pre,
// ref).
func (ks *keyStore) before(key []byte, pre, ref uint64) bool {
	if p := prefix(key); p != pre {
		return p < pre
	}
	if ref&inlineRef != 0 {
		return len(key) < int(ref&^inlineRef)
	}
	return bytes.Compare(key, ks.ovf.get(ref)) < 0
}

// sortEntry is what Sorter moves while sorting: 16 bytes, the key prefix
// and the arrival index into the sorter's refs and rows.
type sortEntry struct {
	pre uint64
	i   uint64
}

// Sorter orders rows by memcmp of caller-encoded keys of any length: ORDER
// BY over a factorized table. It radix-sorts the 8-byte key prefixes, then
// compares whole keys only within runs of equal prefixes. Equal keys keep
// the order they were added in. A prefix is zero-padded as it is built, so
// sort entries need no zeroed memory. Not safe for concurrent use.
type Sorter struct {
	keys keyStore
	ents []sortEntry
	tmp  []sortEntry // radix scratch, kept for reuse
	refs []uint64    // by arrival
	rows []int64     // by arrival
}

// NewSorter returns an empty sorter whose long keys use blocks of p.
func NewSorter(p *Pool) *Sorter { return &Sorter{keys: keyStore{ovf: newOverflow(p)}} }

// Add records row under key (copied).
func (s *Sorter) Add(row int, key []byte) {
	pre, ref := s.keys.store(key)
	s.ents = append(s.ents, sortEntry{pre: pre, i: uint64(len(s.rows))})
	s.refs = append(s.refs, ref)
	s.rows = append(s.rows, int64(row))
}

// Sort orders the added rows by key.
func (s *Sorter) Sort() {
	s.tmp = slices.Grow(s.tmp[:0], len(s.ents))[:len(s.ents)]
	radixSort(s.ents, s.tmp)
	for lo := 0; lo < len(s.ents); {
		hi := lo + 1
		for hi < len(s.ents) && s.ents[hi].pre == s.ents[lo].pre {
			hi++
		}
		if hi-lo > 1 {
			s.sortRun(s.ents[lo:hi])
		}
		lo = hi
	}
}

// sortRun orders entries with equal prefixes by the rest of their keys,
// then by arrival (runs are in arrival order unless the radix scatter
// moved them, so a run of short keys is usually sorted already).
func (s *Sorter) sortRun(run []sortEntry) {
	cmpEnt := func(a, b sortEntry) int {
		if c := s.keys.compare(s.refs[a.i], s.refs[b.i]); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	}
	if !slices.IsSortedFunc(run, cmpEnt) {
		slices.SortFunc(run, cmpEnt)
	}
}

// radixSort sorts ents by prefix: most significant byte first, each level
// scattering a bucket through tmp (same length) and recursing into the
// buckets, which soon fit in cache; small buckets are insertion-sorted.
// Equal prefixes keep arrival order.
func radixSort(ents, tmp []sortEntry) { radixLevel(ents, tmp, 7) }

// insertionMax is the bucket size below which insertion sort wins.
const insertionMax = 48

func radixLevel(ents, tmp []sortEntry, d int) {
	for len(ents) > insertionMax && d >= 0 {
		var counts [256]int
		shift := uint(8 * d)
		for _, e := range ents {
			counts[byte(e.pre>>shift)]++
		}
		d--
		if counts[byte(ents[0].pre>>shift)] == len(ents) {
			continue // every entry has this byte: go to the next one
		}
		var starts [256]int
		sum := 0
		for b, n := range counts {
			starts[b] = sum
			sum += n
		}
		next := starts
		for _, e := range ents {
			b := byte(e.pre >> shift)
			tmp[next[b]] = e
			next[b]++
		}
		copy(ents, tmp)
		for b, n := range counts {
			if n > 1 {
				lo := starts[b]
				radixLevel(ents[lo:lo+n], tmp[lo:lo+n], d)
			}
		}
		return
	}
	insertionSort(ents)
}

// insertionSort orders ents by (prefix, arrival).
func insertionSort(ents []sortEntry) {
	for i := 1; i < len(ents); i++ {
		e := ents[i]
		j := i
		for j > 0 && (ents[j-1].pre > e.pre || ents[j-1].pre == e.pre && ents[j-1].i > e.i) {
			ents[j] = ents[j-1]
			j--
		}
		ents[j] = e
	}
}

// Len returns the number of rows added.
func (s *Sorter) Len() int { return len(s.ents) }

// Row returns the i-th row in key order (after Sort).
func (s *Sorter) Row(i int) int { return int(s.rows[s.ents[i].i]) }

// Key appends the i-th key in key order (after Sort) to dst.
func (s *Sorter) Key(dst []byte, i int) []byte {
	e := s.ents[i]
	return s.keys.appendKey(dst, e.pre, s.refs[e.i])
}

// SizeBytes is the memory the sorter holds: its entries and long keys.
func (s *Sorter) SizeBytes() int64 {
	return int64(cap(s.ents)+cap(s.tmp))*16 + int64(cap(s.refs)+cap(s.rows))*8 + s.keys.ovf.bytes
}

// Reset empties the sorter, keeping its capacity and returning key blocks to
// the pool.
func (s *Sorter) Reset() {
	s.ents, s.refs, s.rows = s.ents[:0], s.refs[:0], s.rows[:0]
	s.keys.ovf.release()
}

// SortRows returns dst filled with the row indexes of t in the order cmp
// gives; equal rows keep table order. dst's capacity is reused.
func SortRows(t *Table, dst []int, cmpRows func(a, b Row) int) []int {
	dst = dst[:0]
	for i := range t.rows {
		dst = append(dst, i)
	}
	slices.SortFunc(dst, func(a, b int) int {
		if c := cmpRows(t.Row(a), t.Row(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return dst
}
