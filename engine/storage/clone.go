package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/ladybugsql/ladybug/pagecache"
	"github.com/ladybugsql/ladybug/vfs"
)

// ErrNotCloneable: Clone needs a store over a vfs.CowFS (an in-memory
// database); a file database is copied instead (see Backup).
var ErrNotCloneable = errors.New("storage: only a store on a copy-on-write memory file system can be cloned in place")

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
func (s *Store) Clone(ctx context.Context, dst *vfs.CowFS, path string, opts Options) (*Store, error) {
	src, ok := s.opts.FS.(*vfs.CowFS)
	if !ok {
		return nil, ErrNotCloneable
	}
	if s.shut.Load() {
		return nil, ErrClosed
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
	// many alive: its hot-page table is the smallest useful one (256
	// slots, 2 KiB), not one sized by the cache (up to 32 KiB).
	c.hot = newHotTable(min(capacity, 1024))

	s.walMu.RLock()
	c.wal = wal{f: c.wal.f, ps: c.ps, salt: s.wal.salt, index: make(map[uint32][]walVer, len(s.wal.index)),
		frames: s.wal.frames, end: s.wal.end, hasHeader: s.wal.hasHeader, crc: s.wal.crc}
	for p, vs := range s.wal.index {
		c.wal.index[p] = append([]walVer(nil), vs...)
	}
	s.walMu.RUnlock()
	if c.wal.frames == 0 {
		if err := c.wal.reset(); err != nil {
			return err
		}
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
