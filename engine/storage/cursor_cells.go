package storage

import (
	"encoding/binary"
	"slices"
)

// Cells is a run of consecutive cells of one leaf that all have the common
// short shape (a short key and a short inline value; see node.shortCell),
// read in place: unlike AppendRun it copies no entry out, so a scan that
// folds every row (an aggregate) reads each cell's bytes straight from the
// pinned page. It is valid until its cursor moves.
type Cells struct {
	n        node
	from, to int // leaf slots [from, to), each checked by Cursor.Cells
	// spans[i] locates cell from+i's value: its offset in the page << 8
	// | its length (a short value is under 64 bytes).
	spans []uint32
}

// Len is the number of cells in the run.
func (r Cells) Len() int { return r.to - r.from }

// Value returns the value of the run's i-th cell (0 <= i < Len).
func (r Cells) Value(i int) []byte { return r.n.spanValue(r.spans[i]) }

// Spans returns the page the run lies in and, for each of its cells in
// order, where its value is: span>>8 is the value's offset in the page and
// span&0xFF its length (a short value is under 64 bytes), so
// page[span>>8 : span>>8+span&0xFF] is Value(i). Both are valid until the
// cursor moves.
func (r Cells) Spans() (page []byte, spans []uint32) { return r.n, r.spans }

// Key returns the key of the run's i-th cell (0 <= i < Len). Like Value,
// it is capped at its length: appending to it copies.
func (r Cells) Key(i int) []byte { return r.n.shortKey(r.from + i) }

// spanValue is the value a span of appendShortSpans locates.
func (n node) spanValue(sp uint32) []byte {
	vs := int(sp >> 8)
	ve := vs + int(sp&0xFF)
	return n[vs:ve:ve]
}

// shortKey is the key of short leaf cell i (one appendShortSpans checked).
func (n node) shortKey(i int) []byte {
	off := int(binary.BigEndian.Uint16(n[nodeHdrSize+slotSize*i:]))
	ke := off + 2 + int(n[off])
	return n[off+2 : ke : ke]
}

// Cells returns the current entry and the entries after it on the same
// leaf, at most max, as a run of short cells, and leaves the cursor on the
// run's last cell, so that the next Next moves past it (as AppendRun
// does). ok is false, and the cursor stays put, when the cursor is not on
// an entry, max < 1, or the current cell is not short: read it with
// AppendRun or Key and Value instead.
func (c *Cursor) Cells(max int) (r Cells, ok bool) {
	if !c.valid || max < 1 || c.tx.closed {
		return Cells{}, false
	}
	ent := &c.stack[c.depth]
	i, n := ent.idx, c.leaf.count()
	if i >= n {
		return Cells{}, false // (the leaf shrank: a write to this tree without a new Seek)
	}
	c.spans = c.leaf.appendShortSpans(c.spans[:0], i, min(n, i+max))
	j := i + len(c.spans)
	if j == i {
		return Cells{}, false
	}
	if ent.idx != j-1 {
		ent.idx, c.decoded = j-1, false
	}
	return Cells{n: c.leaf, from: i, to: j, spans: c.spans}, true
}

// appendShortSpans appends to dst the value span (see Cells.spans) of
// slots from, from+1, … (before end) while their cells have shortCell's
// shape. It checks every bound shortCell checks, so Cells.Value and
// Cells.Key cannot go out of the page. (A scan calls it once per leaf for
// every cell: the slot bytes are sliced once, the checks merged.)
func (n node) appendShortSpans(dst []uint32, from, end int) []uint32 {
	end = min(end, (len(n)-nodeHdrSize)/slotSize) // slots inside the page
	if from < 0 || from >= end {
		return dst
	}
	slots := n[nodeHdrSize+slotSize*from : nodeHdrSize+slotSize*end]
	// A short cell's key length byte is below 0x80; on small pages the
	// longest key may be shorter still.
	kmax := min(maxKey(len(n)), 0x7F)
	size := len(n)
	base := len(dst)
	dst = slices.Grow(dst, end-from)[:base+end-from]
	out := dst[base:]
	k := 0
	for ; k < len(out) && 2*k+1 < len(slots); k++ {
		off := int(slots[2*k])<<8 | int(slots[2*k+1])
		if off+2 > size {
			break
		}
		kl, vw := int(n[off]), int(n[off+1])
		vs := off + 2 + kl
		if kl > kmax || vw&(0x80|ovflBit) != 0 || vs+vw>>1 > size {
			break
		}
		out[k] = uint32(vs)<<8 | uint32(vw>>1)
	}
	return dst[:base+k]
}
