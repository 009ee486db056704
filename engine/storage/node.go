package storage

import (
	"bytes"
	"encoding/binary"
)

// node is a B+tree page viewed in place: a slotted page whose header is
// followed by a slot array of 2-byte cell offsets in key order, with cell
// bodies packed from the end of the page (before the checksum trailer)
// downwards. See doc.go for the byte layout.
type node []byte

const (
	nodeHdrSize = 16
	slotSize    = 2
	ovflBit     = 1 // low bit of a leaf cell's value word: value is in overflow pages
)

func (n node) typ() byte      { return n[0] }
func (n node) isLeaf() bool   { return n[0] == typeLeaf }
func (n node) count() int     { return int(binary.BigEndian.Uint16(n[2:])) }
func (n node) setCount(c int) { binary.BigEndian.PutUint16(n[2:], uint16(c)) }
func (n node) cellStart() int { return int(binary.BigEndian.Uint16(n[4:])) }
func (n node) setCellStart(o int) {
	binary.BigEndian.PutUint16(n[4:], uint16(o))
}
func (n node) frag() int         { return int(binary.BigEndian.Uint16(n[6:])) }
func (n node) setFrag(f int)     { binary.BigEndian.PutUint16(n[6:], uint16(f)) }
func (n node) right() uint32     { return binary.BigEndian.Uint32(n[8:]) }
func (n node) setRight(p uint32) { binary.BigEndian.PutUint32(n[8:], p) }
func (n node) end() int          { return len(n) - trailerSize }
func (n node) slot(i int) int    { return int(binary.BigEndian.Uint16(n[nodeHdrSize+slotSize*i:])) }
func (n node) setSlot(i, off int) {
	binary.BigEndian.PutUint16(n[nodeHdrSize+slotSize*i:], uint16(off))
}

// initNode makes n an empty node of type typ.
func initNode(n node, typ byte) {
	clear(n[:nodeHdrSize])
	n[0] = typ
	n.setCellStart(n.end())
}

// gap is the contiguous free space between the slot array and the cells.
func (n node) gap() int { return n.cellStart() - nodeHdrSize - slotSize*n.count() }

// freeSpace is all reusable space: the gap plus fragments.
func (n node) freeSpace() int { return n.gap() + n.frag() }

// capacity is the space a node's slots and cells may use.
func (n node) capacity() int { return n.end() - nodeHdrSize }

// used is the space a node's slots and cells use now.
func (n node) used() int { return n.capacity() - n.freeSpace() }

// leafKey returns the inline key of leaf cell i, without allocating: the
// whole key, or for a big key (see bigKeyPrefix) only its first bytes.
func (n node) leafKey(i int) []byte {
	off := n.slot(i)
	if kl, vw := n[off], n[off+1]; kl < 0x80 && vw < 0x80 {
		return n[off+2 : off+2+int(kl)] // short key, short inline value
	}
	klen, a := uvarint(n[off:])
	_, b := uvarint(n[off+a:])
	s := off + a + b
	return n[s : s+inlineKeyLen(klen, len(n))]
}

// shortCell decodes leaf cell i when it has the common shape: a short key
// and a short inline value (one-byte lengths), no big key. It checks every bound
// itself, so a damaged page yields ok false (the caller then takes the
// guarded general path) rather than a panic.
func (n node) shortCell(i int) (key, val []byte, ok bool) {
	so := nodeHdrSize + slotSize*i
	if so+slotSize > len(n) {
		return nil, nil, false
	}
	off := int(binary.BigEndian.Uint16(n[so:]))
	if off+2 > len(n) {
		return nil, nil, false
	}
	kl, vw := int(n[off]), int(n[off+1])
	if kl >= 0x80 || vw >= 0x80 || vw&ovflBit != 0 || kl > maxKey(len(n)) {
		return nil, nil, false // long, overflow or big key (small pages)
	}
	ks := off + 2
	vs := ks + kl
	ve := vs + vw>>1
	if ve > len(n) {
		return nil, nil, false
	}
	return n[ks:vs:vs], n[vs:ve:ve], true
}

