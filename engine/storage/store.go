package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ladybugsql/ladybug/pagecache"
	"github.com/ladybugsql/ladybug/vfs"
)

// Store is one open database file and its write-ahead log. It is safe for
// concurrent use: any number of read transactions and one write
// transaction at a time. Within a process, open one Store per file and
// share it; across processes the file lock admits one writer.
type Store struct {
	opts     Options
	path     string
	ps       int
	db       vfs.File
	wal      wal
	cache    *pagecache.Cache
	budget   int           // dirty pages a write Tx keeps before spilling
	writer   chan struct{} // holds a token while a write Tx (or checkpoint) runs
	readOnly bool
	// hdrFromWAL: the main file's header was unreadable and came from the
	// log (see headerFromWAL).
	hdrFromWAL bool

	mu     sync.Mutex
	hdr    header      // newest committed header; guarded by mu
	closed bool        // guarded by mu
	shut   atomic.Bool // closed, readable without mu (BeginReadIn checks it)
	// cur is the newest commit's snapshot, old the earlier ones readers
	// may still hold (guarded by mu); see snapshot.
	cur atomic.Pointer[snapshot]
	old []*snapshot

	// walMu guards wal.index and wal.frames: page loads hold it shared
	// while they resolve and read a version, commits and checkpoints hold
	// it exclusively to publish or reset.
	walMu    sync.RWMutex
	walEmpty atomic.Bool // the log index is empty; see readPage
	hot      hotTable

	// base is the snapshot of another store a clone of a file database
	// lies over (see cloneSnapshot); pins the snapshots of s lent to
	// clones, guarded by mu.
	base *snapshotBase
	pins map[*snapshotBase]struct{}

	// ckptFrames is the log length, in frames, that triggers automatic
	// checkpoints (opts.CheckpointFrames; SetAutoCheckpoint; <= 0: none);
	// walLimit the size the log file is cut to after a restart
	// (SetJournalSizeLimit; negative: no limit).
	ckptFrames atomic.Int64
	walLimit   atomic.Int64
	// sh is the shared index other processes on the file use (nil: this
	// process has the file to itself, as in memory or on Windows); ro, a
	// read-only open's view of them (it never writes the -shm file).
	sh *shared
	ro *roState
	// holdMain releases the hold on other processes' checkpoints that
	// Open keeps while it reads the main file and the log.
	holdMain func()
	// mainStale: direct commits (direct.go) left the main file's header
	// page with an older commit number; guarded by the writer token.
	mainStale bool
	// restartWaitAt: the log end below which a write transaction does not
	// wait for old readers again (see checkpointBeforeWrite); writer's.
	restartWaitAt int64

	st counters
	// sync is the SyncMode in force (opts.Sync at open; SetSync).
	sync atomic.Int32
}

// counters are the Store's own statistics; see Stats.
type counters struct {
	commits, commitPages, spilledPages atomic.Uint64
	directCommits                      atomic.Uint64
	dirtiedPages                       atomic.Uint64
	checkpoints, checkpointPages       atomic.Uint64
	checkpointErrors                   atomic.Uint64
	logRestarts                        atomic.Uint64
	fileReads                          atomic.Uint64
	syncs                              atomic.Uint64
}

// Stats are counters for tests, PRAGMA and benchmarks.
type Stats struct {
	Cache pagecache.Stats // the page cache's counters and occupancy

	Commits     uint64 // write transactions committed
	CommitPages uint64 // pages written by commits (header included)
	// DirectCommits counts the commits of a memory store (Options.Memory)
	// written straight into the main file, without the log: no reader was
	// open and the log was empty.
	DirectCommits uint64
	SpilledPages  uint64 // pages written early by transactions larger than their budget
	// DirtiedPages counts pages write transactions took private copies of
	// (or created): each distinct page a transaction modifies counts once,
	// or once more after a spill.
	DirtiedPages    uint64
	Checkpoints     uint64
	CheckpointPages uint64 // pages copied from the WAL to the main file
	// LogRestarts counts checkpoints that copied the whole log and
	// restarted it from its beginning (the others copied what no open
	// reader needed).
	LogRestarts uint64
	// CheckpointErrors counts failed automatic checkpoints. The commit that
	// triggered one was already durable, so it succeeded; the checkpoint is
	// retried at the next commit and at Close, which reports its error.
	CheckpointErrors uint64
	FileReads        uint64 // pages read from the files (cache misses)
	WALFrames        int    // committed page versions in the WAL now
	PageCount        uint32
	FreelistCount    uint32
	Syncs            uint64 // fsyncs of the main file and the log
}

