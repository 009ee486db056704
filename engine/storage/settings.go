package storage

import (
	"context"
	"fmt"
	"time"
)

// The settings a running store changes: what PRAGMA synchronous,
// cache_size, busy_timeout and wal_checkpoint act on.

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

// CheckpointResult is what PRAGMA wal_checkpoint reports: busy is set
// when a reader still needed old versions so the log could not be
// emptied; LogFrames is the log's size in frames before, Checkpointed
// the frames copied to the main file.
type CheckpointResult struct {
	Busy         bool
	LogFrames    int
	Checkpointed int
}

// Checkpoint copies the log into the main file now, taking the writer
// lock (waiting as a writer does). With a reader still on an older
// version it does nothing and reports Busy, as SQLite's PASSIVE mode
// does for the frames such a reader needs.
func (s *Store) Checkpoint(ctx context.Context) (CheckpointResult, error) {
	if s.readOnly {
		return CheckpointResult{}, ErrReadOnly
	}
	if err := s.lockWriter(ctx); err != nil {
		return CheckpointResult{}, err
	}
	defer func() { <-s.writer }()
	s.walMu.RLock()
	frames := s.wal.frames
	s.walMu.RUnlock()
	if !s.noOldReaders() {
		return CheckpointResult{Busy: true, LogFrames: frames}, nil
	}
	if err := s.checkpoint(false); err != nil {
		return CheckpointResult{}, fmt.Errorf("storage: checkpoint: %w", err)
	}
	return CheckpointResult{LogFrames: frames, Checkpointed: frames}, nil
}
