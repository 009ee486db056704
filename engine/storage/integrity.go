package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
)

// maxProblems bounds the report of an integrity check.
const maxProblems = 100

// IntegrityCheck verifies the newest commit: every page's checksum and
// type, each tree's key order, separator fences and uniform leaf depth,
// overflow chains, the free list, and that every page belongs to exactly
// one tree, overflow chain or the free list. A nil slice means ok. The
// error is for failures to run the check (I/O), not for what it finds.
func (s *Store) IntegrityCheck() ([]string, error) {
	return s.IntegrityCheckContext(context.Background())
}

// IntegrityCheckContext is IntegrityCheck stopping with ctx's error once
// ctx is done (it polls every checkPollPages pages).
func (s *Store) IntegrityCheckContext(ctx context.Context) ([]string, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	tx, err := s.BeginRead()
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return tx.integrityCheck(ctx)
}

// checkPollPages is how many tree pages an integrity check reads between
// polls of its context.
const checkPollPages = 256

// checker holds the state of one integrity check.
type checker struct {
	ctx   context.Context
	pages int // tree pages visited, for polling ctx
	tx    *Tx
	owner []uint32 // per page: 0 unseen, else the tree root (or markFree)
	probs []string
	leafD int
}

const markFree = ^uint32(0)

func (c *checker) problem(format string, args ...any) {
	if len(c.probs) < maxProblems {
		c.probs = append(c.probs, fmt.Sprintf(format, args...))
	}
}

// note reports a corruption error as a problem and other errors as fatal.
func (c *checker) note(err error) error {
	if err == nil || errors.Is(err, ErrCorrupt) {
		if err != nil {
			c.problem("%v", err)
		}
		return nil
	}
	return err
}

// mark claims page p for owner, reporting a page with two owners.
func (c *checker) mark(p, owner uint32) bool {
	if p == 0 || p >= uint32(len(c.owner)) {
		c.problem("page %d (in %s) is out of range", p, ownerName(owner))
		return false
	}
	if prev := c.owner[p]; prev != 0 {
		c.problem("page %d is used by both %s and %s", p, ownerName(prev), ownerName(owner))
		return false
	}
	c.owner[p] = owner
	return true
}

func ownerName(o uint32) string {
	if o == markFree {
		return "the free list"
	}
	return fmt.Sprintf("tree %d", o)
}

// IntegrityCheck runs the check on this transaction's snapshot.
func (tx *Tx) IntegrityCheck() (probs []string, err error) {
	return tx.integrityCheck(context.Background())
}

func (tx *Tx) integrityCheck(ctx context.Context) (probs []string, err error) {
	defer tx.guard(&err)
	if err := tx.checkRead(); err != nil {
		return nil, err
	}
	c := &checker{ctx: ctx, tx: tx, owner: make([]uint32, tx.hdr.pageCount)}
	roots, err := tx.Roots()
	if err := c.note(err); err != nil {
		return nil, err
	}
	for _, r := range append([]uint32{tx.hdr.registry}, roots...) {
		if err := c.tree(r); err != nil {
			return nil, err
		}
	}
	if err := c.freeList(); err != nil {
		return nil, err
	}
	for p := uint32(1); p < tx.hdr.pageCount; p++ {
		if c.owner[p] == 0 {
			c.problem("page %d is never used (neither in a tree nor free)", p)
		}
	}
	if err := c.checksums(); err != nil {
		return nil, err
	}
	return c.probs, nil
}

func (c *checker) tree(root uint32) error {
	c.leafD = -1
	return c.node(root, root, 0, nil, nil)
}

