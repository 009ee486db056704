package storage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/ladybugsql/ladybug/pagecache"
	"github.com/ladybugsql/ladybug/vfs"
)

// Clone returns a new Store, at path in dst, holding s's newest commit:
// both files are cloned (vfs.CowFS.CloneFile), so the clone shares every
// page with s and either side copies a page only when it writes it. The
// cost does not depend on the database's size: Clone waits for the writer
// lock (like BeginWrite: up to BusyTimeout or until ctx ends), checkpoints
// s when its log holds frames and no reader needs them (so later clones
// copy no log index), and builds the clone's state from s's in memory, with
// no replay. s keeps running; its later commits stay invisible to the
// clone, and the clone's to s. opts configures the clone (its FS, page size
// and Create are ignored).
//
// A store over another file system (a database file) is cloned by
// cloneSnapshot, in constant time too, without waiting for the writer.
func (s *Store) Clone(ctx context.Context, dst *vfs.CowFS, path string, opts Options) (*Store, error) {
	if s.shut.Load() {
		return nil, ErrClosed
	}
	src, ok := s.opts.FS.(*vfs.CowFS)
	if !ok {
		return s.cloneSnapshot(dst, path, opts)
	}
	if err := s.lockWriter(ctx); err != nil {
		return nil, err
	}
	defer func() { <-s.writer }()
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	if s.wal.frames > 0 && !s.readOnly {
		if _, _, err := s.checkpoint(false); err != nil {
			return nil, err
		}
	}
	if err := s.fixMainHeader(); err != nil {
		return nil, err
	}
	if err := dst.CloneFile(src, s.path, path); err != nil {
		return nil, fmt.Errorf("storage: clone: %w", err)
	}
	// An empty log is not shared: the clone starts its own, so its
	// commits allocate log chunks instead of copying the source's.
	if s.wal.frames > 0 {
		if err := dst.CloneFile(src, s.path+"-wal", path+"-wal"); err != nil {
			return nil, fmt.Errorf("storage: clone: %w", err)
		}
	}
	opts.FS, opts.PageSize, opts.ReadOnly, opts.Create = dst, s.ps, false, false
	opts.fill()
	c := &Store{opts: opts, path: path, ps: s.ps, writer: make(chan struct{}, 1)}
	c.storeSettings()
	if err := c.adopt(s); err != nil {
		c.closeFiles()
		return nil, err
	}
	if s.base != nil {
		// s is a clone of a file database: so is c, over the same
		// snapshot (CloneFile shared it).
		s.base.refs.Add(1)
		c.base = s.base
	}
	return c, nil
}

// adopt opens c's cloned files and takes s's committed state: header, log
// index and log position. The caller holds s's writer token, so no commit
// or checkpoint changes them meanwhile.
func (c *Store) adopt(s *Store) error {
	var err error
	if c.db, err = c.opts.FS.Open(c.path, false); err != nil {
		return fmt.Errorf("storage: open clone: %w", err)
	}
	if err := c.db.Lock(true); err != nil {
		return fmt.Errorf("storage: lock clone: %w", err)
	}
	if c.wal.f, err = c.opts.FS.Create(c.path + "-wal"); err != nil {
		return fmt.Errorf("storage: open clone log: %w", err)
	}
	capacity := max(int(c.opts.CacheSize/int64(c.ps)), minCachePages)
	if c.cache, err = pagecache.New(pagecache.Config{PageSize: c.ps, Capacity: capacity}); err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	c.budget = max(capacity/2, 4)
	s.mu.Lock()
	c.hdr = s.hdr
	s.mu.Unlock()
	// A clone is often one test's short-lived copy, and a suite keeps
	// many alive: its hot-page table is a small one (64 slots, 512 B),
	// not one sized by the cache (up to 128 KiB).
	c.hot = newHotTable(min(capacity, 256))

	s.walMu.RLock()
	c.wal = wal{f: c.wal.f, ps: c.ps, salt: s.wal.salt, index: make(map[uint32][]walVer, len(s.wal.index)),
		frames: s.wal.frames, end: s.wal.end, hasHeader: s.wal.hasHeader, crc: s.wal.crc}
	for p, vs := range s.wal.index {
		c.wal.index[p] = append([]walVer(nil), vs...)
	}
	s.walMu.RUnlock()
	if c.wal.frames == 0 {
		// An empty log, not even its header (as truncateLog leaves it):
		// the first write transaction writes one (ensureLogHeader), so a
		// clone that never writes holds no log chunk.
		c.wal.clearIndex()
		c.wal.end = 0
	}
	c.walEmpty.Store(len(c.wal.index) == 0)
	c.mu.Lock()
	c.publishLocked(c.hdr)
	c.mu.Unlock()
	return nil
}