// Open opens (or, with opts.Create, creates) the database at path.
func Open(path string, opts Options) (*Store, error) {
	opts.fill()
	if !validPageSize(opts.PageSize) {
		return nil, fmt.Errorf("%w: page size %d", ErrInvalid, opts.PageSize)
	}
	s := &Store{
		opts:     opts,
		path:     path,
		writer:   make(chan struct{}, 1),
		readOnly: opts.ReadOnly,
	}
	s.storeSettings()
	if err := s.open(); err != nil {
		s.closeFiles()
		return nil, err
	}
	s.mu.Lock()
	s.publishLocked(s.hdr)
	s.mu.Unlock()
	return s, nil
}

func (s *Store) open() error {
	defer s.releaseMain()
	if err := s.openDB(); err != nil {
		return err
	}
	capacity := max(int(s.opts.CacheSize/int64(s.ps)), minCachePages)
	hotPages := capacity
	if s.opts.clone {
		hotPages = min(capacity, 64) // see Store.adopt
	}
	s.hot = newDroppingHotTable(hotPages)
	c, err := pagecache.New(pagecache.Config{PageSize: s.ps, Capacity: capacity, OnDrop: s.hot.forget})
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	s.cache = c
	s.budget = max(capacity/2, 4)
	first, err := s.openShared()
	if err != nil {
		return err
	}
	if s.sh != nil && !first {
		// Other processes have the file open: the shared index says where
		// the log's commits end, and the first sync reads them.
		s.releaseMain()
		return s.joinLog()
	}
	mainSeq := s.hdr.seq
	if err := s.openWAL(); err != nil {
		return err
	}
	s.releaseMain()
	s.walEmpty.Store(len(s.wal.index) == 0)
	if s.readOnly && s.canShare() && !s.hdrFromWAL {
		s.ro = &roState{mainSeq: mainSeq}
	}
	if !s.readOnly && s.wal.frames != 0 {
		s.writer <- struct{}{}
		_, _, err = s.checkpoint(true)
		<-s.writer
		if err != nil {
			return err
		}
	}
	if s.sh != nil {
		return s.initShared()
	}
	return nil
}

