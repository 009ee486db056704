package factorized

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"
)

// sortEntry is one sort key: its first 8 bytes big-endian and zero-padded
// (so most comparisons are one integer compare), where the full key is, the
// row it sorts, and its arrival order for stable ties.
type sortEntry struct {
	pre uint64
	ref uint64 // inlineRef|length for keys of at most 8 bytes, else an overflow reference
	row int64
	seq int64
}

// inlineRef marks a key held entirely in pre.
const inlineRef = 1 << 63

// keyStore holds sort keys longer than 8 bytes; shared by Sorter and TopN.
type keyStore struct{ ovf overflow }

func (ks *keyStore) entry(key []byte, row, seq int64) sortEntry {
	var p [8]byte
	copy(p[:], key)
	e := sortEntry{pre: binary.BigEndian.Uint64(p[:]), row: row, seq: seq}
	if len(key) <= 8 {
		e.ref = inlineRef | uint64(len(key))
	} else {
		e.ref = ks.ovf.add(key)
	}
	return e
}

// before reports whether key, arriving after every stored entry, sorts
// before e: strictly smaller, since on a tie the earlier arrival wins.
func (ks *keyStore) before(key []byte, e *sortEntry) bool {
	var p [8]byte
	copy(p[:], key)
	if pre := binary.BigEndian.Uint64(p[:]); pre != e.pre {
		return pre < e.pre
	}
	if e.ref&inlineRef != 0 {
		return len(key) < int(e.ref&^inlineRef) // same first bytes: shorter first
	}
	return bytes.Compare(key, ks.ovf.get(e.ref)) < 0
}

// compare orders entries by memcmp of their keys (a key that is a prefix
// of another sorts first), then by arrival.
func (ks *keyStore) compare(a, b *sortEntry) int {
	if a.pre != b.pre {
		return cmp.Compare(a.pre, b.pre)
	}
	ai, bi := a.ref&inlineRef != 0, b.ref&inlineRef != 0
	var c int
	switch {
	case ai && bi:
		c = cmp.Compare(a.ref, b.ref) // equal prefixes: the shorter key first
	case ai:
		c = -1 // an inline key with the same first 8 bytes is a prefix
	case bi:
		c = 1
	default:
		c = bytes.Compare(ks.ovf.get(a.ref)[8:], ks.ovf.get(b.ref)[8:])
	}
	if c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// Sorter orders rows by memcmp of caller-encoded keys of any length: ORDER
// BY over a factorized table. Keys of up to 8 bytes cost no storage beyond
// their entry; longer ones are copied into pooled blocks. Equal keys keep
// the order they were added in. Not safe for concurrent use.
type Sorter struct {
	keys keyStore
	ents []sortEntry
}

// NewSorter returns an empty sorter whose long keys use blocks of p.
func NewSorter(p *Pool) *Sorter { return &Sorter{keys: keyStore{ovf: newOverflow(p)}} }

// Add records row under key (copied).
func (s *Sorter) Add(row int, key []byte) {
	s.ents = append(s.ents, s.keys.entry(key, int64(row), int64(len(s.ents))))
}

// Sort orders the added rows by key.
func (s *Sorter) Sort() {
	slices.SortFunc(s.ents, func(a, b sortEntry) int { return s.keys.compare(&a, &b) })
}

// Len returns the number of rows added.
func (s *Sorter) Len() int { return len(s.ents) }

// Row returns the i-th row in key order (after Sort).
func (s *Sorter) Row(i int) int { return int(s.ents[i].row) }

// Reset empties the sorter, keeping its entry capacity and returning key
// blocks to the pool.
func (s *Sorter) Reset() {
	s.ents = s.ents[:0]
	s.keys.ovf.release()
}

// SortRows returns dst filled with the row indexes of t in the order cmp
// gives (stable: equal rows keep table order). dst's capacity is reused.
func SortRows(t *Table, dst []int, cmp func(a, b Row) int) []int {
	dst = dst[:0]
	for i := range t.rows {
		dst = append(dst, i)
	}
	slices.SortStableFunc(dst, func(a, b int) int { return cmp(t.Row(a), t.Row(b)) })
	return dst
}