// loadShared caches a main-file page version without copying it when the
// file can lend the bytes (vfs.SharedReader: a CowFS page a clone shares,
// which no one will modify), so clones that read a template's pages hold
// no copies of them. The page is marked exposed, so its buffer is never
// recycled. ok is false when the file cannot lend the page.
func (s *Store) loadShared(k pagecache.Key) (pg *pagecache.Page, ok bool, err error) {
	sr, can := s.db.(vfs.SharedReader)
	if !can {
		return nil, false, nil
	}
	buf := sr.ReadShared(int64(k.Page)*int64(s.ps), s.ps)
	if buf == nil {
		return nil, false, nil
	}
	s.st.fileReads.Add(1)
	if !pageOK(buf, k.Page) {
		return nil, true, fmt.Errorf("%w: page %d checksum mismatch", ErrCorrupt, k.Page)
	}
	if err := validatePage(buf); err != nil {
		return nil, true, fmt.Errorf("storage: page %d: %w", k.Page, err)
	}
	pg, err = s.cache.Add(k, buf)
	if err != nil {
		return nil, true, fmt.Errorf("storage: %w", err)
	}
	pg.Expose()
	return pg, true, nil
}

// cloneSnapshot is Clone for a store whose files cannot be cloned (a file
// database): the clone's main file lies over s's newest commit
// (vfs.CowFS.CreateOver), read from s's files through a read snapshot
// the clone holds until it and its own clones close. So the clone costs
// the same whatever the database's size, reads the pages it never wrote
// from s (as of the clone's start, whatever s commits or checkpoints
// later), and copies a page into memory only when it writes it.
//
// Like any open read transaction, the snapshot holds s's checkpoints back
// to it while a clone lives (the log grows with s's later commits). When
// s closes first, every snapshot it lent is copied into memory once (one
// copy shared by all the clones of that snapshot), and the clones keep
// working on it.
func (s *Store) cloneSnapshot(dst *vfs.CowFS, path string, opts Options) (*Store, error) {
	tx, err := s.BeginRead()
	if err != nil {
		return nil, err
	}
	tx.sn.pins.Add(1)
	b := &snapshotBase{src: s, tx: tx, ps: s.ps}
	b.refs.Store(1)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		endPin(tx)
		return nil, ErrClosed
	}
	if s.pins == nil {
		s.pins = map[*snapshotBase]struct{}{}
	}
	s.pins[b] = struct{}{}
	s.mu.Unlock()
	c, err := b.open(dst, path, opts)
	if err != nil {
		b.release()
		return nil, err
	}
	return c, nil
}

// snapshotBase is a read snapshot of a store lent to clones as the bytes
// their main file lies over (a vfs.Backing): page p at p*PageSize, as the
// snapshot sees it (from the log or the main file). Once the store closes
// (detach) the pages come from mem, the snapshot's copy in memory.
type snapshotBase struct {
	src  *Store
	ps   int
	refs atomic.Int64 // stores whose main file lies over it

	mu  sync.RWMutex
	tx  *Tx      // the snapshot's registration on src; nil once detached or released
	mem vfs.File // the snapshot's pages once src closed
}

