package storage

import (
	"sync/atomic"

	"github.com/ladybugsql/ladybug/pagecache"
)

// hotTable is a small direct-mapped table of recently read committed page
// versions in front of the page cache, read without any lock: a hit costs
// one atomic load instead of the cache's mutex and LRU bookkeeping.
//
// Invariants: it only holds committed versions, keyed like the cache, so
// an entry is either exactly right for its key or ignored. Main-file
// versions (Ver 0) change meaning at a checkpoint, which clears the table
// (under walMu held exclusively, before walEmpty is set, while no reader
// of an older snapshot exists). Its size is at most a quarter of the cache,
// bounding the extra memory it can keep alive.
type hotTable struct {
	slots []atomic.Pointer[pagecache.Page]
	mask  uint32
}

func newHotTable(cachePages int) hotTable {
	n := 16
	for n*2 <= cachePages/4 && n < 4096 {
		n *= 2
	}
	return hotTable{slots: make([]atomic.Pointer[pagecache.Page], n), mask: uint32(n - 1)}
}

func (h *hotTable) slot(k pagecache.Key) *atomic.Pointer[pagecache.Page] {
	i := (k.Page ^ uint32(k.Ver)*0x9e3779b1) & h.mask
	return &h.slots[i]
}

// clear empties the table.
func (h *hotTable) clear() {
	for i := range h.slots {
		h.slots[i].Store(nil)
	}
}
