package engine

import (
	"context"
	"runtime"
	"strings"
	"time"

	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/engine/types"
)

// connectPragma runs the pragmas ORMs and tutorials send when they
// connect; ok is false for any other pragma. What each does, and where
// it differs from SQLite, is the README's PRAGMA table.
func (s *Session) connectPragma(c *exec.Ctx, p *plan.Pragma) (out outcome, ok bool, err error) {
	switch p.Name {
	case "busy_timeout":
		return s.pragmaBusyTimeout(p), true, nil
	case "synchronous":
		return s.pragmaSynchronous(p), true, nil
	case "cache_size":
		out, err = s.pragmaCacheSize(p)
		return out, true, err
	case "journal_mode":
		// Always WAL: a request for another mode keeps it, and the answer
		// names the mode in force, as SQLite answers when it cannot switch.
		return oneValue(p.Name, types.NewText("wal")), true, nil
	case "temp_store":
		if n, valid := tempStoreValue(p.Arg); p.HasArg && valid {
			s.tempStore = n
		}
		return oneValue(p.Name, types.NewInt(s.tempStore)), true, nil
	case "mmap_size":
		// Pages are read through the page cache; nothing is mapped.
		return oneValue(p.Name, types.NewInt(0)), true, nil
	case "locking_mode":
		// Processes share the file through its -shm index and take the
		// writer lock per write transaction; on Windows one process holds
		// the file for as long as it has it open.
		mode := "normal"
		if runtime.GOOS == "windows" {
			mode = "exclusive"
		}
		return oneValue(p.Name, types.NewText(mode)), true, nil
	case "auto_vacuum":
		// NONE: freed pages go to the free list and are reused; VACUUM
		// shrinks the file.
		return oneValue(p.Name, types.NewInt(0)), true, nil
	case "incremental_vacuum":
		return outcome{}, true, nil
	case "wal_checkpoint":
		out, err = s.pragmaCheckpoint(c, p)
		return out, true, err
	case "wal_autocheckpoint":
		// One log carries every connection's commits: the setting is the
		// database's. N <= 0 turns automatic checkpoints off.
		if n, valid := pragmaInt(p.Arg); p.HasArg && valid {
			s.db.store.SetAutoCheckpoint(int(max(min(n, 1<<31-1), 0)))
		}
		return oneValue(p.Name, types.NewInt(int64(s.db.store.AutoCheckpoint()))), true, nil
	case "journal_size_limit":
		// The size the log file is cut to when it restarts; -1: no limit.
		if n, valid := pragmaInt(p.Arg); p.HasArg && valid {
			s.db.store.SetJournalSizeLimit(n)
		}
		return oneValue(p.Name, types.NewInt(s.db.store.JournalSizeLimit())), true, nil
	}
	return outcome{}, false, nil
}

// lockCtx is ctx carrying the session's busy_timeout, when it set one.
func (s *Session) lockCtx(ctx context.Context) context.Context {
	if !s.busySet {
		return ctx
	}
	return storage.WithBusyTimeout(ctx, s.busyTimeout)
}

func (s *Session) pragmaBusyTimeout(p *plan.Pragma) outcome {
	if n, valid := pragmaInt(p.Arg); p.HasArg && valid {
		s.busyTimeout, s.busySet = time.Duration(max(n, 0))*time.Millisecond, true
	}
	d := s.db.opts.BusyTimeout
	if s.busySet {
		d = s.busyTimeout
	} else if d == 0 {
		d = 5 * time.Second
	}
	return oneValue("timeout", types.NewInt(d.Milliseconds()))
}

// pragmaSynchronous sets or reads the database's sync mode: one log
// carries every connection's commits, so it applies to all of them.
// EXTRA is FULL (each commit is already fsynced whole).
func (s *Session) pragmaSynchronous(p *plan.Pragma) outcome {
	if p.HasArg {
		switch strings.ToLower(strings.TrimSpace(p.Arg)) {
		case "0", "off":
			s.db.store.SetSync(storage.SyncOff)
		case "1", "normal":
			s.db.store.SetSync(storage.SyncNormal)
		case "2", "full", "3", "extra":
			s.db.store.SetSync(storage.SyncFull)
		}
		return outcome{}
	}
	return oneValue(p.Name, types.NewInt([]int64{2, 1, 0}[s.db.store.Sync()]))
}

// pragmaCacheSize sets or reads the page cache bound: N > 0 pages, N < 0
// KiB, as in SQLite. ladybug has one cache per database, shared by its
// connections, so the bound is the database's.
func (s *Session) pragmaCacheSize(p *plan.Pragma) (outcome, error) {
	if n, valid := pragmaInt(p.Arg); p.HasArg && valid && n != 0 {
		bytes := n * 1024
		if n > 0 {
			bytes = n * int64(s.db.store.PageSize())
		} else {
			bytes = -bytes
		}
		return outcome{}, s.db.store.SetCacheSize(bytes)
	}
	return oneValue(p.Name, types.NewInt(-s.db.store.CacheSize()/1024)), nil
}

func tempStoreValue(arg string) (int64, bool) {
	switch strings.ToLower(strings.TrimSpace(arg)) {
	case "0", "default":
		return 0, true
	case "1", "file":
		return 1, true
	case "2", "memory":
		return 2, true
	}
	return 0, false
}

// pragmaCheckpoint runs a checkpoint now in SQLite's mode (PASSIVE, the
// default, copies what no reader needs; FULL and RESTART first wait up to
// busy_timeout for readers of older snapshots; TRUNCATE then also empties
// the log file) and answers SQLite's row: busy, log frames, checkpointed
// frames. Inside a transaction it cannot take the writer lock and answers
// busy.
func (s *Session) pragmaCheckpoint(c *exec.Ctx, p *plan.Pragma) (outcome, error) {
	cols := namedColumns("busy", "log", "checkpointed")
	if s.tx != nil || s.db.opts.ReadOnly {
		return outcome{rows: staticRows(cols, [][]types.Value{{types.NewInt(1), types.NewInt(-1), types.NewInt(-1)}})}, nil
	}
	mode := storage.CheckpointPassive
	switch strings.ToLower(strings.TrimSpace(p.Arg)) {
	case "full":
		mode = storage.CheckpointFull
	case "restart":
		mode = storage.CheckpointRestart
	case "truncate":
		mode = storage.CheckpointTruncate
	}
	r, err := s.db.store.Checkpoint(s.lockCtx(c.Go), mode)
	if err != nil {
		return outcome{}, err
	}
	busy := int64(0)
	if r.Busy {
		busy = 1
	}
	return outcome{rows: staticRows(cols, [][]types.Value{{types.NewInt(busy), types.NewInt(int64(r.LogFrames)), types.NewInt(int64(r.Checkpointed))}})}, nil
}
