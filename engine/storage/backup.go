package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ladybugsql/ladybug/vfs"
)

// BackupOptions configure Backup and BackupFile.
type BackupOptions struct {
	// Progress, when set, is called after each batch of pages (about
	// 1 MiB) with the pages written so far and the total, from the
	// goroutine running the backup.
	Progress func(done, total uint32)
	// Compact runs Vacuum on the copy before it is published (VACUUM
	// INTO): free pages are dropped and the file is as small as its live
	// pages. Only BackupFile honours it.
	Compact bool
	// Sync is the copy's durability: SyncFull (the default) fsyncs the
	// copy and its directory before BackupFile returns; SyncOff skips
	// every fsync (tests, scratch copies).
	Sync SyncMode
}

// backupBatch is the pages one Backup step reads and writes together.
const backupBatch = 256

// Backup writes s's newest commit, as of the call, to dst as a complete
// database file (no log): page p at offset p*PageSize, the header last.
// It reads through one read snapshot, so writers keep committing meanwhile
// (an open snapshot only holds checkpoints back, and no writer waits for
// it), and bypasses the page
// cache, so it neither evicts other readers' pages nor keeps its own.
// Free pages are copied as they are, unverified (a free page keeps stale
// bytes, or none). It returns the page count written.
func (s *Store) Backup(ctx context.Context, dst vfs.File, opts BackupOptions) (uint32, error) {
	tx, err := s.BeginRead()
	if err != nil {
		return 0, err
	}
	// Like a clone's, the copy's snapshot may be read for long: writers
	// do not wait for it to end before checkpointing (waitOldReaders).
	tx.sn.pins.Add(1)
	defer endPin(tx)
	list, err := tx.freePages()
	if err != nil {
		return 0, err
	}
	free := make(map[uint32]bool, len(list))
	for _, p := range list {
		free[p] = true
	}
	total := tx.hdr.pageCount
	ps := s.ps
	buf := make([]byte, backupBatch*ps)
	for first := uint32(1); first < total; first += backupBatch {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		n := min(backupBatch, total-first)
		b := buf[:int(n)*ps]
		if err := s.readSnapshotPages(first, b, tx.snap, free); err != nil {
			return 0, err
		}
		if _, err := dst.WriteAt(b, int64(first)*int64(ps)); err != nil {
			return 0, fmt.Errorf("storage: backup: %w", ioErr(err))
		}
		if opts.Progress != nil {
			opts.Progress(first+n-1, total)
		}
	}
	h := tx.hdr
	h.seq = tx.snap
	h.encode(buf[:ps])
	if _, err := dst.WriteAt(buf[:ps], 0); err != nil {
		return 0, fmt.Errorf("storage: backup: %w", ioErr(err))
	}
	if err := dst.Truncate(int64(total) * int64(ps)); err != nil {
		return 0, fmt.Errorf("storage: backup: %w", ioErr(err))
	}
	if opts.Progress != nil {
		opts.Progress(total, total)
	}
	return total, nil
}

// readSnapshotPages fills b with the pages from first on as snapshot snap
// sees them, verifying the checksum of every page not on the free list
// (free nil: of none; a clone's reader verifies what it loads). The
// caller holds a read registration on snap.
//
// The pages the log holds a version of (at or before snap) are resolved
// and read from their frames first, under walMu held shared, so no
// checkpoint restarts the log (and reuses a frame) meanwhile; the others
// then come from the main file in one read, without walMu: a checkpoint
// only rewrites pages that have a logged version at or before the oldest
// open snapshot, so never one that snap reads from the main file. A
// long copy thus never holds walMu across a large read, which would make
// each commit's publication (walMu held exclusively) and the next batch
// wait on each other.
func (s *Store) readSnapshotPages(first uint32, b []byte, snap uint64, free map[uint32]bool) error {
	ps := s.ps
	var logged []loggedPage
	if !s.walEmpty.Load() {
		// (An empty log, seen once snap is registered, stays without
		// versions at or before snap: later commits are newer.)
		var err error
		if logged, err = s.readLogged(first, len(b)/ps, snap); err != nil {
			return err
		}
	}
	n, err := s.db.ReadAt(b, int64(first)*int64(ps))
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("storage: backup: read: %w", ioErr(err))
	}
	clear(b[n:])
	for _, lp := range logged {
		copy(b[int(lp.pg-first)*ps:], lp.data)
	}
	if free == nil {
		return nil
	}
	for i := 0; i < len(b)/ps; i++ {
		p := first + uint32(i)
		if !free[p] && !pageOK(b[i*ps:(i+1)*ps], p) {
			return fmt.Errorf("%w: page %d checksum mismatch", ErrCorrupt, p)
		}
	}
	return nil
}