// open creates the clone's files at path in dst and opens them: a main
// file over the snapshot, whose header page is the snapshot's header, and
// an empty log.
func (b *snapshotBase) open(dst *vfs.CowFS, path string, opts Options) (*Store, error) {
	h := b.tx.hdr
	h.seq = b.tx.snap
	f, err := dst.CreateOver(path, b, int64(h.pageCount)*int64(b.ps))
	if err != nil {
		return nil, fmt.Errorf("storage: clone: %w", err)
	}
	buf := make([]byte, b.ps)
	h.encode(buf)
	_, err = f.WriteAt(buf, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("storage: clone: %w", err)
	}
	if err := dst.Remove(path + "-wal"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("storage: clone: %w", err)
	}
	opts.FS, opts.PageSize, opts.ReadOnly, opts.Create, opts.clone = dst, b.ps, false, false, true
	c, err := Open(path, opts)
	if err != nil {
		return nil, err
	}
	c.base = b
	return c, nil
}

// ReadAt implements vfs.Backing.
func (b *snapshotBase) ReadAt(p []byte, off int64) (int, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.mem != nil {
		return b.mem.ReadAt(p, off)
	}
	if b.tx == nil {
		return 0, fmt.Errorf("%w: the snapshot a clone reads was released", ErrClosed)
	}
	ps := int64(b.ps)
	first := off / ps
	end := (off + int64(len(p)) + ps - 1) / ps
	buf := p
	if off%ps != 0 || int64(len(p))%ps != 0 {
		buf = make([]byte, (end-first)*ps)
	}
	if err := b.src.readSnapshotPages(uint32(first), buf, b.tx.snap, nil); err != nil {
		return 0, err
	}
	if &buf[0] != &p[0] {
		copy(p, buf[off-first*ps:])
	}
	return len(p), nil
}

// detach copies the snapshot into memory and releases its registration on
// src, which is closing (it holds src's writer token).
func (b *snapshotBase) detach() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tx == nil {
		return nil // released meanwhile
	}
	mem, err := vfs.NewCowFS().Create("snapshot")
	if err != nil {
		return err
	}
	ps := b.ps
	total := b.tx.hdr.pageCount
	buf := make([]byte, backupBatch*ps)
	for first := uint32(0); first < total; first += backupBatch {
		n := min(backupBatch, total-first)
		if err := b.src.readSnapshotPages(first, buf[:int(n)*ps], b.tx.snap, nil); err != nil {
			return fmt.Errorf("storage: copy a clone's snapshot before close: %w", err)
		}
		if _, err := mem.WriteAt(buf[:int(n)*ps], int64(first)*int64(ps)); err != nil {
			return err
		}
	}
	b.mem = mem
	endPin(b.tx)
	b.tx = nil
	return nil
}

// release drops one store's reference; the last ends the snapshot's
// registration (or frees its copy).
func (b *snapshotBase) release() {
	if b.refs.Add(-1) > 0 {
		return
	}
	b.mu.Lock()
	tx := b.tx
	b.tx, b.mem = nil, nil
	b.mu.Unlock()
	if tx != nil {
		s := b.src
		s.mu.Lock()
		delete(s.pins, b)
		s.mu.Unlock()
		endPin(tx)
	}
}

// endPin ends a clone's or a backup's read snapshot.
func endPin(tx *Tx) {
	tx.sn.pins.Add(-1)
	tx.Rollback()
}

// detachPins detaches every snapshot s lent to clones; s is closing.
func (s *Store) detachPins() error {
	s.mu.Lock()
	pins := make([]*snapshotBase, 0, len(s.pins))
	for b := range s.pins {
		pins = append(pins, b)
	}
	s.pins = nil
	s.mu.Unlock()
	var err error
	for _, b := range pins {
		if derr := b.detach(); err == nil {
			err = derr
		}
	}
	return err
}