// appendShortRun appends leaf cells from, from+1, ... (before end) to dst
// while they have shortCell's shape, and returns dst and the index of the
// first cell not appended.
func (n node) appendShortRun(dst []Entry, from, end int) ([]Entry, int) {
	// The spans stay on the stack only while no value built from them can
	// reach dst: escape analysis is not field-sensitive, so reading the
	// cells through a Cells value (whose n flows into dst) would move buf
	// to the heap on every call.
	var buf [64]uint32
	spans := n.appendShortSpans(buf[:0], from, min(end, from+len(buf)))
	for i, sp := range spans {
		dst = append(dst, Entry{n.shortKey(from + i), n.spanValue(sp)})
	}
	return dst, from + len(spans)
}

// leafEntry is a decoded leaf cell.
type leafEntry struct {
	key   []byte // inline key: the whole key, or a big key's first bytes
	klen  int    // full key length
	val   []byte // inline value; nil when the value is in overflow pages
	ovfl  uint32 // first overflow page, 0 = none
	chain int    // bytes in the overflow chain: the rest of a big key, then the value
}

// keyRest is how many key bytes lead the overflow chain.
func (e leafEntry) keyRest() int { return e.klen - len(e.key) }

// leafCell decodes leaf cell i.
func (n node) leafCell(i int) leafEntry { return decodeLeafCell(n[n.slot(i):], len(n)) }

// decodeLeafCell decodes an encoded leaf cell of a page of size ps.
func decodeLeafCell(c []byte, ps int) leafEntry {
	klen, a := uvarint(c)
	vw, b := uvarint(c[a:])
	s := a + b
	inl := inlineKeyLen(klen, ps)
	e := leafEntry{key: c[s : s+inl], klen: klen}
	vlen := vw >> 1
	if vw&ovflBit != 0 {
		e.ovfl = binary.BigEndian.Uint32(c[s+inl:])
		e.chain = klen - inl + vlen
		return e
	}
	e.val = c[s+inl : s+inl+vlen]
	return e
}

// Big keys: a key longer than maxKey keeps its first bigKeyPrefix bytes in
// the leaf cell and the rest at the head of the cell's overflow chain
// (before the value). Leaves holding one carry nodeFlagBigKeys, and
// searches in them compare full keys where the prefix cannot decide.
// Separators in branches are always short (see Tx.separator).
const nodeFlagBigKeys = 1 // node header byte 1

func bigKeyPrefix(ps int) int { return maxKey(ps) / 2 }

// inlineKeyLen is how much of a klen-byte key a leaf cell holds inline.
func inlineKeyLen(klen, ps int) int {
	if klen > maxKey(ps) {
		return bigKeyPrefix(ps)
	}
	return klen
}

func (n node) hasBigKeys() bool { return n[1]&nodeFlagBigKeys != 0 }

// branchKey returns the separator key of branch cell i.
func (n node) branchKey(i int) []byte {
	off := n.slot(i) + 4
	if kl := n[off]; kl < 0x80 {
		return n[off+1 : off+1+int(kl)]
	}
	klen, a := uvarint(n[off:])
	return n[off+a : off+a+klen]
}

// child returns the child pointer at index i; i == count is the right child.
func (n node) child(i int) uint32 {
	if i >= n.count() {
		return n.right()
	}
	return binary.BigEndian.Uint32(n[n.slot(i):])
}

// setChild sets the child pointer at index i (count = the right child).
func (n node) setChild(i int, p uint32) {
	if i >= n.count() {
		n.setRight(p)
		return
	}
	binary.BigEndian.PutUint32(n[n.slot(i):], p)
}

// key returns the key of cell i of either node type.
func (n node) key(i int) []byte {
	if n.isLeaf() {
		return n.leafKey(i)
	}
	return n.branchKey(i)
}

