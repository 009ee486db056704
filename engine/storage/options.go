package storage

import (
	"time"

	"github.com/ladybugsql/ladybug/vfs"
)

// SyncMode says when commits reach stable storage.
type SyncMode int

// Sync modes.
const (
	// SyncFull fsyncs the WAL at every commit: a committed transaction
	// survives power loss. The default.
	SyncFull SyncMode = iota
	// SyncNormal fsyncs only at checkpoints: commits survive a process
	// crash, and the database stays consistent after a power loss, but the
	// last commits may be lost.
	SyncNormal
	// SyncOff never fsyncs.
	SyncOff
)

// Options configure Open.
type Options struct {
	FS          vfs.FS        // nil = the OS file system
	PageSize    int           // at creation; 0 = 4096; a power of two in [512, 32768]
	CacheSize   int64         // bytes; 0 = 32 MiB
	Sync        SyncMode      // default SyncFull
	ReadOnly    bool          // open for reading only
	Create      bool          // create the file if missing
	BusyTimeout time.Duration // writer-lock wait; 0 = 5 s; negative = do not wait

	// CheckpointFrames is the WAL size, in frames, past which a commit
	// checkpoints when no reader needs older versions. 0 = 4000 (16 MiB
	// of 4 KiB pages): a checkpoint costs two fsyncs, so under SyncNormal
	// this spreads them over about two thousand one-row commits.
	CheckpointFrames int

	// JournalSizeLimit is the size, in bytes, the log file is cut to when
	// it restarts after a checkpoint (PRAGMA journal_size_limit). 0 = the
	// size of CheckpointFrames frames; negative = never cut (the file keeps
	// its peak size, and new frames overwrite old ones in place).
	JournalSizeLimit int64

	// Memory says the files are memory that no other process reads and no
	// crash survives (an in-memory database over a vfs.CowFS): a commit
	// made while no reader is open and the log is empty writes its pages
	// straight into the main file instead of the log (see direct.go).
	Memory bool

	// clone: the store is a clone of a file database (cloneSnapshot),
	// often one of many short-lived ones: its hot-page table is small.
	clone bool

	// crashPoint, when set (by tests only), is called at named points of
	// the multi-process protocol where a process killed there leaves work
	// for the others to recover (see crashAt); the tests' child processes
	// kill themselves there.
	crashPoint func(point string)
}

const (
	defaultPageSize         = 4096
	minPageSize             = 512
	maxPageSize             = 32768
	defaultCacheSize        = 32 << 20
	defaultBusyTimeout      = 5 * time.Second
	defaultCheckpointFrames = 4000
	minCachePages           = 8
)

func (o *Options) fill() {
	if o.FS == nil {
		o.FS = vfs.OS()
	}
	if o.PageSize == 0 {
		o.PageSize = defaultPageSize
	}
	if o.CacheSize == 0 {
		o.CacheSize = defaultCacheSize
	}
	if o.BusyTimeout == 0 {
		o.BusyTimeout = defaultBusyTimeout
	}
	if o.CheckpointFrames <= 0 {
		o.CheckpointFrames = defaultCheckpointFrames
	}
	if o.JournalSizeLimit == 0 {
		o.JournalSizeLimit = walHeaderSize + int64(o.CheckpointFrames)*frameSize(o.PageSize)
	}
}

// MinPageSize and MaxPageSize bound the page size a store is created with
// (a power of two between them).
const (
	MinPageSize = minPageSize
	MaxPageSize = maxPageSize
)

func validPageSize(n int) bool {
	return n >= minPageSize && n <= maxPageSize && n&(n-1) == 0
}
