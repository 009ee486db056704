package storage

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ladybugsql/ladybug/pagecache"
)

type ckptPage struct {
	pg  uint32
	seq uint64
	off int64
}

// checkpoint copies into the main file every logged page version that no
// open reader needs from the log: for each page, the newest version at or
// before the oldest open snapshot (force, for Open, takes the newest:
// no reader exists yet). When that empties the log's index, the log
// restarts from its beginning and is cut to the journal size limit. It
// returns how many index frames it copied or dropped, and whether the log
// restarted. The caller holds the writer token.
//
// Readers keep running. A reader's snapshot is at or after the oldest
// one, so for every page the checkpoint rewrites it resolves a log frame
// (the copied version or a newer one), never the main file, until the
// index swap under walMu; from then on the pages it resolves to the main
// file hold exactly the version it would have taken from the log.
//
// Crash safety: the log must be durable before the main file changes
// (under SyncFull every commit already synced it), and only after the main
// file is synced is the log restarted or cut. The main file's header is
// the oldest snapshot's, so a crash after a partial checkpoint replays the
// whole log over a consistent older state (see wal.replay).
func (s *Store) checkpoint(force bool) (int, bool, error) {
	upto := s.oldestSnapshot()
	if force {
		upto = s.newestHeader()
	}
	// Read-only processes' readers keep the main file and the log as they
	// are while they read; other processes' readers bound what is copied.
	unlock, ok := s.lockCheckpoint()
	if !ok {
		return 0, false, nil
	}
	defer unlock()
	if s.sh != nil && !force {
		if m, ok := s.foreignMin(); ok && m < upto.seq {
			h, err := s.headerAt(m)
			if err != nil {
				return 0, false, err
			}
			upto = h
		}
	}
	list := s.checkpointList(upto.seq)
	if len(list) == 0 {
		return 0, false, nil
	}
	if s.Sync() != SyncFull {
		if err := s.syncFile(s.wal.f); err != nil {
			return 0, false, err
		}
	}
	buf := make([]byte, s.ps)
	for i, c := range list {
		if i == len(list)/2 {
			s.crashAt("checkpoint-copy")
		}
		if c.pg == 0 {
			continue // written below from the snapshot's header
		}
		if err := s.copyToMain(c, buf); err != nil {
			return 0, false, err
		}
	}
	// The log's page 0 of that commit may predate later commits (which
	// only wrote the header when it changed), so the header comes from
	// memory.
	upto.encode(buf)
	if _, err := s.db.WriteAt(buf, 0); err != nil {
		return 0, false, fmt.Errorf("storage: checkpoint header: %w", ioErr(err))
	}
	if err := s.syncFile(s.db); err != nil {
		return 0, false, err
	}
	n, full := s.dropCheckpointed(list, upto.seq)
	s.st.checkpoints.Add(1)
	s.st.checkpointPages.Add(uint64(len(list)))
	if !full {
		return n, false, nil
	}
	restarted, err := s.restartLog()
	if err != nil || !restarted {
		return n, true, err
	}
	return n, true, s.trimMain()
}

// oldestSnapshot is the header of the oldest snapshot an open reader
// holds, or the newest commit's when no reader holds an older one (a
// reader that begins now gets the newest).
func (s *Store) oldestSnapshot() header {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.hdr
	for _, sn := range s.old {
		if sn.readers.Load() > 0 && sn.hdr.seq < h.seq {
			h = sn.hdr
		}
	}
	return h
}

func (s *Store) newestHeader() header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hdr
}

