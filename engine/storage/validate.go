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

func validateNode(n node) error {
	c, start, end := n.count(), n.cellStart(), n.end()
	if start > end || nodeHdrSize+slotSize*c > start || n.frag() > end {
		return fmt.Errorf("%w: node header out of bounds (%d cells, cells at %d)", ErrCorrupt, c, start)
	}
	for i := range c {
		off := n.slot(i)
		if off < start || off >= end {
			return fmt.Errorf("%w: cell %d offset %d out of bounds", ErrCorrupt, i, off)
		}
		if err := validateCell(n, off, end); err != nil {
			return fmt.Errorf("cell %d: %w", i, err)
		}
	}
	return nil
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
	if a <= 0 || klen > uint64(end) {
		return false
	}
	p += a
	if n.isLeaf() {
		vw, b := binary.Uvarint(n[p:end])
		if b <= 0 || vw>>1 > 1<<40 {
			return false
		}
		p += b
		body := vw >> 1
		if vw&ovflBit != 0 {
			body = 4
		}
		if uint64(p)+klen+body > uint64(end) {
			return false
		}
		return true
	}
	if uint64(p)+klen > uint64(end) {
		return false
	}
	return true
}