// joinLog opens the log of a database other processes have open and
// reads it as the shared index describes it.
func (s *Store) joinLog() error {
	s.wal.ps = s.ps
	s.wal.index = map[uint32][]walVer{}
	var err error
	if s.wal.f, err = s.opts.FS.Create(s.path + "-wal"); err != nil {
		return fmt.Errorf("storage: open wal: %w", err)
	}
	s.walEmpty.Store(true)
	for {
		if err := s.syncShared(false); !errors.Is(err, errRestarting) {
			return err
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// openDB opens, locks and (when new) initializes the main file, then reads
// its header.
func (s *Store) openDB() error {
	fsys := s.opts.FS
	_, err := fsys.Stat(s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && s.opts.Create && !s.readOnly:
		s.db, err = fsys.Create(s.path)
	case err == nil:
		s.db, err = fsys.Open(s.path, s.readOnly)
	}
	if err != nil {
		return fmt.Errorf("storage: open %s: %w", s.path, err)
	}
	// Where processes share the file through the -shm index, every one
	// takes the main file's lock shared (an older ladybug, which takes it
	// exclusive, and this one then exclude each other); elsewhere a
	// writer takes it exclusive.
	if err := s.db.Lock(!s.readOnly && !s.canShare()); err != nil {
		if errors.Is(err, vfs.ErrLocked) {
			return fmt.Errorf("%w: %w", ErrBusy, err)
		}
		return fmt.Errorf("storage: lock %s: %w", s.path, err)
	}
	// Another process's checkpoint may be writing the main file: hold it
	// off until the log is read too (releaseMain).
	if s.holdMain, err = s.lockMainStable(); err != nil {
		return err
	}
	size, err := s.db.Size()
	if err != nil {
		return fmt.Errorf("storage: size of %s: %w", s.path, err)
	}
	if size == 0 {
		// An empty file is a new database, as in SQLite: nothing to lose.
		if s.readOnly {
			return fmt.Errorf("%w: %s is empty (a read-only open cannot create the database)", ErrNotADB, s.path)
		}
		return s.initDB()
	}
	err = s.readHeader()
	if err == nil && size >= int64(2*s.ps) {
		return nil
	}
	first, ferr := s.readPrefix(size)
	if ferr != nil {
		return ferr
	}
	if s.unfinishedCreate(first, size) {
		return s.initDB()
	}
	if err == nil {
		// Every database has two pages at least.
		return fmt.Errorf("%w: %s is truncated (%d bytes, pages of %d)", ErrCorrupt, s.path, size, s.ps)
	}
	if !bytes.HasPrefix(first, []byte(headerMagic)) {
		// A header write torn before its first sector leaves zeros where
		// the magic was; the log may still hold the header.
		if isZero(first[:min(len(first), len(headerMagic))]) && s.headerFromWAL() {
			return nil
		}
		// Not ladybug's: refuse it and write nothing (SQLite's NOTADB).
		return fmt.Errorf("%w: %s", ErrNotADB, s.path)
	}
	if errors.Is(err, ErrCorrupt) && s.headerFromWAL() {
		return nil
	}
	return err
}

// readPrefix reads the file's first 2*maxPageSize bytes (all of a file
// creation could have written).
func (s *Store) readPrefix(size int64) ([]byte, error) {
	buf := make([]byte, min(size, 2*maxPageSize))
	n, err := s.db.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("storage: read header: %w", err)
	}
	return buf[:n], nil
}

func isZero(b []byte) bool { return bytes.Count(b, []byte{0}) == len(b) }

// headerFromWAL recovers an unreadable main-file header from the log. A
// checkpoint writes the header page with the others before one sync, so a
// power loss can tear it; the log, restarted only after that sync, still
// holds the newest header, and the checkpoint at Open rewrites it.
func (s *Store) headerFromWAL() bool {
	f, err := s.opts.FS.Open(s.path+"-wal", true)
	if err != nil {
		return false
	}
	defer f.Close()
	w := wal{f: f}
	r, err := w.replay(anyBase)
	if err != nil || r.hdr == nil {
		return false
	}
	h, err := decodeHeader(r.hdr)
	if err != nil {
		return false
	}
	h.seq = r.lastSeq
	s.ps, s.hdr = h.pageSize, h
	s.hdrFromWAL = true
	return true
}

// unfinishedCreate reports whether a file with an unreadable header (all
// of whose bytes are in first) is provably the remains of ladybug's own
// creation that crashed before its first sync: it starts with the header
// magic, has no log, and every byte is either the one creation writes at
// that offset (for some page size) or zero, a hole the crash left. Such a
// file holds no data, so it is initialized again; anything else (another
// program's file, a damaged database) is never written.
func (s *Store) unfinishedCreate(first []byte, size int64) bool {
	if s.readOnly || size > int64(len(first)) || len(first) < len(headerMagic) || string(first[:len(headerMagic)]) != headerMagic {
		return false
	}
	wsize, err := s.opts.FS.Stat(s.path + "-wal")
	if !errors.Is(err, fs.ErrNotExist) && (err != nil || wsize > walHeaderSize) {
		return false
	}
	for ps := minPageSize; ps <= maxPageSize; ps *= 2 {
		if size <= int64(2*ps) && imageWithHoles(first, creationImage(ps)) {
			return true
		}
	}
	return false
}

// imageWithHoles reports whether every byte of got is the byte of want at
// its offset, or zero.
func imageWithHoles(got, want []byte) bool {
	if len(got) > len(want) {
		return false
	}
	for i, b := range got {
		if b != want[i] && b != 0 {
			return false
		}
	}
	return true
}

// creationImage is what initDB writes for page size ps: the header page
// and the empty tree registry (page 1).
func creationImage(ps int) []byte {
	h := header{pageSize: ps, pageCount: 2, registry: 1}
	buf := make([]byte, 2*ps)
	h.encode(buf[:ps])
	reg := node(buf[ps:])
	initNode(reg, typeLeaf)
	sealPage(reg, 1)
	return buf
}

// initDB writes an empty database (creationImage), and drops any log left
// by an earlier file.
func (s *Store) initDB() error {
	s.ps = s.opts.PageSize
	s.hdr = header{pageSize: s.ps, pageCount: 2, registry: 1}
	buf := creationImage(s.ps)
	if _, err := s.db.WriteAt(buf, 0); err != nil {
		return fmt.Errorf("storage: initialize %s: %w", s.path, ioErr(err))
	}
	if err := s.syncFile(s.db); err != nil {
		return err
	}
	if err := s.opts.FS.Remove(s.path + "-wal"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: remove stale wal: %w", err)
	}
	return s.syncDir()
}

// syncDir makes the creation of the database or log file durable where the
// file system needs that (SyncOff skips it).
func (s *Store) syncDir() error {
	ds, ok := s.opts.FS.(vfs.DirSyncer)
	if !ok || s.Sync() == SyncOff {
		return nil
	}
	if err := ds.SyncDir(s.path); err != nil {
		return fmt.Errorf("storage: %w", ioErr(err))
	}
	return nil
}

func (s *Store) readHeader() error {
	h, err := s.mainHeader()
	if err != nil {
		return err
	}
	s.ps, s.hdr = h.pageSize, h
	return nil
}

// mainHeader reads and decodes the main file's header.
func (s *Store) mainHeader() (header, error) {
	buf := make([]byte, maxPageSize)
	n, err := s.db.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return header{}, fmt.Errorf("storage: read header: %w", err)
	}
	h, err := decodeHeader(buf[:n])
	if err != nil {
		return header{}, fmt.Errorf("storage: %s: %w", s.path, err)
	}
	return h, nil
}

// openWAL opens the log and replays its complete commits.
func (s *Store) openWAL() error {
	s.wal.ps = s.ps
	s.wal.index = map[uint32][]walVer{}
	name := s.path + "-wal"
	var err error
	if s.readOnly {
		s.wal.f, err = s.opts.FS.Open(name, true)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	} else {
		_, statErr := s.opts.FS.Stat(name)
		s.wal.f, err = s.opts.FS.Create(name)
		if err == nil && errors.Is(statErr, fs.ErrNotExist) {
			err = s.syncDir()
		}
	}
	if err != nil {
		return fmt.Errorf("storage: open wal: %w", err)
	}
	base := s.hdr.seq
	if s.hdrFromWAL {
		base = anyBase
	}
	r, err := s.wal.replay(base)
	if errors.Is(err, errNoWAL) {
		if s.readOnly {
			return nil
		}
		return s.restartWAL()
	}
	if err != nil {
		return err
	}
	if r.hdr != nil {
		h, err := decodeHeader(r.hdr)
		if err != nil {
			return fmt.Errorf("storage: wal: %w", err)
		}
		s.hdr = h
	}
	if r.lastSeq != 0 {
		s.hdr.seq = r.lastSeq // later commits left the rest of the header as is
	}
	return nil
}

// restartWAL empties the log file and writes a fresh header.
func (s *Store) restartWAL() error {
	if err := s.wal.f.Truncate(0); err != nil {
		return fmt.Errorf("storage: truncate wal: %w", ioErr(err))
	}
	return s.wal.reset()
}

func (s *Store) syncFile(f vfs.File) error {
	if s.Sync() == SyncOff {
		return nil
	}
	s.st.syncs.Add(1)
	if err := f.Sync(); err != nil {
		return fmt.Errorf("storage: sync: %w", ioErr(err))
	}
	return nil
}

// Close checkpoints the log into the main file (all of it when no reader
// still needs older versions, and then empties the log file) and closes
// the files. It waits up to BusyTimeout
// for a running write transaction.
func (s *Store) Close() error { return s.close(true) }

// Discard closes the store like Close but without checkpointing: for an
// in-memory database, whose files go with it, the checkpoint would copy
// pages nobody reads again.
func (s *Store) Discard() error { return s.close(false) }

func (s *Store) close(checkpoint bool) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	s.mu.Unlock()
	if err := s.lockToken(context.Background()); err != nil {
		return err
	}
	s.mu.Lock()
	s.closed = true
	s.shut.Store(true)
	s.mu.Unlock()
	// Clones reading a snapshot of s get their own copy of it first.
	err := s.detachPins()
	tookShared := false
	if s.sh != nil && checkpoint && err == nil {
		// Another process may be writing: then it checkpoints, not us.
		got, lerr := s.sh.f.TryLockByte(lockWriter, true)
		tookShared = got && lerr == nil
		checkpoint = tookShared && s.tookSharedWriter() == nil
	}
	if checkpoint && !s.readOnly && s.wal.f != nil && err == nil {
		err = s.fixMainHeader()
	}
	if checkpoint && !s.readOnly && s.wal.f != nil && err == nil {
		var full bool
		if _, full, err = s.checkpoint(false); err == nil && (full || s.walIndexEmpty()) {
			err = s.truncateLog()
		}
	}
	if tookShared {
		s.sh.word(shmWriting).Store(0) // before closeFiles releases the lock
	}
	if cerr := s.closeFiles(); err == nil {
		err = cerr
	}
	if s.base != nil {
		s.base.release()
	}
	return err
}

