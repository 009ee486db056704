// Package pagecache is ladybug's bounded LRU cache of fixed-size pages.
//
// It is built on hashicorp/golang-lru/v2's non-locking simplelru, driven
// under the cache's own mutex: eviction writes dirty pages back while that
// mutex is held, so no other goroutine can pin or dirty a page half-way
// through its eviction (the locking LRU runs its eviction callback after
// releasing its lock, which would race).
//
// A page is identified by a Key: a page number and a version. The owner
// chooses what a version means; ladybug's storage uses the commit sequence
// number that wrote the page (0 for the main database file), so a reader of
// an older snapshot and a reader of the newest one can both have their page
// cached at once, and a cached version never changes.
//
// Invariants:
//   - A pinned page (pin count > 0) is never evicted. When every page is
//     pinned the cache grows past its capacity rather than fail.
//   - A dirty page is written back (Config.WriteBack) before it leaves the
//     cache by eviction; Invalidate is the only way to drop a dirty page
//     unwritten.
//   - Batch operations (Flush, Evict, Invalidate) handle each distinct page
//     once however often its key appears; RangeKeys turns a byte range into
//     the keys of every page it overlaps, both pages when it crosses a
//     boundary.
//   - Page buffers are never reused after eviction, so a slice of Data stays
//     readable (though no longer cached) for as long as a caller holds it.
//     The one exception is Recycle, which the owner calls only for a page
//     version nobody can read any more and whose Data it never handed out
//     (Page.Expose marks the pages it did hand out): Create and CreateCopy
//     then reuse the buffer instead of allocating one.
//
// Counters (Stats) count loads, write-backs, hits, misses, evictions and
// invalidations, so tests can assert how many pages an operation touched.
package pagecache