// cellBytes returns cell i's bytes.
func (n node) cellBytes(i int) []byte {
	off := n.slot(i)
	return n[off : off+n.cellLen(off)]
}

// cellLen returns the length of the cell at offset off.
func (n node) cellLen(off int) int {
	if n.isLeaf() {
		klen, a := uvarint(n[off:])
		vw, b := uvarint(n[off+a:])
		inl := inlineKeyLen(klen, len(n))
		if vw&ovflBit != 0 {
			return a + b + inl + 4
		}
		return a + b + inl + vw>>1
	}
	klen, a := uvarint(n[off+4:])
	return 4 + a + klen
}

// search returns the first index whose key is >= key, and whether it is
// equal (leaf lookup).
func (n node) search(key []byte) (int, bool) { return n.searchFrom(0, key) }

// childIndex returns the index of the child that covers key: the first
// separator greater than key (count = the right child).
func (n node) childIndex(key []byte) int {
	lo, hi := 0, n.count()
	if i, ok := n.interpSearch(lo, hi, key, false, true); ok {
		return i
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compareKeys(n.branchKey(m), key) <= 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// insertCell puts cell at index i. It returns false, changing nothing,
// when the cell does not fit even after defragmenting. scratch is a
// page-sized buffer.
func (n node) insertCell(i int, cell []byte, scratch []byte) bool {
	need := len(cell) + slotSize
	if n.gap() < need {
		if n.freeSpace() < need {
			return false
		}
		n.defrag(scratch)
		if n.gap() < need { // the fragment count lied (a damaged page)
			return false
		}
	}
	off := n.cellStart() - len(cell)
	copy(n[off:], cell)
	n.setCellStart(off)
	c := n.count()
	s := nodeHdrSize + slotSize*i
	copy(n[s+slotSize:nodeHdrSize+slotSize*(c+1)], n[s:nodeHdrSize+slotSize*c])
	n.setSlot(i, off)
	n.setCount(c + 1)
	return true
}

// removeCell deletes cell i; its bytes become a fragment (or rejoin the gap
// when it is the lowest cell).
func (n node) removeCell(i int) {
	off := n.slot(i)
	ln := n.cellLen(off)
	c := n.count()
	s := nodeHdrSize + slotSize*i
	copy(n[s:], n[s+slotSize:nodeHdrSize+slotSize*c])
	n.setCount(c - 1)
	if off == n.cellStart() {
		n.setCellStart(off + ln)
	} else {
		n.setFrag(n.frag() + ln)
	}
}

// replaceCell overwrites cell i with cell. It returns false, changing
// nothing, when it does not fit. A cell of another length stays in place
// too when the gap allows: the cells below it (nearer the gap) move by the
// difference, so a one-byte change in a full leaf costs one move of those
// bytes instead of a fragment and, at the next insert, a defrag that
// decodes every cell.
func (n node) replaceCell(i int, cell []byte, scratch []byte) bool {
	off := n.slot(i)
	ln := n.cellLen(off)
	if d := len(cell) - ln; d == 0 {
		copy(n[off:], cell)
		return true
	} else if d <= n.gap() {
		n.shiftBelow(off, -d)
		copy(n[off-d:], cell)
		n.setSlot(i, off-d)
		return true
	}
	if n.freeSpace()+ln < len(cell) {
		return false
	}
	n.removeCell(i)
	return n.insertCell(i, cell, scratch)
}

// shiftBelow moves the bytes of the cell area below off (from the gap's
// end up to off) by delta, negative towards the slots, and repoints the
// slots of the cells that lie there; the gap shrinks or grows by -delta.
func (n node) shiftBelow(off, delta int) {
	start := n.cellStart()
	copy(n[start+delta:], n[start:off])
	slots := n[nodeHdrSize : nodeHdrSize+slotSize*n.count()]
	for j := 0; j+1 < len(slots); j += slotSize {
		if o := int(slots[j])<<8 | int(slots[j+1]); o < off {
			o += delta
			slots[j], slots[j+1] = byte(o>>8), byte(o)
		}
	}
	n.setCellStart(start + delta)
}

// defrag packs all cells against the end of the page, leaving one gap.
func (n node) defrag(scratch []byte) {
	c := n.count()
	end := n.end()
	w := end
	for i := 0; i < c; i++ {
		off := n.slot(i)
		ln := n.cellLen(off)
		w -= ln
		copy(scratch[w:], n[off:off+ln])
		n.setSlot(i, w)
	}
	copy(n[w:end], scratch[w:end])
	n.setCellStart(w)
	n.setFrag(0)
}

// appendLeafCell encodes a leaf cell for page size ps. When ovfl != 0 the
// value (after the rest of a big key) lives in overflow pages starting at
// ovfl and val is ignored (vlen is its length). A big key needs ovfl.
func appendLeafCell(dst, key, val []byte, ovfl uint32, vlen, ps int) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(key)))
	if ovfl != 0 {
		dst = binary.AppendUvarint(dst, uint64(vlen)<<1|ovflBit)
		dst = append(dst, key[:inlineKeyLen(len(key), ps)]...)
		return binary.BigEndian.AppendUint32(dst, ovfl)
	}
	dst = binary.AppendUvarint(dst, uint64(len(val))<<1)
	dst = append(dst, key...)
	return append(dst, val...)
}