// closeFiles closes the files. The handles stay set, so a transaction
// still open after Close gets an error from the closed file, not a panic.
func (s *Store) closeFiles() error {
	var err error
	if s.sh != nil {
		err = s.sh.f.Close()
	}
	if s.wal.f != nil {
		if cerr := s.wal.f.Close(); err == nil {
			err = cerr
		}
	}
	if s.db != nil {
		if cerr := s.db.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// lockWriter takes the writer lock, waiting up to BusyTimeout: the
// in-process token, then (when other processes may use the file) the
// lock across processes, after which the index holds every commit.
// unlockWriter releases it.
func (s *Store) lockWriter(ctx context.Context) error {
	start := time.Now()
	if err := s.lockToken(ctx); err != nil {
		return err
	}
	if s.sh == nil {
		return nil
	}
	wait := s.busyTimeout(ctx)
	if wait >= 0 {
		wait = max(wait-time.Since(start), 0)
	}
	if err := s.lockSharedWriter(ctx, wait); err != nil {
		<-s.writer
		return err
	}
	return nil
}

// lockToken takes the in-process writer token, waiting up to BusyTimeout.
func (s *Store) lockToken(ctx context.Context) error {
	select {
	case s.writer <- struct{}{}:
		return nil
	default:
	}
	wait := s.busyTimeout(ctx)
	if wait < 0 {
		return fmt.Errorf("%w: another write transaction is active", ErrBusy)
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case s.writer <- struct{}{}:
		return nil
	case <-t.C:
		return fmt.Errorf("%w: writer lock not free after %v", ErrBusy, wait)
	case <-ctx.Done():
		return fmt.Errorf("%w: %w", ErrBusy, ctx.Err())
	}
}

// BeginRead starts a read transaction on the newest commit. It never
// blocks on the writer.
func (s *Store) BeginRead() (*Tx, error) {
	tx := new(Tx)
	if err := s.BeginReadIn(tx); err != nil {
		return nil, err
	}
	return tx, nil
}

// BeginReadIn is BeginRead starting the transaction in *tx, a zero Tx the
// caller provides (and never reuses while the transaction is open), so
// that beginning a read allocates nothing. It takes no lock.
func (s *Store) BeginReadIn(tx *Tx) error {
	if s.shut.Load() {
		return ErrClosed
	}
	if s.sh != nil {
		if err := s.beginShared(); err != nil {
			return err
		}
	} else if s.ro != nil {
		if err := s.beginRO(); err != nil {
			return err
		}
	}
	sn := s.acquire()
	*tx = Tx{s: s, snap: sn.hdr.seq, hdr: sn.hdr, sn: sn}
	return nil
}

// BeginWrite starts the write transaction, waiting up to BusyTimeout (or
// until ctx ends) for the previous one to finish.
func (s *Store) BeginWrite(ctx context.Context) (*Tx, error) {
	tx := new(Tx)
	if err := s.BeginWriteIn(ctx, tx); err != nil {
		return nil, err
	}
	return tx, nil
}

// BeginWriteIn is BeginWrite starting the transaction in *tx, a Tx the
// caller provides (and never reuses while the transaction is open), so
// that beginning a write allocates no Tx.
func (s *Store) BeginWriteIn(ctx context.Context, tx *Tx) error {
	if s.readOnly {
		return ErrReadOnly
	}
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return ErrClosed
	}
	if err := s.lockWriter(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.unlockWriter()
		return ErrClosed
	}
	s.mu.Unlock()
	s.checkpointBeforeWrite(ctx)
	if err := s.ensureLogHeader(); err != nil {
		s.unlockWriter()
		return err
	}
	initWriteTx(tx, s, s.newestHeader())
	return nil
}

// endRead releases a read transaction's snapshot.
func (tx *Tx) endRead() {
	if tx.sn != nil {
		tx.sn.readers.Add(-1)
		tx.sn = nil
		if tx.s.sh != nil {
			tx.s.endShared()
		} else if tx.s.ro != nil {
			tx.s.endRO()
		}
	}
}

// readPage returns page p as of snapshot snap, without a pin.
func (s *Store) readPage(p uint32, snap uint64) (*pagecache.Page, error) {
	// With an empty log every reader reads the main file, and no
	// checkpoint can rewrite it under a reader (see hot.go).
	if s.walEmpty.Load() {
		return s.fetch(pagecache.Key{Page: p}, -1)
	}
	s.walMu.RLock()
	ver, off := s.wal.resolve(p, snap)
	pg, err := s.fetch(pagecache.Key{Page: p, Ver: ver}, off)
	s.walMu.RUnlock()
	return pg, err
}

// fetch returns a committed page version through the hot-page table and
// the cache, loading it on a miss, without a pin.
func (s *Store) fetch(k pagecache.Key, off int64) (*pagecache.Page, error) {
	slot := s.hot.slot(k)
	if pg := slot.Load(); pg != nil && pg.Key() == k {
		return pg, nil
	}
	pg := s.cache.Get(k)
	if pg == nil {
		var err error
		if pg, err = s.load(k, off); err != nil {
			return nil, err
		}
	}
	s.cache.Unpin(pg)
	slot.Store(pg)
	return pg, nil
}

// load reads a page version from the WAL frame at off (or from the main
// file when off < 0), verifies it and caches it, pinned.
func (s *Store) load(k pagecache.Key, off int64) (*pagecache.Page, error) {
	if off < 0 {
		if pg, ok, err := s.loadShared(k); ok {
			return pg, err
		}
	}
	buf := make([]byte, s.ps)
	if off >= 0 {
		if err := s.wal.readFrame(off, buf); err != nil {
			return nil, fmt.Errorf("storage: page %d: %w", k.Page, err)
		}
	} else if _, err := s.db.ReadAt(buf, int64(k.Page)*int64(s.ps)); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: page %d is beyond the end of the file", ErrCorrupt, k.Page)
		}
		return nil, fmt.Errorf("storage: read page %d: %w", k.Page, err)
	}
	s.st.fileReads.Add(1)
	if !pageOK(buf, k.Page) {
		return nil, fmt.Errorf("%w: page %d checksum mismatch", ErrCorrupt, k.Page)
	}
	if err := validatePage(buf); err != nil {
		return nil, fmt.Errorf("storage: page %d: %w", k.Page, err)
	}
	pg, err := s.cache.Add(k, buf)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	return pg, nil
}

