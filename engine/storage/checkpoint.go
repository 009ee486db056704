package storage

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ladybugsql/ladybug/pagecache"
)

type ckptPage struct {
	pg  uint32
	seq uint64
	off int64
}

// checkpoint copies the newest version of every page in the log into the
// main file and restarts the log. It runs only when no open reader needs
// an older version (force skips that check, for Open). The caller holds
// the writer token.
//
// Crash safety: the log must be durable before the main file changes (under
// SyncFull every commit already synced it), and it is restarted only after
// the main file is synced. A crash in between leaves the whole log, whose
// replay rewrites the same pages (see wal.replay).
func (s *Store) checkpoint(force bool) error {
	if !force && !s.noOldReaders() {
		return nil
	}
	list := s.checkpointList()
	if len(list) == 0 {
		return nil
	}
	if s.Sync() != SyncFull {
		if err := s.syncFile(s.wal.f); err != nil {
			return err
		}
	}
	buf := make([]byte, s.ps)
	for _, c := range list {
		if c.pg == 0 {
			continue // written below from the newest header
		}
		if err := s.copyToMain(c, buf); err != nil {
			return err
		}
	}
	// The log's newest page 0 may predate later commits (which only wrote
	// the header when it changed), so the header comes from memory.
	s.hdr.encode(buf)
	if _, err := s.db.WriteAt(buf, 0); err != nil {
		return fmt.Errorf("storage: checkpoint header: %w", ioErr(err))
	}
	if err := s.syncFile(s.db); err != nil {
		return err
	}
	if err := s.restartAfterCheckpoint(list); err != nil {
		return err
	}
	s.st.checkpoints.Add(1)
	s.st.checkpointPages.Add(uint64(len(list)))
	return s.trimMain()
}

// checkpointList returns the newest logged version of each page, by page.
func (s *Store) checkpointList() []ckptPage {
	s.walMu.RLock()
	list := make([]ckptPage, 0, len(s.wal.index))
	for p, vs := range s.wal.index {
		v := vs[len(vs)-1]
		list = append(list, ckptPage{pg: p, seq: v.seq, off: v.off})
	}
	s.walMu.RUnlock()
	slices.SortFunc(list, func(a, b ckptPage) int { return cmp.Compare(a.pg, b.pg) })
	return list
}

// copyToMain writes one logged page version to its place in the main file.
func (s *Store) copyToMain(c ckptPage, buf []byte) error {
	data := buf
	if pg := s.cache.Get(pagecache.Key{Page: c.pg, Ver: c.seq}); pg != nil {
		data = pg.Data
		defer s.cache.Unpin(pg)
	} else if err := s.wal.readFrame(c.off, buf); err != nil {
		return fmt.Errorf("storage: checkpoint page %d: %w", c.pg, err)
	}
	if _, err := s.db.WriteAt(data, int64(c.pg)*int64(s.ps)); err != nil {
		return fmt.Errorf("storage: checkpoint page %d: %w", c.pg, ioErr(err))
	}
	return nil
}

// restartAfterCheckpoint empties the log and re-keys the cached newest
// versions as main-file pages, so hot pages stay cached. Only the index
// swap holds walMu exclusively; the file I/O happens outside it (no reader
// reads a frame through the new header, and the old frames stay in the
// file until overwritten or truncated, after the swap).
func (s *Store) restartAfterCheckpoint(list []ckptPage) error {
	used := s.wal.end
	if err := s.wal.writeHeader(); err != nil {
		return err
	}
	from := make([]pagecache.Key, 0, len(list))
	to := make([]pagecache.Key, 0, len(list))
	for _, c := range list {
		from = append(from, pagecache.Key{Page: c.pg, Ver: c.seq})
		to = append(to, pagecache.Key{Page: c.pg})
	}
	s.walMu.Lock()
	s.wal.clearIndex()
	s.cache.Invalidate(to)
	s.cache.Rekey(from, to)
	s.hot.clear()
	s.walEmpty.Store(true)
	s.walMu.Unlock()
	// The log file keeps its size: new frames overwrite old ones in place
	// (cheaper than growing a file), and the old ones fail the new salt.
	// Only a log grown far past the threshold by a huge transaction is cut.
	if used <= 2*int64(s.opts.CheckpointFrames)*frameSize(s.ps) {
		return nil
	}
	if err := s.wal.f.Truncate(walHeaderSize); err != nil {
		return fmt.Errorf("storage: truncate wal: %w", ioErr(err))
	}
	return nil
}

// trimMain cuts the main file to the page count (after Vacuum shrank it).
func (s *Store) trimMain() error {
	size, err := s.db.Size()
	if err != nil {
		return fmt.Errorf("storage: size: %w", err)
	}
	want := int64(s.hdr.pageCount) * int64(s.ps)
	if size <= want {
		return nil
	}
	if err := s.db.Truncate(want); err != nil {
		return fmt.Errorf("storage: truncate: %w", ioErr(err))
	}
	return nil
}
