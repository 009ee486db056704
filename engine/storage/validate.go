package storage

import (
	"encoding/binary"
	"fmt"
)

// validatePage checks the structure of a page read from a file, after its
// checksum passed, so that no later access can index out of bounds. The
// header page and free pages are not checked here.
func validatePage(buf []byte) error {
	switch buf[0] {
	case typeLeaf, typeBranch:
		return validateNode(node(buf))
	case typeFreelist:
		if int(binary.BigEndian.Uint32(buf[trunkCount:])) > trunkCap(len(buf)) {
			return fmt.Errorf("%w: free-list trunk overfull", ErrCorrupt)
		}
	}
	return nil
}

// validateNode checks the header, that every cell lies inside the cell
// area, that no two cells overlap, and that the cell bytes plus the
// fragment count account for the whole area. Edits then stay in bounds.
func validateNode(n node) error {
	c, start, end := n.count(), n.cellStart(), n.end()
	if start > end || nodeHdrSize+slotSize*c > start || n.frag() > end-start {
		return fmt.Errorf("%w: node header out of bounds (%d cells, cells at %d)", ErrCorrupt, c, start)
	}
	var used [maxPageSize / 64]uint64
	total := 0
	for i := range c {
		off := n.slot(i)
		if off < start || off >= end {
			return fmt.Errorf("%w: cell %d offset %d out of bounds", ErrCorrupt, i, off)
		}
		if err := validateCell(n, off, end); err != nil {
			return fmt.Errorf("cell %d: %w", i, err)
		}
		ln := n.cellLen(off)
		if markRange(used[:], off, off+ln) {
			return fmt.Errorf("%w: cell %d overlaps another", ErrCorrupt, i)
		}
		total += ln
	}
	if total+n.frag() != end-start {
		return fmt.Errorf("%w: cells and fragments (%d+%d) do not fill the cell area (%d)", ErrCorrupt, total, n.frag(), end-start)
	}
	return nil
}

// markRange sets bits [lo, hi) of the bitset, reporting whether any was
// already set.
func markRange(bits []uint64, lo, hi int) bool {
	clash := false
	for lo < hi {
		w, b := lo/64, uint(lo%64)
		k := min(64-int(b), hi-lo)
		mask := ^uint64(0) >> (64 - uint(k)) << b
		if bits[w]&mask != 0 {
			clash = true
		}
		bits[w] |= mask
		lo += k
	}
	return clash
}

// validateCell checks that the cell at off, with its varints, ends by end.
func validateCell(n node, off, end int) error {
	if !cellFits(n, off, end) {
		return fmt.Errorf("%w: cell at %d overruns the page", ErrCorrupt, off)
	}
	return nil
}

func cellFits(n node, off, end int) bool {
	p := off
	if !n.isLeaf() {
		p += 4
		if p > end {
			return false
		}
	}
	klen, a := binary.Uvarint(n[p:end])
	if a <= 0 || klen > 1<<40 {
		return false
	}
	p += a
	if !n.isLeaf() {
		return klen <= uint64(maxKey(len(n))) && uint64(p)+klen <= uint64(end)
	}
	vw, b := binary.Uvarint(n[p:end])
	if b <= 0 || vw>>1 > 1<<40 {
		return false
	}
	p += b
	inl := uint64(inlineKeyLen(int(klen), len(n)))
	body := vw >> 1
	if vw&ovflBit != 0 {
		body = 4
	} else if inl < klen {
		return false // a big key always has an overflow chain
	}
	return uint64(p)+inl+body <= uint64(end)
}
