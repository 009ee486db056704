package storage

import (
	"fmt"
	"slices"

	"github.com/ladybugsql/ladybug/pagecache"
)

// maxDepth bounds tree height; a deeper descent means a cycle (corruption).
const maxDepth = 24

// maxLocal is the largest leaf cell stored inline: at least four cells fit
// in any page, so a split always succeeds.
func maxLocal(ps int) int { return (ps-trailerSize-nodeHdrSize)/4 - slotSize }

// maxKey is the longest key: its cell with an overflow pointer fits inline.
func maxKey(ps int) int { return maxLocal(ps) - 14 }

// Tx is a transaction: a read snapshot, or the single writer with its
// private dirty pages. A Tx is used by one goroutine at a time.
type Tx struct {
	s        *Store
	rw       bool
	closed   bool
	snap     uint64 // commit it reads
	seq      uint64 // commit it will write (writers)
	hdr      header // working copy of the header
	hdrDirty bool

	dirty    map[uint32]*pagecache.Page // writer's modified pages, pinned
	spilled  map[uint32]int64           // pages written early: frame offset
	walStart int64                      // log end when the Tx began
	crcStart uint32
	failed   error // sticky: the Tx must roll back

	scratch []byte   // page-sized, for defragmenting and rebuilding
	copyBuf []byte   // page-sized, the old contents of a page being split
	cellBuf []byte   // the leaf cell being inserted
	cells   [][]byte // cells of a page being split
	hint    hint     // the last write path; see Tree.findLeaf
	frames  []framePage
	offs    []int64
	keys    []pagecache.Key
}

func newWriteTx(s *Store, h header) *Tx {
	tx := &Tx{
		s: s, rw: true, snap: h.seq, seq: h.seq + 1, hdr: h,
		walStart: s.wal.end, crcStart: s.wal.crc,
	}
	if b := s.spare; b != nil {
		s.spare = nil
		tx.dirty, tx.spilled, tx.scratch, tx.copyBuf = b.dirty, b.spilled, b.scratch, b.copyBuf
		tx.cellBuf, tx.cells, tx.frames, tx.offs, tx.keys = b.cellBuf, b.cells, b.frames, b.offs, b.keys
		return tx
	}
	tx.dirty = map[uint32]*pagecache.Page{}
	tx.spilled = map[uint32]int64{}
	tx.scratch, tx.copyBuf = make([]byte, s.ps), make([]byte, s.ps)
	return tx
}

// writerBufs are a write transaction's reusable buffers, kept by the Store
// between writers (guarded by the writer token) so a small write
// transaction allocates almost nothing.
type writerBufs struct {
	dirty            map[uint32]*pagecache.Page
	spilled          map[uint32]int64
	scratch, copyBuf []byte
	cellBuf          []byte
	cells            [][]byte
	frames           []framePage
	offs             []int64
	keys             []pagecache.Key
}

// endWrite closes a write transaction: its buffers go back to the Store
// (the Tx is closed, so nothing reaches them through it again) and the
// writer token is released.
func (tx *Tx) endWrite() {
	tx.closed = true
	clear(tx.dirty)
	clear(tx.spilled)
	clear(tx.cells)
	clear(tx.frames)
	tx.s.spare = &writerBufs{
		dirty: tx.dirty, spilled: tx.spilled, scratch: tx.scratch, copyBuf: tx.copyBuf,
		cellBuf: tx.cellBuf[:0], cells: tx.cells[:0], frames: tx.frames[:0], offs: tx.offs[:0], keys: tx.keys[:0],
	}
	tx.dirty, tx.spilled, tx.scratch, tx.copyBuf = nil, nil, nil, nil
	tx.cellBuf, tx.cells, tx.frames, tx.offs, tx.keys = nil, nil, nil, nil, nil
	<-tx.s.writer
}

// Writable reports whether this is a write transaction.
func (tx *Tx) Writable() bool { return tx.rw }

// Snapshot returns the commit sequence number the transaction reads.
func (tx *Tx) Snapshot() uint64 { return tx.snap }

// Meta returns header slot slot (0..15); 0 for an invalid slot.
func (tx *Tx) Meta(slot int) uint64 {
	if slot < 0 || slot >= metaSlots {
		return 0
	}
	return tx.hdr.meta[slot]
}

// SetMeta sets header slot slot (0..15).
func (tx *Tx) SetMeta(slot int, v uint64) error {
	if err := tx.checkWrite(); err != nil {
		return err
	}
	if slot < 0 || slot >= metaSlots {
		return fmt.Errorf("%w: meta slot %d", ErrInvalid, slot)
	}
	if tx.hdr.meta[slot] != v {
		tx.hdr.meta[slot] = v
		tx.hdrDirty = true
	}
	return nil
}

func (tx *Tx) checkRead() error {
	if tx.closed {
		return ErrTxClosed
	}
	return nil
}

func (tx *Tx) checkWrite() error {
	if tx.closed {
		return ErrTxClosed
	}
	if !tx.rw {
		return ErrReadOnly
	}
	if tx.failed != nil {
		return fmt.Errorf("%w: %w", ErrTxFailed, tx.failed)
	}
	return nil
}

// fail records an error that leaves the Tx unusable and returns it.
func (tx *Tx) fail(err error) error {
	if tx.failed == nil {
		tx.failed = err
	}
	return err
}

// node returns page p as this transaction sees it, for reading only. No
// pin is needed: cached buffers are never reused, committed versions never
// change, and the writer's own pages change only through this Tx.
func (tx *Tx) node(p uint32) (node, error) {
	pg, err := tx.pageRef(p)
	if err != nil {
		return nil, err
	}
	return pg.Data, nil
}

