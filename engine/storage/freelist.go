package storage

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Free list: a chain of trunk pages, each listing free page numbers. The
// header holds the first trunk and the count of free pages (trunks
// included). Allocation pops from the first trunk and reuses an empty
// trunk itself; freeing pushes onto it or makes the freed page the new
// first trunk. Either way one trunk page and the header change.
const (
	trunkNext  = 4
	trunkCount = 8
	trunkHdr   = 12
)

func trunkCap(ps int) int { return (ps - trailerSize - trunkHdr) / 4 }

// alloc returns a page number for a new page: a free one, or the next
// page at the end of the file. The caller initializes it with newPage.
func (tx *Tx) alloc() (uint32, error) {
	tx.w.hint.ok = false // the tree's shape is changing
	if tx.hdr.freeHead == 0 {
		if tx.hdr.pageCount == math.MaxUint32 {
			return 0, tx.fail(fmt.Errorf("%w: page limit reached", ErrFull))
		}
		p := tx.hdr.pageCount
		tx.hdr.pageCount++
		return p, nil
	}
	t := tx.hdr.freeHead
	n, err := tx.writable(t)
	if err != nil {
		return 0, tx.fail(err)
	}
	if n[0] != typeFreelist {
		return 0, tx.fail(fmt.Errorf("%w: free-list trunk %d has type %d", ErrCorrupt, t, n[0]))
	}
	cnt := int(binary.BigEndian.Uint32(n[trunkCount:]))
	if cnt > trunkCap(len(n)) {
		return 0, tx.fail(fmt.Errorf("%w: free-list trunk %d lists %d pages", ErrCorrupt, t, cnt))
	}
	tx.hdr.freeCount--
	if cnt == 0 {
		tx.hdr.freeHead = binary.BigEndian.Uint32(n[trunkNext:])
		return t, nil
	}
	cnt--
	p := binary.BigEndian.Uint32(n[trunkHdr+4*cnt:])
	binary.BigEndian.PutUint32(n[trunkCount:], uint32(cnt))
	if p == 0 || p >= tx.hdr.pageCount {
		return 0, tx.fail(fmt.Errorf("%w: free-list entry %d out of range", ErrCorrupt, p))
	}
	if tx.w.dirty[p] != nil {
		// Freed pages leave the dirty set (forget), so this page is live.
		return 0, tx.fail(fmt.Errorf("%w: free list lists page %d, which is in use", ErrCorrupt, p))
	}
	return p, nil
}

// free puts page p on the free list.
func (tx *Tx) free(p uint32) error {
	if p == 0 || p >= tx.hdr.pageCount {
		return tx.fail(fmt.Errorf("%w: freeing page %d out of range", ErrCorrupt, p))
	}
	tx.w.hint.ok = false
	tx.forget(p)
	tx.hdr.freeCount++
	if t := tx.hdr.freeHead; t != 0 {
		n, err := tx.writable(t)
		if err != nil {
			return tx.fail(err)
		}
		cnt := int(binary.BigEndian.Uint32(n[trunkCount:]))
		if cnt < trunkCap(len(n)) {
			binary.BigEndian.PutUint32(n[trunkHdr+4*cnt:], p)
			binary.BigEndian.PutUint32(n[trunkCount:], uint32(cnt+1))
			return nil
		}
	}
	n, err := tx.newPage(p)
	if err != nil {
		return err
	}
	n[0] = typeFreelist
	binary.BigEndian.PutUint32(n[trunkNext:], tx.hdr.freeHead)
	tx.hdr.freeHead = p
	return nil
}

// freePages walks the free list and returns every free page, trunks
// included, for integrity checks and vacuum.
func (tx *Tx) freePages() ([]uint32, error) {
	var out []uint32
	for t, steps := tx.hdr.freeHead, 0; t != 0; steps++ {
		if steps > int(tx.hdr.pageCount) {
			return out, fmt.Errorf("%w: free list has a cycle", ErrCorrupt)
		}
		n, err := tx.node(t)
		if err != nil {
			return out, err
		}
		if n[0] != typeFreelist {
			return out, fmt.Errorf("%w: free-list trunk %d has type %d", ErrCorrupt, t, n[0])
		}
		out = append(out, t)
		cnt := int(binary.BigEndian.Uint32(n[trunkCount:]))
		if cnt > trunkCap(len(n)) {
			return out, fmt.Errorf("%w: free-list trunk %d lists %d pages", ErrCorrupt, t, cnt)
		}
		for i := range cnt {
			out = append(out, binary.BigEndian.Uint32(n[trunkHdr+4*i:]))
		}
		t = binary.BigEndian.Uint32(n[trunkNext:])
	}
	return out, nil
}
