package storage

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"

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
	s      *Store
	rw     bool
	closed bool
	snap   uint64      // commit it reads
	seq    uint64      // commit it will write (writers)
	hdr    header      // the snapshot's header; the writer's working copy
	w      *writeState // writers only; nil once closed
	sn     *snapshot   // readers only: the snapshot registered; nil once closed
	tree0  Tree        // the first tree asked for, held inline (see Tx.Tree)
}

// writeState is what only the writer needs. The Store keeps one between
// writers (guarded by the writer token), so a small write transaction
// allocates almost nothing.
type writeState struct {
	base     header // the header the Tx started from
	hdrDirty bool
	dirty    map[uint32]*pagecache.Page // modified pages, pinned
	spilled  map[uint32]int64           // pages written early: frame offset
	walStart int64                      // log end when the Tx began
	crcStart uint32
	failed   error // sticky: the Tx must roll back

	scratch []byte     // page-sized, for defragmenting and rebuilding
	copyBuf []byte     // page-sized, the old contents of a page being split
	cellBuf []byte     // the leaf cell being inserted
	sepBuf  []byte     // the separator of an appending split
	cells   [][]byte   // cells of a page being split
	idxs    []int      // cell indexes a batch delete removes from one leaf
	hint    hint       // the last write path; see Tree.findLeaf
	vals    valueArena // copies of the values the writer's Gets return
	frames  []framePage
	pages   []*pagecache.Page // the dirty pages being written, sorted (reused)
	srcs    []*pagecache.Page // committed versions copied by writable, unexposed then
	offs    []int64
	keys    []pagecache.Key
}

// writeStates keep the states of ended write transactions for the next
// one, per page size (index: log2 of the page size), shared by every
// store: a database that is not writing (one of a thousand idle clones)
// keeps none, and a busy writer gets its own back.
var writeStates [16]sync.Pool

// initWriteTx starts the write transaction in *tx on header h.
func initWriteTx(tx *Tx, s *Store, h header) {
	w, _ := writeStates[bits.TrailingZeros(uint(s.ps))].Get().(*writeState)
	if w == nil {
		w = &writeState{
			dirty:   map[uint32]*pagecache.Page{},
			spilled: map[uint32]int64{},
			scratch: make([]byte, s.ps), copyBuf: make([]byte, s.ps),
		}
	}
	w.walStart, w.crcStart = s.wal.end, s.wal.crc
	w.base = h
	*tx = Tx{s: s, rw: true, snap: h.seq, seq: h.seq + 1, hdr: h, w: w}
}

// endWrite closes a write transaction: its state goes back to
// writeStates, cleared, and the writer token is released.
func (tx *Tx) endWrite() {
	tx.closed = true
	w := tx.w
	tx.w = nil
	clear(w.dirty)
	clear(w.spilled)
	clear(w.cells)
	clear(w.frames)
	clear(w.pages)
	clear(w.srcs)
	w.hdrDirty, w.failed, w.hint.ok = false, nil, false
	w.vals = valueArena{} // values handed out may outlive the Tx
	w.cellBuf, w.cells, w.frames, w.pages = w.cellBuf[:0], w.cells[:0], w.frames[:0], w.pages[:0]
	w.srcs = w.srcs[:0]
	w.offs, w.keys = w.offs[:0], w.keys[:0]
	writeStates[bits.TrailingZeros(uint(tx.s.ps))].Put(w)
	tx.s.unlockWriter()
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
		tx.w.hdrDirty = true
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
	if tx.w.failed != nil {
		return fmt.Errorf("%w: %w", ErrTxFailed, tx.w.failed)
	}
	return nil
}

// fail records an error that leaves the Tx unusable and returns it.
func (tx *Tx) fail(err error) error {
	if tx.w.failed == nil {
		tx.w.failed = err
	}
	return err
}

// node returns page p as this transaction sees it, for reading only. No
// pin is needed: a buffer is only recycled once no reader can reach its
// version and it was never exposed, committed versions never change, and
// the writer's own pages change only through this Tx. The page is marked
// exposed: slices of it may outlive the call.
func (tx *Tx) node(p uint32) (node, error) {
	pg, err := tx.pageRef(p)
	if err != nil {
		return nil, err
	}
	pg.Expose()
	return pg.Data, nil
}

// nodeQuiet is node for the writer's own bookkeeping (descents, merges,
// batch deletes, the free list): nothing it reads outlives the write
// operation, so the page is not marked exposed and its buffer may be
// recycled once a commit supersedes it (see recycleSources).
func (tx *Tx) nodeQuiet(p uint32) (node, error) {
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
	pg.Expose()
	pg.Pin()
	return pg, nil
}

