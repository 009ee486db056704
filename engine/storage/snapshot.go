package storage

import "sync/atomic"

// snapshot is one commit as readers see it: its header, and how many read
// transactions are open on it. The Store publishes the newest in cur, so
// beginning and ending a read is two atomic adds and takes no lock.
//
// A reader registers by incrementing the count of the snapshot it loaded
// from cur and then checking that cur still holds it (else it undoes the
// increment and retries). A commit stores the new snapshot in cur under
// s.mu and keeps the one it replaced in s.old; checkpoints and buffer
// recycling, which ask whether a reader may still need an older version,
// look at s.old under s.mu. The atomics are sequentially consistent, so a
// reader whose increment such a check missed finds cur changed and retries
// on the new snapshot.
type snapshot struct {
	hdr     header
	readers atomic.Int64
	// pins counts the readers that are clones' snapshots (cloneSnapshot)
	// or backups': they end only when the clones close or the copy is
	// done, so no writer waits for them.
	pins atomic.Int64
}

// acquire registers a read transaction on the newest snapshot and returns
// it.
func (s *Store) acquire() *snapshot {
	for {
		sn := s.cur.Load()
		if sn == nil {
			// A commit is writing the main file in place (commitDirect,
			// holding s.mu until it publishes the new snapshot).
			s.mu.Lock()
			s.mu.Unlock()
			continue
		}
		sn.readers.Add(1)
		if s.cur.Load() == sn {
			return sn
		}
		sn.readers.Add(-1)
	}
}

// publishLocked makes h the newest snapshot; the caller holds s.mu.
// Snapshots no reader holds are dropped from s.old: a reader that still
// increments one finds it is no longer cur and lets it go.
func (s *Store) publishLocked(h header) {
	// The new snapshot goes into cur before the old ones' counts are read:
	// a reader that increments the replaced snapshot after the count below
	// was read then finds cur changed and retries. (Read first, a reader
	// could register on the replaced snapshot after its count was seen as
	// zero and before cur changed: dropped from s.old while still read,
	// so a checkpoint or a buffer recycle would change pages under it.)
	old := s.cur.Swap(&snapshot{hdr: h})
	if old != nil {
		s.old = append(s.old, old)
	}
	kept := s.old[:0]
	for _, sn := range s.old {
		if sn.readers.Load() > 0 {
			kept = append(kept, sn)
		}
	}
	clear(s.old[len(kept):])
	s.old = kept
	if s.sh != nil {
		m := h.seq
		for _, sn := range kept {
			m = min(m, sn.hdr.seq)
		}
		s.setSharedMin(m)
	}
}

// noOldReaders reports whether every open reader reads the newest commit.
func (s *Store) noOldReaders() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sn := range s.old {
		if sn.readers.Load() > 0 && sn.hdr.seq < s.hdr.seq {
			return false
		}
	}
	return true
}

// oldReaders counts the open readers of commits older than the newest.
func (s *Store) oldReaders() int64 {
	n, _ := s.oldCounts()
	return n
}

// oldCounts counts the open readers of commits older than the newest, and
// the clones' snapshots among them (see snapshot.pins).
func (s *Store) oldCounts() (readers, pins int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sn := range s.old {
		if sn.hdr.seq < s.hdr.seq {
			readers += max(sn.readers.Load(), 0)
			pins += sn.pins.Load()
		}
	}
	return readers, pins
}

// noReaderAtOrBefore reports whether every open reader's snapshot is
// newer than snap.
func (s *Store) noReaderAtOrBefore(snap uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sn := range s.old {
		if sn.readers.Load() > 0 && sn.hdr.seq <= snap {
			return false
		}
	}
	cur := s.cur.Load()
	return cur.readers.Load() == 0 || cur.hdr.seq > snap
}
