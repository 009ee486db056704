package storage

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
)

// Vacuum compacts the file: every live page above the smallest size that
// can hold them moves down into a free slot (parents are re-pointed; tree
// roots keep their page numbers), the free list is rebuilt from the pages
// left below that size, and the file is truncated once no reader needs
// the old version.
func (s *Store) Vacuum(ctx context.Context) error {
	tx, err := s.BeginWrite(ctx)
	if err != nil {
		return err
	}
	if err := tx.vacuum(ctx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if err := s.lockWriter(ctx); err != nil {
		return err
	}
	defer s.unlockWriter()
	_, _, err = s.checkpoint(false)
	return err
}

// pageRef says where the pointer to a page lives.
type pageRef struct {
	parent uint32
	kind   uint8 // refChild, refOverflow or refNext
	idx    int
}

const (
	refChild    = iota // child idx of branch parent
	refOverflow        // overflow pointer of leaf cell idx
	refNext            // next pointer of overflow page parent
)

// liveSet is every page reachable from the trees, in parent-first order.
type liveSet struct {
	refs  map[uint32]pageRef // non-root pages
	order []uint32
	roots []uint32
}

// vacuumPoll polls ctx at the first of every checkPollPages pages VACUUM
// walks or moves (n counts them from 1), as integrity_check does.
func vacuumPoll(ctx context.Context, n int) error {
	if ctx != nil && n%checkPollPages == 1 {
		return ctx.Err()
	}
	return nil
}

func (tx *Tx) vacuum(ctx context.Context) (err error) {
	defer tx.guard(&err)
	if err := tx.checkWrite(); err != nil {
		return err
	}
	tx.w.hint.ok = false
	ls, err := tx.liveSet(ctx)
	if err != nil {
		if ctx != nil && ctx.Err() != nil {
			return err // stopped, not broken: the caller rolls back
		}
		return tx.fail(err)
	}
	size := uint32(1 + len(ls.roots) + len(ls.order))
	for _, r := range ls.roots {
		size = max(size, r+1)
	}
	used := make([]bool, tx.hdr.pageCount)
	for _, r := range ls.roots {
		used[r] = true
	}
	for _, p := range ls.order {
		used[p] = true
	}
	if err := tx.relocate(ctx, ls, used, size); err != nil {
		return err
	}
	return tx.rebuildFreeList(used, size)
}

// liveSet walks every tree, recording where each page's pointer lives.
func (tx *Tx) liveSet(ctx context.Context) (*liveSet, error) {
	roots, err := tx.Roots()
	if err != nil {
		return nil, err
	}
	ls := &liveSet{refs: map[uint32]pageRef{}, roots: append([]uint32{tx.hdr.registry}, roots...)}
	visited := 0
	for _, r := range ls.roots {
		err := tx.walk(r, 0, func(p uint32, n node, _ int) error {
			visited++
			if err := vacuumPoll(ctx, visited); err != nil {
				return err
			}
			if !n.isLeaf() {
				for i := 0; i <= n.count(); i++ {
					ls.add(n.child(i), pageRef{p, refChild, i})
				}
				return nil
			}
			for i := 0; i < n.count(); i++ {
				e := n.leafCell(i)
				ovfl, vlen := e.ovfl, e.chain
				if ovfl == 0 {
					continue
				}
				prev, ref := uint32(0), pageRef{p, refOverflow, i}
				if err := tx.walkOverflow(ovfl, vlen, func(op uint32, _ []byte) {
					if prev != 0 {
						ref = pageRef{prev, refNext, 0}
					}
					ls.add(op, ref)
					prev = op
				}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return ls, nil
}

func (ls *liveSet) add(p uint32, r pageRef) {
	ls.refs[p] = r
	ls.order = append(ls.order, p)
}

// relocate moves every live page at or above size into the lowest free
// slots below it, parents before children.
func (tx *Tx) relocate(ctx context.Context, ls *liveSet, used []bool, size uint32) error {
	var slots []uint32
	for p := uint32(1); p < size; p++ {
		if !used[p] {
			slots = append(slots, p)
		}
	}
	moved := map[uint32]uint32{}
	for _, q := range ls.order {
		if q < size {
			continue
		}
		if len(slots) == 0 {
			return tx.fail(fmt.Errorf("%w: vacuum ran out of slots", ErrCorrupt))
		}
		if err := vacuumPoll(ctx, len(moved)+1); err != nil {
			return err
		}
		f := slots[0]
		slots = slots[1:]
		if err := tx.movePage(q, f, ls.refs[q], moved); err != nil {
			return err
		}
		moved[q] = f
		used[f], used[q] = true, false
		if err := tx.maybeSpill(); err != nil {
			return err
		}
	}
	return nil
}

// movePage copies page q to slot f and re-points its parent.
func (tx *Tx) movePage(q, f uint32, ref pageRef, moved map[uint32]uint32) error {
	src, err := tx.node(q)
	if err != nil {
		return tx.fail(err)
	}
	dst, err := tx.newPage(f)
	if err != nil {
		return err
	}
	copy(dst, src)
	parent := ref.parent
	if np, ok := moved[parent]; ok {
		parent = np
	}
	pn, err := tx.writable(parent)
	if err != nil {
		return tx.fail(err)
	}
	switch ref.kind {
	case refChild:
		pn.setChild(ref.idx, f)
	case refOverflow:
		pn.setOverflow(ref.idx, f)
	case refNext:
		binary.BigEndian.PutUint32(pn[ovflNext:], f)
	}
	return nil
}

// rebuildFreeList makes the free list exactly the unused pages below size
// and cuts the page count to size.
func (tx *Tx) rebuildFreeList(used []bool, size uint32) error {
	old := tx.hdr.pageCount
	for p := size; p < old; p++ {
		tx.forget(p)
	}
	tx.hdr.freeHead, tx.hdr.freeCount = 0, 0
	var free []uint32
	for p := uint32(1); p < size; p++ {
		if !used[p] {
			free = append(free, p)
		}
	}
	tx.hdr.pageCount = size
	// When no live page had to move, the header is the only change: mark
	// it, or Commit sees nothing dirty and the file never shrinks.
	tx.w.hdrDirty = true
	// Freed in descending order so that later allocations, which pop the
	// newest trunk's last entry, tend to take low pages first.
	for _, p := range slices.Backward(free) {
		if err := tx.free(p); err != nil {
			return err
		}
	}
	return nil
}