// node checks page p of tree root at depth d, whose keys must lie in
// [lo, hi) (nil bounds are open).
func (c *checker) node(root, p uint32, d int, lo, hi []byte) error {
	if c.pages++; c.pages%checkPollPages == 1 {
		if err := c.ctx.Err(); err != nil {
			return err
		}
	}
	if !c.mark(p, root) {
		return nil
	}
	if d >= maxDepth {
		c.problem("tree %d is deeper than %d levels", root, maxDepth)
		return nil
	}
	n, err := c.tx.node(p)
	if err != nil {
		return c.note(err)
	}
	if err := treeNode(p, n); err != nil {
		return c.note(err)
	}
	if err := validateNode(n); err != nil {
		return c.note(fmt.Errorf("page %d: %w", p, err))
	}
	c.keyOrder(root, p, n, lo, hi)
	if n.isLeaf() {
		return c.leaf(root, p, n, d)
	}
	for i := 0; i <= n.count(); i++ {
		clo, chi := lo, hi
		if i > 0 {
			clo = n.branchKey(i - 1)
		}
		if i < n.count() {
			chi = n.branchKey(i)
		}
		if err := c.node(root, n.child(i), d+1, clo, chi); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) keyOrder(root, p uint32, n node, lo, hi []byte) {
	var prev []byte
	for i := 0; i < n.count(); i++ {
		k := n.key(i)
		if n.isLeaf() && n.hasBigKeys() {
			full, err := c.tx.entryKey(n.leafCell(i))
			if err != nil {
				c.problem("tree %d page %d: key %d: %v", root, p, i, err)
				return
			}
			k = full
		} else if n.isLeaf() && n.leafCell(i).keyRest() > 0 {
			c.problem("tree %d page %d: big key %d in a page not flagged for them", root, p, i)
		}
		if i > 0 && bytes.Compare(prev, k) >= 0 {
			c.problem("tree %d page %d: key %d out of order", root, p, i)
		}
		if lo != nil && bytes.Compare(k, lo) < 0 || hi != nil && bytes.Compare(k, hi) >= 0 {
			c.problem("tree %d page %d: key %d outside its parent's fences", root, p, i)
		}
		prev = k
	}
}

func (c *checker) leaf(root, p uint32, n node, d int) error {
	if c.leafD < 0 {
		c.leafD = d
	} else if c.leafD != d {
		c.problem("tree %d: leaf %d at depth %d, others at %d", root, p, d, c.leafD)
	}
	for i := 0; i < n.count(); i++ {
		e := n.leafCell(i)
		if e.ovfl == 0 {
			continue
		}
		err := c.tx.walkOverflow(e.ovfl, e.chain, func(op uint32, _ []byte) { c.mark(op, root) })
		if err := c.note(err); err != nil {
			return err
		}
	}
	return nil
}

func (c *checker) freeList() error {
	pages, err := c.tx.freePages()
	if err := c.note(err); err != nil {
		return err
	}
	if err == nil && uint32(len(pages)) != c.tx.hdr.freeCount {
		c.problem("free list holds %d pages, header says %d", len(pages), c.tx.hdr.freeCount)
	}
	for _, p := range pages {
		c.mark(p, markFree)
	}
	return nil
}

// checksums re-reads every used page from its file, bypassing the cache,
// and verifies its checksum. Free pages listed in trunks hold stale bytes
// (or were never written) and are skipped.
func (c *checker) checksums() error {
	tx := c.tx
	s := tx.s
	buf := make([]byte, s.ps)
	for p := uint32(1); p < tx.hdr.pageCount; p++ {
		if c.owner[p] == markFree || c.owner[p] == 0 {
			continue
		}
		if tx.rw && (tx.w.dirty[p] != nil || tx.hasSpilled(p)) {
			continue
		}
		s.walMu.RLock()
		_, off := s.wal.resolve(p, tx.snap)
		err := s.readRaw(p, off, buf)
		s.walMu.RUnlock()
		if err := c.note(err); err != nil {
			return err
		}
		if err == nil && !pageOK(buf, p) {
			c.problem("page %d: checksum mismatch", p)
		}
	}
	return nil
}

func (tx *Tx) hasSpilled(p uint32) bool { _, ok := tx.w.spilled[p]; return ok }

// readRaw reads page p from the WAL frame at off, or the main file.
func (s *Store) readRaw(p uint32, off int64, buf []byte) error {
	if off >= 0 {
		return s.wal.readFrame(off, buf)
	}
	_, err := s.db.ReadAt(buf, int64(p)*int64(s.ps))
	if err != nil {
		return fmt.Errorf("%w: page %d unreadable: %v", ErrCorrupt, p, err)
	}
	return nil
}
