// Package vfs is the small file-system interface ladybug's storage does all
// its I/O through, with five implementations:
//
//   - OS: the operating system's files, with an advisory flock so two
//     processes cannot both open one database for writing.
//   - MemFS: files held in memory, in one byte slice each.
//   - CowFS: files held in memory as persistent trees of 4 KiB chunks, which
//     CloneFile shares in constant time and each side copies on its first
//     write; in-memory databases run the same storage code over it, which
//     is what makes cloning a database O(1).
//   - FaultFS: wraps another FS and fails chosen writes or syncs (an error,
//     a short write, ENOSPC) so tests can prove errors surface and nothing
//     is corrupted.
//   - CrashFS: an in-memory FS that remembers what was synced; Crash (or
//     CrashClone) throws away every byte written since the last Sync of its
//     file, optionally keeping a torn prefix of the last write.
//
// Invariants: a File's Size is the highest byte ever written or the size set
// by Truncate; reads past the end return io.EOF with the bytes that exist.
// All implementations are safe for concurrent use.
//
// Caveats: MemFS, CowFS and CrashFS treat creating and removing a name as durable
// at once (there is no directory fsync to simulate).
package vfs