// page is node with a pin the caller releases (cursors pin their leaf).
func (tx *Tx) page(p uint32) (*pagecache.Page, error) {
	pg, err := tx.pageRef(p)
	if err != nil {
		return nil, err
	}
	pg.Pin()
	return pg, nil
}

// pageRef returns the page without taking a pin.
func (tx *Tx) pageRef(p uint32) (*pagecache.Page, error) {
	if p == 0 || p >= tx.hdr.pageCount {
		return nil, fmt.Errorf("%w: page %d out of range (page count %d)", ErrCorrupt, p, tx.hdr.pageCount)
	}
	if tx.rw {
		if pg := tx.dirty[p]; pg != nil {
			return pg, nil
		}
		if off, ok := tx.spilled[p]; ok {
			pg, err := tx.ownVersion(p, off)
			if err != nil {
				return nil, err
			}
			tx.s.cache.Unpin(pg)
			return pg, nil
		}
	}
	return tx.s.readPage(p, tx.snap)
}

// ownVersion returns this writer's spilled version of p, pinned. It
// bypasses the hot-page table: the version is not committed, and a
// rolled-back writer's versions must vanish with it.
func (tx *Tx) ownVersion(p uint32, off int64) (*pagecache.Page, error) {
	k := pagecache.Key{Page: p, Ver: tx.seq}
	if pg := tx.s.cache.Get(k); pg != nil {
		return pg, nil
	}
	return tx.s.load(k, off)
}

// writable returns page p ready to modify: the writer's private copy,
// made on first use. The Tx owns the pin; callers do not unpin.
func (tx *Tx) writable(p uint32) (node, error) {
	if pg := tx.dirty[p]; pg != nil {
		return pg.Data, nil
	}
	if p == 0 || p >= tx.hdr.pageCount {
		return nil, fmt.Errorf("%w: page %d out of range (page count %d)", ErrCorrupt, p, tx.hdr.pageCount)
	}
	var pg *pagecache.Page
	if off, ok := tx.spilled[p]; ok {
		own, err := tx.ownVersion(p, off)
		if err != nil {
			return nil, err
		}
		pg = own
	} else {
		src, err := tx.s.readPage(p, tx.snap)
		if err != nil {
			return nil, err
		}
		pg, err = tx.s.cache.Create(pagecache.Key{Page: p, Ver: tx.seq})
		if err != nil {
			return nil, tx.fail(fmt.Errorf("storage: %w", err))
		}
		copy(pg.Data, src.Data)
	}
	tx.s.cache.MarkDirty(pg)
	tx.dirty[p] = pg
	return pg.Data, nil
}

// newPage returns a zeroed private page for the freshly allocated p.
func (tx *Tx) newPage(p uint32) (node, error) {
	if pg := tx.dirty[p]; pg != nil {
		clear(pg.Data)
		return pg.Data, nil
	}
	delete(tx.spilled, p)
	pg, err := tx.s.cache.Create(pagecache.Key{Page: p, Ver: tx.seq})
	if err != nil {
		return nil, tx.fail(fmt.Errorf("storage: %w", err))
	}
	tx.s.cache.MarkDirty(pg)
	tx.dirty[p] = pg
	return pg.Data, nil
}

// forget drops the writer's private copy of a freed page: nobody will
// read its contents, so writing it would be wasted.
func (tx *Tx) forget(p uint32) {
	if pg := tx.dirty[p]; pg != nil {
		delete(tx.dirty, p)
		tx.s.cache.Invalidate([]pagecache.Key{pg.Key()})
		tx.s.cache.Unpin(pg)
	} else if _, ok := tx.spilled[p]; ok {
		tx.s.cache.Invalidate([]pagecache.Key{{Page: p, Ver: tx.seq}})
	}
	delete(tx.spilled, p)
}

// maybeSpill writes the dirty pages to the log as frames without a commit
// record once they exceed the budget, so a transaction larger than the
// cache runs in bounded memory. Call it only between tree operations: no
// page may be half-modified.
func (tx *Tx) maybeSpill() error {
	if len(tx.dirty) < tx.s.budget {
		return nil
	}
	pages := tx.sortedDirty()
	offs, err := tx.s.wal.appendFrames(tx.frames, tx.seq, false, tx.offs[:0])
	tx.offs = offs
	if err != nil {
		return tx.fail(err)
	}
	for i, pg := range pages {
		tx.spilled[pg.Key().Page] = offs[i]
	}
	tx.releaseDirty(pages)
	tx.s.st.spilledPages.Add(uint64(len(pages)))
	return nil
}

// sortedDirty returns the dirty pages by page number and fills tx.frames.
func (tx *Tx) sortedDirty() []*pagecache.Page {
	pages := make([]*pagecache.Page, 0, len(tx.dirty))
	for _, pg := range tx.dirty {
		pages = append(pages, pg)
	}
	slices.SortFunc(pages, func(a, b *pagecache.Page) int { return a.Key().Compare(b.Key()) })
	tx.frames = tx.frames[:0]
	for _, pg := range pages {
		tx.frames = append(tx.frames, framePage{pg: pg.Key().Page, data: pg.Data})
	}
	return pages
}

// releaseDirty marks written pages clean and drops the Tx's pins on them.
func (tx *Tx) releaseDirty(pages []*pagecache.Page) {
	tx.s.cache.MarkClean(pages)
	for _, pg := range pages {
		tx.s.cache.Unpin(pg)
	}
	clear(tx.dirty)
}

// hint is the writer's last root-to-leaf path, valid while ok.
type hint struct {
	root uint32
	pa   path
	ok   bool
}
