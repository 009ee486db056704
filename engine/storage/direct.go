package storage

import (
	"fmt"

	"github.com/ladybugsql/ladybug/pagecache"
)

// A memory database's files are memory that no other process reads and
// no crash survives (Options.Memory). Its log exists for snapshot
// isolation only: a reader of an older snapshot resolves the versions it
// needs in it while a checkpoint moves newer ones into the main file. When
// no reader is open and the log holds nothing, there is no older snapshot
// to keep, so a commit writes its pages straight into the main file: no
// frames, no checksum chain, no log file growing by a copy of every page
// (a fresh memory chunk each) and no checkpoint copying every page again.
//
// The readers' side: a reader registers on the newest snapshot (acquire)
// without a lock. commitDirect takes that snapshot out of s.cur (nil) under
// s.mu and only then reads its reader count. A reader that registered
// before is seen, and the commit takes the log path instead; one that
// registers after finds s.cur changed and waits for s.mu (acquire), which
// the commit holds until the new snapshot is published, so no reader ever
// reads the main file while it changes.

// commitDirect commits tx's pages (sorted, by sortedDirty) straight into
// the main file when the store may do so (Options.Memory, no spilled page,
// an empty log, the page count not shrinking) and no reader is open. It
// reports false, having changed nothing, when the commit must go through
// the log. Page writes to a memory file fail only once the file is closed
// (and a Store closes its files only after the writer is gone), so an
// error here leaves a store that is being closed anyway.
func (tx *Tx) commitDirect(pages []*pagecache.Page) (bool, error) {
	s := tx.s
	w := tx.w
	if !s.opts.Memory || s.base != nil || s.sh != nil || s.ro != nil || len(w.spilled) != 0 ||
		!s.walEmpty.Load() || tx.hdr.pageCount < w.base.pageCount || s.readerOpen() {
		return false, nil
	}
	// Seal outside the lock: readers that begin meanwhile do not wait for
	// the checksums.
	for _, pg := range pages {
		sealPage(pg.Data, pg.Key().Page)
	}
	// The header page only when more than the commit number changed: the
	// main file's header then lags behind (mainStale), which nothing reads
	// until fixMainHeader brings it up to date.
	tx.hdr.seq = tx.seq
	var hbuf []byte
	base := w.base
	base.seq = tx.seq
	if base != tx.hdr {
		hbuf = w.scratch
		tx.hdr.encode(hbuf)
	}

	s.mu.Lock()
	cur := s.cur.Swap(nil)
	if cur.readers.Load() > 0 || s.oldReadersLocked() {
		s.cur.Store(cur)
		s.mu.Unlock()
		return false, nil
	}
	err := tx.writeMain(pages, hbuf)
	if err != nil {
		s.cur.Store(cur)
		s.mu.Unlock()
		return true, err
	}
	// The private pages become the main file's versions (Ver 0), in place
	// of those cached (no reader can read those again; an unexposed one
	// gives its buffer back, see recycleSources), and go into the
	// hot-page table.
	s.cache.Promote(pages, 0)
	for _, pg := range pages {
		s.hot.slot(pg.Key()).Store(pg)
	}
	clear(w.dirty)
	s.mainStale = hbuf == nil
	s.hdr = tx.hdr
	s.publishLocked(tx.hdr)
	s.mu.Unlock()
	s.st.commits.Add(1)
	s.st.directCommits.Add(1)
	s.st.commitPages.Add(uint64(len(pages)))
	if hbuf != nil {
		s.st.commitPages.Add(1)
	}
	tx.endWrite()
	return true, nil
}

// writeMain writes the pages and the header page hbuf (if any) to the
// main file.
func (tx *Tx) writeMain(pages []*pagecache.Page, hbuf []byte) error {
	s := tx.s
	for _, pg := range pages {
		if _, err := s.db.WriteAt(pg.Data, int64(pg.Key().Page)*int64(s.ps)); err != nil {
			return fmt.Errorf("storage: write page %d: %w", pg.Key().Page, ioErr(err))
		}
	}
	if hbuf == nil {
		return nil
	}
	if _, err := s.db.WriteAt(hbuf, 0); err != nil {
		return fmt.Errorf("storage: write header: %w", ioErr(err))
	}
	return nil
}

// fixMainHeader writes the newest header into the main file when direct
// commits left an older commit number there (mainStale): before a commit
// goes to the log (whose frames must follow the main file's commit number,
// see wal.replay), before the main file is cloned, and at Close. The
// caller holds the writer token. Nothing else reads the main file's
// header page while the store is open.
func (s *Store) fixMainHeader() error {
	if !s.mainStale {
		return nil
	}
	buf := make([]byte, s.ps)
	h := s.newestHeader()
	h.encode(buf)
	if _, err := s.db.WriteAt(buf, 0); err != nil {
		return fmt.Errorf("storage: write header: %w", ioErr(err))
	}
	s.mainStale = false
	return nil
}

// readerOpen reports whether a read transaction is open (a first look,
// without s.mu; commitDirect checks again under it).
func (s *Store) readerOpen() bool {
	if cur := s.cur.Load(); cur == nil || cur.readers.Load() > 0 {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.oldReadersLocked()
}

// oldReadersLocked reports whether a reader holds an older snapshot; the
// caller holds s.mu.
func (s *Store) oldReadersLocked() bool {
	for _, sn := range s.old {
		if sn.readers.Load() > 0 {
			return true
		}
	}
	return false
}