// pageRef returns the page without taking a pin.
func (tx *Tx) pageRef(p uint32) (*pagecache.Page, error) {
	if p == 0 || p >= tx.hdr.pageCount {
		return nil, fmt.Errorf("%w: page %d out of range (page count %d)", ErrCorrupt, p, tx.hdr.pageCount)
	}
	if tx.rw {
		if pg := tx.w.dirty[p]; pg != nil {
			return pg, nil
		}
		if off, ok := tx.w.spilled[p]; ok {
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
	if pg := tx.w.dirty[p]; pg != nil {
		return pg.Data, nil
	}
	if p == 0 || p >= tx.hdr.pageCount {
		return nil, fmt.Errorf("%w: page %d out of range (page count %d)", ErrCorrupt, p, tx.hdr.pageCount)
	}
	var pg *pagecache.Page
	if off, ok := tx.w.spilled[p]; ok {
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
		pg, err = tx.s.cache.CreateCopy(pagecache.Key{Page: p, Ver: tx.seq}, src.Data)
		if err != nil {
			return nil, tx.fail(fmt.Errorf("storage: %w", err))
		}
		if !src.Exposed() {
			tx.w.srcs = append(tx.w.srcs, src)
		}
	}
	tx.s.cache.MarkDirty(pg)
	tx.w.dirty[p] = pg
	tx.s.st.dirtiedPages.Add(1)
	return pg.Data, nil
}

// newPage returns a zeroed private page for the freshly allocated p.
func (tx *Tx) newPage(p uint32) (node, error) {
	if pg := tx.w.dirty[p]; pg != nil {
		clear(pg.Data)
		return pg.Data, nil
	}
	delete(tx.w.spilled, p)
	pg, err := tx.s.cache.Create(pagecache.Key{Page: p, Ver: tx.seq})
	if err != nil {
		return nil, tx.fail(fmt.Errorf("storage: %w", err))
	}
	tx.s.cache.MarkDirty(pg)
	tx.w.dirty[p] = pg
	tx.s.st.dirtiedPages.Add(1)
	return pg.Data, nil
}

// forget drops the writer's private copy of a freed page: nobody will
// read its contents, so writing it would be wasted.
func (tx *Tx) forget(p uint32) {
	if pg := tx.w.dirty[p]; pg != nil {
		delete(tx.w.dirty, p)
		tx.s.cache.Invalidate([]pagecache.Key{pg.Key()})
		tx.s.cache.Unpin(pg)
	} else if _, ok := tx.w.spilled[p]; ok {
		tx.s.cache.Invalidate([]pagecache.Key{{Page: p, Ver: tx.seq}})
	}
	delete(tx.w.spilled, p)
}

// maybeSpill writes the dirty pages to the log as frames without a commit
// record once they exceed the budget, so a transaction larger than the
// cache runs in bounded memory. Call it only between tree operations: no
// page may be half-modified.
func (tx *Tx) maybeSpill() error {
	if len(tx.w.dirty) < tx.s.budget {
		return nil
	}
	pages := tx.sortedDirty()
	offs, err := tx.s.wal.appendFrames(tx.w.frames, tx.seq, false, tx.w.offs[:0])
	tx.w.offs = offs
	if err != nil {
		return tx.fail(err)
	}
	for i, pg := range pages {
		tx.w.spilled[pg.Key().Page] = offs[i]
	}
	tx.releaseDirty(pages)
	tx.s.st.spilledPages.Add(uint64(len(pages)))
	return nil
}

// sortedDirty returns the dirty pages by page number and fills tx.w.frames.
func (tx *Tx) sortedDirty() []*pagecache.Page {
	pages := tx.w.pages[:0]
	for _, pg := range tx.w.dirty {
		pages = append(pages, pg)
	}
	tx.w.pages = pages
	slices.SortFunc(pages, func(a, b *pagecache.Page) int { return a.Key().Compare(b.Key()) })
	tx.w.frames = tx.w.frames[:0]
	for _, pg := range pages {
		tx.w.frames = append(tx.w.frames, framePage{pg: pg.Key().Page, data: pg.Data})
	}
	return pages
}

// releaseDirty marks written pages clean and drops the Tx's pins on them.
func (tx *Tx) releaseDirty(pages []*pagecache.Page) {
	tx.s.cache.MarkClean(pages)
	for _, pg := range pages {
		tx.s.cache.Unpin(pg)
	}
	clear(tx.w.dirty)
}

// hint is the writer's last root-to-leaf path, valid while ok. exact
// says the path was left by a Get of key (see Tree.getWrite) and no write
// has happened since, so its leaf index is still the key's: the Put that
// follows (an UPDATE rewriting the row it just read) skips the search.
type hint struct {
	root  uint32
	pa    path
	ok    bool
	exact bool
	key   []byte
}