// appendBranchCell encodes a branch cell.
func appendBranchCell(dst []byte, child uint32, key []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, child)
	dst = binary.AppendUvarint(dst, uint64(len(key)))
	return append(dst, key...)
}

// uvarint decodes a varint that the caller has validated (or that came
// from a page that passed its checksum), returning 0 length on garbage so
// callers index out of range only inside validate-guarded code.
func uvarint(b []byte) (int, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return int(b[0]), 1
	}
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, 1
	}
	return int(v), n
}

// compareKeys is bytes.Compare with a fast path for the 8-byte keys of
// table trees (keycodec.RowidKey), the most common comparison by far.
func compareKeys(a, b []byte) int {
	if len(a) == 8 && len(b) == 8 {
		x, y := binary.BigEndian.Uint64(a), binary.BigEndian.Uint64(b)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	return bytes.Compare(a, b)
}

// setOverflow re-points leaf cell i's overflow chain at p.
func (n node) setOverflow(i int, p uint32) {
	off := n.slot(i)
	klen, a := uvarint(n[off:])
	_, b := uvarint(n[off+a:])
	binary.BigEndian.PutUint32(n[off+a+b+inlineKeyLen(klen, len(n)):], p)
}

// searchFrom is search restricted to indexes >= lo, for keys known to be
// at or after cell lo (a sorted batch).
func (n node) searchFrom(lo int, key []byte) (int, bool) {
	hi := n.count()
	if i, ok := n.interpSearch(lo, hi, key, true, false); ok {
		return i, i < hi && compareKeys(n.leafKey(i), key) == 0
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		c := compareKeys(n.leafKey(m), key)
		if c == 0 {
			return m, true
		}
		if c < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, false
}

// removeCells deletes the cells at idxs (ascending, distinct) in one pass
// over the slot array; their bytes become fragments, reclaimed by the next
// defrag.
func (n node) removeCells(idxs []int) {
	if len(idxs) == 0 {
		return
	}
	c := n.count()
	freed, out := 0, idxs[0]
	// The slots between two removed cells move down as one run.
	for k, i := range idxs {
		freed += n.cellLen(n.slot(i))
		end := c
		if k+1 < len(idxs) {
			end = idxs[k+1]
		}
		copy(n[nodeHdrSize+slotSize*out:], n[nodeHdrSize+slotSize*(i+1):nodeHdrSize+slotSize*end])
		out += end - i - 1
	}
	n.setCount(out)
	if out == 0 { // nothing left: the whole cell area is one gap again
		n.setCellStart(n.end())
		n.setFrag(0)
		return
	}
	n.setFrag(n.frag() + freed)
}
