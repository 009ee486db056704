package storage

import (
	"context"
	"fmt"
	"time"
)

// The settings a running store changes: what PRAGMA synchronous,
// cache_size, busy_timeout and wal_checkpoint act on.

// storeSettings sets the changeable settings from s.opts (filled).
func (s *Store) storeSettings() {
	s.sync.Store(int32(s.opts.Sync))
	s.ckptFrames.Store(int64(s.opts.CheckpointFrames))
	s.walLimit.Store(s.opts.JournalSizeLimit)
}

// SetSync changes when commits are made durable, from the next commit
// on. It applies to the whole store (every connection), since one log
// carries every connection's commits.
func (s *Store) SetSync(m SyncMode) {
	if m < SyncFull || m > SyncOff {
		return
	}
	s.sync.Store(int32(m))
}

// Sync is the sync mode in force.
func (s *Store) Sync() SyncMode { return SyncMode(s.sync.Load()) }

// SetCacheSize bounds the page cache to bytes (at least minCachePages),
// evicting clean pages down to it where it can.
func (s *Store) SetCacheSize(bytes int64) error {
	pages := max(bytes/int64(s.ps), minCachePages)
	return s.cache.Resize(int(pages))
}

// CacheSize is the page cache's bound in bytes.
func (s *Store) CacheSize() int64 { return int64(s.cache.Stats().Capacity) * int64(s.ps) }

type busyKey struct{}

// WithBusyTimeout returns ctx carrying a writer-lock wait that replaces
// the store's BusyTimeout for the transactions begun with it (PRAGMA
// busy_timeout on one connection). Zero or negative: do not wait.
func WithBusyTimeout(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, busyKey{}, d)
}

// busyTimeout is the wait for ctx: its own, or the store's.
func (s *Store) busyTimeout(ctx context.Context) time.Duration {
	if d, ok := ctx.Value(busyKey{}).(time.Duration); ok {
		if d <= 0 {
			return -1
		}
		return d
	}
	return s.opts.BusyTimeout
}

// CheckpointMode is PRAGMA wal_checkpoint's argument.
type CheckpointMode int

// Checkpoint modes, as SQLite's.
const (
	// CheckpointPassive copies every version no open reader needs from
	// the log, without waiting for readers, and restarts the log when
	// none needs any of it.
	CheckpointPassive CheckpointMode = iota
	// CheckpointFull first waits (up to the busy timeout) for the readers
	// of older snapshots to finish, so that the whole log is copied.
	CheckpointFull
	// CheckpointRestart is CheckpointFull; a log copied whole always
	// restarts from its beginning.
	CheckpointRestart
	// CheckpointTruncate is CheckpointRestart, then cuts the log file to
	// zero bytes.
	CheckpointTruncate
)

// CheckpointResult is what PRAGMA wal_checkpoint reports, as SQLite
// does: Busy is set when a FULL, RESTART or TRUNCATE checkpoint could not
// copy the whole log (a reader kept an older snapshot past the busy
// timeout); LogFrames is the log's length in frames, Checkpointed how many
// of them are now in the main file (both 0 after a TRUNCATE that emptied
// the log).
type CheckpointResult struct {
	Busy         bool
	LogFrames    int
	Checkpointed int
}

// Checkpoint runs a checkpoint in mode now, taking the writer lock
// (waiting as a writer does).
func (s *Store) Checkpoint(ctx context.Context, mode CheckpointMode) (CheckpointResult, error) {
	if s.readOnly {
		return CheckpointResult{}, ErrReadOnly
	}
	if err := s.lockWriter(ctx); err != nil {
		return CheckpointResult{}, err
	}
	defer s.unlockWriter()
	if mode != CheckpointPassive {
		d := s.busyTimeout(ctx)
		s.waitOldReaders(ctx, d, d)
	}
	log := s.walFrameCount()
	if _, _, err := s.checkpoint(false); err != nil {
		return CheckpointResult{}, fmt.Errorf("storage: checkpoint: %w", err)
	}
	s.walMu.RLock()
	left := s.wal.frames
	s.walMu.RUnlock()
	r := CheckpointResult{LogFrames: log, Checkpointed: max(log-left, 0)}
	if left > 0 {
		r.Busy = mode != CheckpointPassive
		return r, nil
	}
	if mode == CheckpointTruncate {
		if err := s.truncateLog(); err != nil {
			return CheckpointResult{}, fmt.Errorf("storage: checkpoint: %w", err)
		}
		return CheckpointResult{}, nil
	}
	return r, nil
}

// AutoCheckpoint is the log length, in frames, past which commits
// checkpoint (PRAGMA wal_autocheckpoint); 0: never automatically.
func (s *Store) AutoCheckpoint() int { return int(s.ckptFrames.Load()) }

// SetAutoCheckpoint changes AutoCheckpoint; n <= 0 turns automatic
// checkpoints off (the log then grows until a PRAGMA wal_checkpoint or
// Close), as in SQLite.
func (s *Store) SetAutoCheckpoint(n int) { s.ckptFrames.Store(int64(max(n, 0))) }

// JournalSizeLimit is the size in bytes the log file is cut to when it
// restarts (PRAGMA journal_size_limit); negative: no limit.
func (s *Store) JournalSizeLimit() int64 { return s.walLimit.Load() }

// SetJournalSizeLimit changes JournalSizeLimit (any negative value: no
// limit).
func (s *Store) SetJournalSizeLimit(n int64) { s.walLimit.Store(max(n, -1)) }