// Stats returns the current counters.
func (s *Store) Stats() Stats {
	st := Stats{
		Cache:            s.cache.Stats(),
		Commits:          s.st.commits.Load(),
		CommitPages:      s.st.commitPages.Load(),
		DirectCommits:    s.st.directCommits.Load(),
		SpilledPages:     s.st.spilledPages.Load(),
		DirtiedPages:     s.st.dirtiedPages.Load(),
		Checkpoints:      s.st.checkpoints.Load(),
		CheckpointPages:  s.st.checkpointPages.Load(),
		LogRestarts:      s.st.logRestarts.Load(),
		CheckpointErrors: s.st.checkpointErrors.Load(),
		FileReads:        s.st.fileReads.Load(),
		Syncs:            s.st.syncs.Load(),
	}
	s.walMu.RLock()
	st.WALFrames = s.wal.frames
	s.walMu.RUnlock()
	s.mu.Lock()
	st.PageCount, st.FreelistCount = s.hdr.pageCount, s.hdr.freeCount
	s.mu.Unlock()
	return st
}

// PageCount returns the number of pages in the newest commit.
func (s *Store) PageCount() uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hdr.pageCount
}

// FreelistCount returns the number of free pages in the newest commit.
func (s *Store) FreelistCount() uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hdr.freeCount
}

// PageSize returns the database's page size.
func (s *Store) PageSize() int { return s.ps }

// MaxKeySize returns the longest key a leaf stores inline at this page
// size. Longer keys (up to 16 MiB) work but cost overflow reads when a
// search cannot decide on their first MaxKeySize/2 bytes.
func (s *Store) MaxKeySize() int { return maxKey(s.ps) }