// loggedPage is a page version read from the log.
type loggedPage struct {
	pg   uint32
	data []byte
}

// readLogged reads, under walMu held shared, the log's version as of snap
// of each of the n pages from first on that has one.
func (s *Store) readLogged(first uint32, n int, snap uint64) ([]loggedPage, error) {
	s.walMu.RLock()
	defer s.walMu.RUnlock()
	var out []loggedPage
	for i := range n {
		p := first + uint32(i)
		if _, off := s.wal.resolve(p, snap); off >= 0 {
			buf := make([]byte, s.ps)
			if err := s.wal.readFrame(off, buf); err != nil {
				return nil, fmt.Errorf("storage: backup: page %d: %w", p, err)
			}
			out = append(out, loggedPage{p, buf})
		}
	}
	return out, nil
}

// ErrExists: BackupFile's destination already exists.
var ErrExists = errors.New("storage: destination file already exists")

// BackupFile writes s's newest commit to a new database file at path in
// the operating system's file system, and (with opts.Compact) vacuums it.
// The copy is written to a temporary file beside path, fsynced, and only
// then linked to path, which must not exist (ErrExists): a crash or an
// error at any point leaves either no file at path or the complete copy,
// never a half-written file that opens. A stale log at path+"-wal" (of a
// deleted database) is removed first, so it cannot replay into the copy.
func (s *Store) BackupFile(ctx context.Context, path string, opts BackupOptions) (uint32, error) {
	if _, err := os.Lstat(path); err == nil {
		return 0, fmt.Errorf("%w: %s", ErrExists, path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("storage: backup: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".backup-*")
	if err != nil {
		return 0, fmt.Errorf("storage: backup: %w", ioErr(err))
	}
	tmpName := tmp.Name()
	tmp.Close()
	published := false
	defer func() {
		if !published {
			os.Remove(tmpName)
			os.Remove(tmpName + "-wal")
		}
	}()
	f, err := vfs.OS().Open(tmpName, false)
	if err != nil {
		return 0, fmt.Errorf("storage: backup: %w", err)
	}
	pages, err := s.Backup(ctx, f, opts)
	if err == nil && opts.Sync != SyncOff {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	if opts.Compact {
		if pages, err = compactFile(ctx, tmpName, opts.Sync); err != nil {
			return 0, err
		}
	}
	if err := os.Remove(path + "-wal"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("storage: backup: remove stale log: %w", err)
	}
	// Link, not rename: it fails if path appeared meanwhile, so an
	// existing file is never replaced.
	if err := os.Link(tmpName, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return 0, fmt.Errorf("%w: %s", ErrExists, path)
		}
		return 0, fmt.Errorf("storage: backup: %w", ioErr(err))
	}
	published = true
	os.Remove(tmpName)
	if opts.Sync != SyncOff {
		if err := vfs.OS().(vfs.DirSyncer).SyncDir(path); err != nil {
			return 0, fmt.Errorf("storage: backup: %w", ioErr(err))
		}
	}
	return pages, nil
}

// compactFile vacuums the database copy at path in place and returns its
// page count.
func compactFile(ctx context.Context, path string, sync SyncMode) (uint32, error) {
	c, err := Open(path, Options{Sync: sync, CacheSize: 4 << 20})
	if err != nil {
		return 0, err
	}
	if c.FreelistCount() > 0 {
		if err := c.Vacuum(ctx); err != nil {
			c.Close()
			return 0, err
		}
	}
	pages := c.PageCount()
	if err := c.Close(); err != nil {
		return 0, err
	}
	// Close checkpointed the log into the file; the empty log goes.
	if err := os.Remove(path + "-wal"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("storage: backup: %w", err)
	}
	return pages, nil
}
