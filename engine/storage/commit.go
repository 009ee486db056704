package storage

import (
	"fmt"

	"github.com/ladybugsql/ladybug/pagecache"
	"github.com/ladybugsql/ladybug/vfs"
)

// Commit makes a write transaction durable (per the SyncMode) and visible
// to transactions that begin afterwards; on a read transaction it releases
// the snapshot. After a failed Commit the transaction is rolled back.
func (tx *Tx) Commit() error {
	if tx.closed {
		return ErrTxClosed
	}
	if !tx.rw {
		tx.closed = true
		tx.endRead()
		return nil
	}
	if tx.w.failed != nil {
		err := tx.w.failed
		tx.Rollback()
		return fmt.Errorf("%w: %w", ErrTxFailed, err)
	}
	if len(tx.w.dirty) == 0 && len(tx.w.spilled) == 0 && !tx.w.hdrDirty {
		tx.endWrite()
		return nil
	}
	if err := tx.commit(); err != nil {
		tx.Rollback()
		return err
	}
	return nil
}

// commit is the recipe; any error leaves the log end where the Tx found
// it, so nothing it wrote becomes part of the log.
func (tx *Tx) commit() (err error) {
	defer tx.guard(&err)
	s := tx.s
	s.crashAt("commit-begin")
	if err := s.checkLinked(); err != nil {
		return err
	}
	// 1. Every dirty page once; the last frame is the commit record.
	pages := tx.sortedDirty()
	// A memory store with no reader open and an empty log needs no log.
	if done, err := tx.commitDirect(pages); done {
		return err
	}
	if err := s.fixMainHeader(); err != nil {
		return err
	}
	// 2. The header page too when the header changed (page count, free
	//    list, meta), and in the first commit of each log generation, so
	//    the log always holds a header to recover a torn main file's from.
	//    A one-row change to an existing page is then a single frame.
	base := tx.w.base
	tx.hdr.seq = base.seq
	hdrChanged := tx.hdr != base
	tx.hdr.seq = tx.seq
	if hdrChanged || !s.wal.hasHeader || len(tx.w.frames) == 0 {
		hbuf := tx.w.scratch
		tx.hdr.encode(hbuf)
		tx.w.frames = append(tx.w.frames, framePage{pg: 0, data: hbuf})
	}
	offs, err := s.wal.appendFrames(tx.w.frames, tx.seq, true, tx.w.offs[:0])
	tx.w.offs = offs
	if err != nil {
		return err
	}
	// 3. Make it durable.
	if s.Sync() == SyncFull {
		if err := s.syncFile(s.wal.f); err != nil {
			return err
		}
	}
	s.crashAt("commit-unpublished")
	// 4. Publish: new readers see this commit from here on.
	s.walMu.Lock()
	for p, off := range tx.w.spilled {
		s.wal.addVersion(p, tx.seq, off)
	}
	for i, fp := range tx.w.frames {
		s.wal.addVersion(fp.pg, tx.seq, offs[i])
		if fp.pg == 0 {
			s.wal.hasHeader = true
		}
	}
	s.walEmpty.Store(false)
	s.mu.Lock()
	s.hdr = tx.hdr
	s.publishLocked(tx.hdr)
	s.mu.Unlock()
	s.walMu.Unlock()
	s.publishShared(false)
	// 5. The versions this commit superseded may be unreachable now: their
	//    buffers go back to the cache. Then the private pages are the
	//    committed version seq: clean, and in the hot-page table, where the
	//    next transaction's reads of them find them without the cache's
	//    lock (a recycle or a checkpoint takes them out again, see hot.go).
	tx.recycleSources()
	tx.releaseDirty(pages)
	for _, pg := range pages {
		s.hot.slot(pg.Key()).Store(pg)
	}
	clear(tx.w.spilled)
	s.st.commits.Add(1)
	s.st.commitPages.Add(uint64(len(tx.w.frames)))
	// 6. Checkpoint when the log is long: every version older than the
	//    oldest open snapshot goes to the main file, and the log restarts
	//    when no reader needs any of it (see checkpoint). The commit is
	//    already durable: a checkpoint failure is retried at the next
	//    commit or at Close, not reported here.
	if n := s.AutoCheckpoint(); n > 0 && s.walFrameCount() >= n && s.wal.frames > 0 {
		if _, _, err := s.checkpoint(false); err != nil {
			s.st.checkpointErrors.Add(1)
		}
	}
	tx.endWrite()
	return nil
}

// Rollback abandons the transaction; it is idempotent and safe after a
// failed Commit.
func (tx *Tx) Rollback() error {
	if tx.closed {
		return nil
	}
	tx.closed = true
	if !tx.rw {
		tx.endRead()
		return nil
	}
	s := tx.s
	keys := tx.w.keys[:0]
	for p := range tx.w.dirty {
		keys = append(keys, pagecache.Key{Page: p, Ver: tx.seq})
	}
	for p := range tx.w.spilled {
		keys = append(keys, pagecache.Key{Page: p, Ver: tx.seq})
	}
	// The next writer reuses seq: none of this Tx's versions may linger.
	s.cache.Invalidate(keys)
	for _, pg := range tx.w.dirty {
		s.cache.Unpin(pg)
	}
	s.wal.end, s.wal.crc = tx.w.walStart, tx.w.crcStart
	tx.endWrite()
	return nil
}

// walFrameCount returns the frames in the log, committed or not.
func (s *Store) walFrameCount() int {
	return int(max(s.wal.end-walHeaderSize, 0) / frameSize(s.ps))
}

// walIndexEmpty reports whether no committed frame of the log is still
// unchecked (every one is in the main file).
func (s *Store) walIndexEmpty() bool {
	s.walMu.RLock()
	defer s.walMu.RUnlock()
	return len(s.wal.index) == 0
}

// recycleSources hands the buffers of the page versions this commit
// superseded back to the cache, so the next copy-on-write reuses one
// instead of allocating. A version qualifies when (1) this commit wrote a
// newer version of its page, so every snapshot from now on reads that one,
// (2) no open reader has a snapshot old enough to read it (the new
// snapshot was published before this check, so a reader that begins later
// reads the new version; see snapshot), and (3) it
// was never exposed: no reader ever read it and the writer only used it in
// descents and as the copy source, so no slice of it is held anywhere. The
// hot-page table slot is emptied too.
func (tx *Tx) recycleSources() {
	w := tx.w
	if len(w.srcs) == 0 || !tx.s.noReaderAtOrBefore(tx.snap) {
		return
	}
	for _, src := range w.srcs {
		if src.Exposed() {
			continue
		}
		p := src.Key().Page
		if _, spilled := w.spilled[p]; w.dirty[p] == nil && !spilled {
			continue // freed and forgotten: no newer version was written
		}
		tx.s.hot.slot(src.Key()).CompareAndSwap(src, nil)
		tx.s.cache.Recycle(src)
	}
}

// checkLinked refuses a commit to a main file whose name was removed while
// the Store had it open (another program ran rm on the database, perhaps
// creating a new one under the name): every process that opens the path
// from then on reads the other file, so the commit would be acknowledged
// and lost. SQLite refuses such writes too (SQLITE_READONLY_DBMOVED).
func (s *Store) checkLinked() error {
	u, ok := s.db.(vfs.Unlinker)
	if !ok {
		return nil
	}
	gone, err := u.Unlinked()
	if err != nil {
		return fmt.Errorf("storage: %w", ioErr(err))
	}
	if gone {
		return fmt.Errorf("%w: %s was deleted while open (whoever opens that name now reads another file), so this commit is refused", ErrReadOnly, s.path)
	}
	return nil
}
