package storage

import (
	"encoding/binary"
	"fmt"
)

// Overflow pages hold values too large for a leaf cell, in a chain:
// byte 0 the type, bytes 4..8 the next page (0 ends the chain), then data
// up to the trailer. The leaf cell keeps the value's length.
const (
	ovflNext = 4
	ovflHdr  = 8
)

func ovflCap(ps int) int { return ps - trailerSize - ovflHdr }

// writeOverflow stores val in a new chain and returns its first page. It
// may spill between pages, so a value larger than the cache still fits in
// bounded memory.
func (tx *Tx) writeOverflow(val []byte) (uint32, error) {
	first, err := tx.alloc()
	if err != nil {
		return 0, err
	}
	cur := first
	for off := 0; ; {
		n, err := tx.newPage(cur)
		if err != nil {
			return 0, err
		}
		n[0] = typeOverflow
		off += copy(n[ovflHdr:n.end()], val[off:])
		if off >= len(val) {
			return first, nil
		}
		next, err := tx.alloc()
		if err != nil {
			return 0, err
		}
		binary.BigEndian.PutUint32(n[ovflNext:], next)
		if err := tx.maybeSpill(); err != nil {
			return 0, err
		}
		cur = next
	}
}

// readOverflow reads a value of vlen bytes from the chain at first.
func (tx *Tx) readOverflow(first uint32, vlen int) ([]byte, error) {
	out := make([]byte, 0, vlen)
	err := tx.walkOverflow(first, vlen, func(p uint32, data []byte) {
		out = append(out, data...)
	})
	return out, err
}

// freeOverflow puts every page of the chain at first on the free list.
func (tx *Tx) freeOverflow(first uint32, vlen int) error {
	var pages []uint32
	if err := tx.walkOverflow(first, vlen, func(p uint32, _ []byte) { pages = append(pages, p) }); err != nil {
		return tx.fail(err)
	}
	for _, p := range pages {
		if err := tx.free(p); err != nil {
			return err
		}
	}
	return nil
}

// walkOverflow visits each page of a chain holding vlen bytes with the
// part of the value it holds, checking types and length.
func (tx *Tx) walkOverflow(first uint32, vlen int, visit func(p uint32, data []byte)) error {
	c := ovflCap(tx.s.ps)
	left := vlen
	for p := first; left > 0; {
		if p == 0 {
			return fmt.Errorf("%w: overflow chain ends %d bytes early", ErrCorrupt, left)
		}
		n, err := tx.node(p)
		if err != nil {
			return err
		}
		if n[0] != typeOverflow {
			return fmt.Errorf("%w: overflow page %d has type %d", ErrCorrupt, p, n[0])
		}
		k := min(left, c)
		visit(p, n[ovflHdr:ovflHdr+k])
		left -= k
		p = binary.BigEndian.Uint32(n[ovflNext:])
		if left == 0 && p != 0 {
			return fmt.Errorf("%w: overflow chain longer than its value", ErrCorrupt)
		}
	}
	return nil
}
