package pagecache

// Stats are the cache's counters since New (or ResetStats) and its current
// occupancy.
type Stats struct {
	Reads         uint64 // pages loaded into the cache (Fetch misses and Add)
	Writes        uint64 // dirty pages written back
	Hits          uint64 // Get/Fetch lookups that found the page
	Misses        uint64 // Get/Fetch lookups that did not
	Evictions     uint64 // pages dropped to stay within capacity or by Evict
	Invalidations uint64 // pages dropped by Invalidate
	Recycled      uint64 // page buffers taken back by Recycle

	Pages    int // pages held now
	Pinned   int // pinned pages (including pinned pages already dropped from the cache)
	Dirty    int // of those, dirty
	Capacity int // configured capacity in pages
}
