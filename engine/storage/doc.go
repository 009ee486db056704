// Package storage is ladybug's durable single-file paged store: B+trees of
// byte keys in fixed-size pages, committed through a write-ahead log, read
// through snapshots, cached by pagecache, with all I/O through vfs.
//
// # Model
//
// A Store is one database file (app.db) and its log (app.db-wal). Any
// number of read transactions (BeginRead) each see one committed version;
// one write transaction at a time (BeginWrite waits up to BusyTimeout for
// the writer lock, then fails with ErrBusy) sees the newest commit plus its
// own writes. A write transaction copies each page it changes into a
// private dirty page (cached under its own version, pinned); Commit appends
// their after-images and a commit record to the log, fsyncs per SyncMode,
// then publishes the new version. Readers never wait for the writer: a
// page version is named by (page number, commit sequence number), and a
// reader of snapshot S reads, for each page, the newest version with
// sequence <= S (the log's in-memory index), or the main file's.
//
// A transaction larger than its dirty-page budget (half the cache) spills:
// its dirty pages go to the log as frames with no commit record, invisible
// to everyone until (and unless) the commit record lands, and are re-read
// from there. Memory stays bounded by the cache, whatever the transaction
// size. A commit writes each page it changed once, plus the header: cost
// follows the change, not the database size.
//
// A checkpoint copies into the main file, for each page, the newest logged
// version at or before the oldest open reader's snapshot (readers keep
// running: every one of them reads such a page from the log until the
// index forgets the copied versions, and from then on the main file holds
// what it would have read), and writes that snapshot's header. When no
// reader needs any logged version, the log restarts from its beginning
// and the file is cut to JournalSizeLimit. A checkpoint runs after a
// commit once the log holds CheckpointFrames frames, at the start of a
// write transaction once it holds that many, after waiting for the
// readers of older snapshots while they keep finishing (so read
// transactions that always overlap still let the log restart), at Close
// (which then empties the log file) and at Open after replay. The log is
// durable before the main file is touched and restarted or cut only after
// the main file is synced. An in-memory database (Options.Memory: files no
// other process reads and no crash survives) needs the log only for the
// snapshots of open readers: a commit made while no reader is open and the
// log is empty writes its pages straight into the main file (direct.go),
// and readers beginning meanwhile wait for it. A long read transaction
// still holds the log's restart back, so the log grows while one stays
// open: close read transactions promptly.
//
// Opening replays the log's complete commits, in order, and ignores
// everything from the first frame that does not verify (a torn or stale
// tail: wrong salt, broken checksum chain, unexpected sequence number, or
// no commit record). A page whose own checksum fails when read is reported
// as ErrCorrupt, never returned.
//
// Open writes to an existing file only when it is ladybug's: an empty file
// is initialized as a new database (not in read-only mode: ErrNotADB); a
// file without the header magic is refused with ErrNotADB and not touched
// (unless its first 8 bytes are zeros and the log holds a header, a torn
// header write); a file whose header fails is ErrCorrupt, unless it is
// provably the remains of a creation that crashed before its sync (the
// magic, no log, and every byte either the one creation writes at that
// offset for some page size, or zero), which is initialized again.
//
// # File format (all integers big-endian)
//
// Pages are PageSize bytes (a power of two, 512..32768, default 4096),
// numbered from 0; page p is at byte offset p*PageSize of the main file.
// The last 4 bytes of every page are its checksum: CRC-32C (Castagnoli) of
// the preceding PageSize-4 bytes, XORed with p*0x9e3779b1 (a bijection of
// the page number), so a valid page written at another position, or a log
// frame applied to the wrong page, fails as damage does (format version 2;
// version 1 files, whose checksums lack the page number, are refused with
// ErrCorrupt naming their version).
//
// Page 0, the header (its sequence number is that of the newest commit it
// was written for; see the WAL below):
//
//	0   8  magic "LADYBUG\x00"
//	8   4  format version (2)
//	12  4  page size
//	16  8  commit sequence number of this version
//	24  4  page count (pages 0..count-1 exist)
//	28  4  first free-list trunk page (0 = none)
//	32  4  free pages, trunks included
//	36  4  root of the tree registry
//	64 128 16 meta slots of 8 bytes (engine-defined; slot 0 the catalog root)
//
// Every other page starts with a type byte:
//
//	2 branch, 3 leaf    B+tree node (below)
//	4 overflow          4..8 next page (0 = last), 8.. value bytes
//	5 free-list trunk   4..8 next trunk, 8..12 count n, 12.. n page numbers
//
// A free page listed in a trunk keeps stale bytes; it is rewritten whole
// when reused.
//
// B+tree node (slotted page):
//
//	0   1  type      1 unused
//	2   2  cell count n
//	4   2  offset of the lowest cell byte (cells fill downwards from the trailer)
//	6   2  fragmented free bytes among the cells
//	8   4  branch: rightmost child; leaf: 0
//	12  4  unused
//	16  2n slot array: cell offsets in key order
//
// Leaf cell: uvarint key length, uvarint w, key, then either the value
// (w = length<<1) or, for a value stored in an overflow chain, the chain's
// first page as 4 bytes (w = length<<1 | 1). A cell larger than a quarter
// of the page moves its value to overflow pages. A big key, longer than
// MaxKeySize (1003 bytes at 4096), keeps only its first MaxKeySize/2 bytes
// in the cell; the rest of the key leads the overflow chain, before the
// value, and the leaf's header byte 1 has bit 0 set so searches compare
// full keys where the prefix does not decide. Branch cell: 4-byte child,
// uvarint key length, key (at most MaxKeySize: a separator is the right
// page's first key, or for a big key its shortest prefix above the left
// page's last key); the child holds keys below the key (and at or above the
// previous cell's key), the rightmost child the rest. Keys are ordered by
// bytes.Compare, up to 16 MiB long.
// A tree's root page never changes: a root split moves the root's contents
// to a new child, a root left with one child absorbs it. Page 1 is the tree
// registry, a tree whose keys are the keycodec.RowidKey of every tree root.
//
// WAL file:
//
//	header (32 bytes): 0 magic "LBWAL001", 8 format version, 12 page
//	size, 16 salt (random, new at every restart), 20 8 unused, 28 CRC-32C
//	of bytes 0..28
//	frames (24 + PageSize bytes each): 0 page number, 4 flags (1 = commit
//	record), 8 commit sequence number, 16 salt, 20 checksum, 24 page image
//
// A frame's checksum is CRC-32C over its first 20 bytes and its page image,
// seeded with the previous frame's checksum (the header's for the first),
// so a frame verifies only after every frame before it. A commit's frames
// carry its sequence number, consecutive through the log; the first commit
// is at most the main file's plus one (it may be older when a checkpoint
// crashed after updating the main file: replaying is then harmless). The
// last frame of a commit, the commit record, has flag 1. A commit includes
// page 0 only when the header changed (page count, free list, meta) or when
// it is the first commit of the log generation, so a one-row update is one
// frame; the newest header is the last logged page 0 with the sequence
// number of the last commit, and a checkpoint writes it from memory. Frames a rolled-back transaction spilled stay in the
// file past the log's end, are overwritten by the next writer, and are
// never followed by a valid commit record of theirs.
//
// # Many processes
//
// On Linux and macOS several processes open one file at once (shared.go,
// readonly.go): they share the log's committed end, salt and generation,
// the writer lock, and each process's oldest open snapshot through the
// NAME-shm file they all map, with byte-range locks the kernel releases
// when a process dies. A transaction starting in one process first reads
// the commits others appended (or, after another process restarted the
// log, rereads the header and the log); checkpoints copy only what no
// process's reader needs, and a log restart waits briefly for the other
// processes' open readers. Read-only opens write no file at all and hold
// a lock byte of the main file while they read. docs/ARCHITECTURE.md has
// the lock table, the protocol and the recovery cases.
//
// # Invariants and caveats
//
//   - One Store per file per process (the engine shares it). Other
//     processes open the same file at the same time: see "Many
//     processes" below (Linux and macOS; on Windows a second process
//     gets ErrBusy).
//   - Cached page versions are immutable, and a buffer is only reused
//     (pagecache Recycle) for a version that a commit superseded, that no
//     open snapshot can read and that was never exposed: read by a reader,
//     by a cursor or by a Get that found its key (only the writer's own
//     descents and its copy-on-write touched it). So values returned by
//     Get stay readable; they are only guaranteed to hold their contents
//     until the next write in the transaction. A one-row commit therefore
//     reuses the buffer of the leaf version it replaced instead of
//     allocating a page.
//   - A Cursor on a write transaction must Seek again after a write to its
//     own tree.
//   - Reads go through a lock-free table of recently read committed page
//     versions (hot.go), as large as the cache, before the page cache; a
//     page the cache drops leaves it too, and it is cleared at every
//     checkpoint, when main-file versions change meaning.
//   - A write transaction's failure mid-edit (I/O error, full disk,
//     damaged page) poisons it: every later call returns ErrTxFailed and
//     only Rollback is left. Page checksums and structure are verified on
//     every read from a file; a panic that a damaged page could still cause
//     is turned into ErrCorrupt at the API boundary.
//   - Under SyncNormal a power loss may drop the last commits but never
//     corrupts; SyncOff gives no guarantee on power loss.
package storage