// checkpointList returns, by page, the newest logged version of each page
// at or before snap: the one to copy. (The older ones no reader can
// resolve any more; their cached copies age out of the cache.)
func (s *Store) checkpointList(snap uint64) []ckptPage {
	s.walMu.RLock()
	list := make([]ckptPage, 0, len(s.wal.index))
	for p, vs := range s.wal.index {
		i := 0
		for i < len(vs) && vs[i].seq <= snap {
			i++
		}
		if i == 0 {
			continue
		}
		v := vs[i-1]
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

// dropCheckpointed removes from the index every version at or before
// snap, now in the main file (list) or superseded, and re-keys the
// cached copied versions as main-file pages, so hot pages stay cached. It
// returns how many index frames went, and whether the index is empty.
func (s *Store) dropCheckpointed(list []ckptPage, snap uint64) (int, bool) {
	from := make([]pagecache.Key, 0, len(list))
	to := make([]pagecache.Key, 0, len(list))
	drop := []pagecache.Key{{Page: 0}}
	for _, c := range list {
		k := pagecache.Key{Page: c.pg, Ver: c.seq}
		if c.pg == 0 {
			// The main file's header is the snapshot's, not this frame's.
			drop = append(drop, k)
			continue
		}
		from = append(from, k)
		to = append(to, pagecache.Key{Page: c.pg})
	}
	s.walMu.Lock()
	defer s.walMu.Unlock()
	n := 0
	for _, c := range list {
		vs := s.wal.index[c.pg]
		i := 0
		for i < len(vs) && vs[i].seq <= snap {
			i++
		}
		n += i
		if i == len(vs) {
			delete(s.wal.index, c.pg)
		} else {
			s.wal.index[c.pg] = vs[i:]
		}
	}
	s.wal.frames -= n
	s.cache.Invalidate(drop)
	s.cache.Invalidate(to)
	s.cache.Rekey(from, to)
	// Main-file versions changed meaning for the pages copied and the
	// header: the hot-page table may hold their old ones. Only their slots
	// are emptied, not the whole table (up to 16,384 slots, which cost a
	// commit more than its own work when it checkpointed every 256 frames).
	s.hot.slot(pagecache.Key{}).Store(nil)
	for _, c := range list {
		s.hot.slot(pagecache.Key{Page: c.pg}).Store(nil)
	}
	if len(s.wal.index) != 0 {
		return n, false
	}
	s.wal.frames = 0
	s.walEmpty.Store(true)
	return n, true
}

// restartLog starts the log over from its beginning, once its index is
// empty (no reader needs a frame of it): a fresh header with a new salt,
// after which every old frame fails to verify, so new frames overwrite
// old ones in place. The file is then cut to the journal size limit. It
// does nothing (false) while a reader of another process is open: that
// reader may still read frames of the log.
func (s *Store) restartLog() (bool, error) {
	if s.wal.end == 0 {
		return false, nil // already cut to nothing (wal_checkpoint(TRUNCATE))
	}
	if !s.beginRestart() {
		return false, nil
	}
	defer s.endRestart()
	s.crashAt("restart-begin")
	s.walMu.Lock()
	s.wal.hasHeader = false
	s.walMu.Unlock()
	if err := s.wal.writeHeader(); err != nil {
		s.wal.end = 0 // the next writer writes a header first
		return false, err
	}
	s.crashAt("restart-header")
	s.restartWaitAt = 0
	s.st.logRestarts.Add(1)
	return true, s.limitLog(s.JournalSizeLimit())
}

// limitLog cuts the log file to at most limit bytes (never below its
// header; negative: no limit). The log holds no frame anyone needs.
func (s *Store) limitLog(limit int64) error {
	if limit < 0 {
		return nil
	}
	size, err := s.wal.f.Size()
	if err != nil {
		return fmt.Errorf("storage: wal size: %w", ioErr(err))
	}
	limit = max(limit, walHeaderSize)
	if size <= limit {
		return nil
	}
	if err := s.wal.f.Truncate(limit); err != nil {
		return fmt.Errorf("storage: truncate wal: %w", ioErr(err))
	}
	return nil
}

// truncateLog empties the log file entirely (wal_checkpoint(TRUNCATE),
// Close): the next write transaction writes a fresh header first. The
// caller holds the writer token and the log's index is empty. While a
// reader of another process is open the log stays as it is.
func (s *Store) truncateLog() error {
	unlock, ok := s.lockCheckpoint()
	if !ok {
		return nil
	}
	defer unlock()
	if !s.beginRestart() {
		return nil
	}
	defer s.endRestart()
	if err := s.wal.f.Truncate(0); err != nil {
		return fmt.Errorf("storage: truncate wal: %w", ioErr(err))
	}
	s.crashAt("truncate-cut")
	s.wal.end = 0
	s.wal.hasHeader = false
	return nil
}

// ensureLogHeader writes the log's header when truncateLog left the file
// empty; the caller holds the writer token.
func (s *Store) ensureLogHeader() error {
	if s.wal.end != 0 {
		return nil
	}
	if err := s.wal.writeHeader(); err != nil {
		return err
	}
	s.publishShared(true)
	return nil
}

// restartWait bounds how long a write transaction waits, at its start,
// for the readers of older snapshots to finish so that the log (grown past
// CheckpointFrames) can restart, while none of them finishes. Readers
// never wait for writers; this wait is what keeps the log bounded when
// read transactions always overlap: no commit is in flight meanwhile, so
// the older snapshots' readers end and new ones take the newest.
const restartWait = 200 * time.Millisecond

// checkpointBeforeWrite runs at the start of a write transaction, holding
// the writer token, when the log has grown past CheckpointFrames. It waits
// for the readers of older snapshots (see waitOldReaders), then
// checkpoints; if one stays (a long read transaction), it does not wait
// again before the log grows by another CheckpointFrames. A checkpoint
// failure is counted and retried, as after a commit.
func (s *Store) checkpointBeforeWrite(ctx context.Context) {
	frames := s.AutoCheckpoint()
	if frames <= 0 || s.walFrameCount() < frames || s.wal.end < s.restartWaitAt {
		return
	}
	if !s.waitOldReaders(ctx, min(restartWait, s.busyTimeout(ctx)), s.busyTimeout(ctx)) {
		s.restartWaitAt = s.wal.end + int64(frames)*frameSize(s.ps)
	}
	if s.sh != nil {
		s.waitForeignReaders(ctx, min(restartWait, s.busyTimeout(ctx)), s.busyTimeout(ctx))
	}
	restarts := s.st.logRestarts.Load()
	if _, _, err := s.checkpoint(false); err != nil {
		s.st.checkpointErrors.Add(1)
	}
	if s.sh != nil && s.st.logRestarts.Load() == restarts {
		// Other processes' readers kept the log: wait again only once it
		// has grown by another CheckpointFrames.
		s.restartWaitAt = s.wal.end + int64(frames)*frameSize(s.ps)
	}
}

// waitOldReaders waits until every open reader is on the newest commit
// and reports whether that happened. It gives up when no reader of an
// older snapshot has finished for idle, when limit has passed, or when
// ctx ends: a machine too loaded to run the readers for a while still
// sees them finish one by one, while a long read transaction stops the
// wait after idle.
func (s *Store) waitOldReaders(ctx context.Context, idle, limit time.Duration) bool {
	left, pins := s.oldCounts()
	if left == 0 {
		return true
	}
	if left <= pins {
		return false // no one to wait for but clones, which may live long
	}
	return waitProgress(ctx, idle, limit, func() (bool, int64) {
		n := s.oldReaders()
		return n == 0, -n
	})
}

// waitProgress polls look until it reports done, giving up (false) when
// its progress value has not risen for idle, when limit has passed, or
// when ctx ends.
func waitProgress(ctx context.Context, idle, limit time.Duration, look func() (done bool, progress int64)) bool {
	done, best := look()
	if done {
		return true
	}
	if idle <= 0 || limit <= 0 {
		return false
	}
	now := time.Now()
	end, progress := now.Add(limit), now
	pause := 50 * time.Microsecond
	for {
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			done, _ := look()
			return done
		case <-t.C:
		}
		done, p := look()
		if done {
			return true
		}
		now = time.Now()
		if p > best {
			best, progress = p, now
		}
		if now.After(end) || now.Sub(progress) > idle {
			return false
		}
		pause = min(2*pause, 2*time.Millisecond)
	}
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
