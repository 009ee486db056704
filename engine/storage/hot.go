package storage

import (
	"sync/atomic"

	"github.com/ladybugsql/ladybug/pagecache"
)

// hotTable is a direct-mapped table of recently read committed page
// versions in front of the page cache, read without any lock: a hit costs
// one atomic load instead of the cache's mutex and LRU bookkeeping.
//
// Invariants: it only holds committed versions, keyed like the cache, so
// an entry is either exactly right for its key or ignored. Main-file
// versions (Ver 0) change meaning at a checkpoint, which empties the slots
// of the pages it wrote to the main file and of the header (under walMu
// held exclusively, before walEmpty is set, while no reader of an older
// snapshot exists). A store's own table is emptied of each
// page the cache drops (the cache's OnDrop hook), so it keeps no buffer
// alive beyond the cache's and can be as large as the cache: a scan of a
// table that fits in the cache then finds every leaf here, lock-free. A
// table without that hook (newHotTable) stays at a quarter of the cache,
// bounding the extra memory it can keep alive.
type hotTable struct {
	slots []atomic.Pointer[pagecache.Page]
	mask  uint32
}

// newHotTable is a table of at most a quarter of cachePages (up to 4096)
// slots, for a cache that does not report drops.
func newHotTable(cachePages int) hotTable { return hotTableOf(cachePages/4, 4096) }

// newDroppingHotTable is a table of at most cachePages (up to 16384)
// slots, for a cache whose OnDrop calls forget.
func newDroppingHotTable(cachePages int) hotTable { return hotTableOf(cachePages, 16384) }

// hotTableOf is a table of the largest power of two of slots (at least 16)
// that is at most limit and at most most.
func hotTableOf(limit, most int) hotTable {
	n := 16
	for n*2 <= limit && n < most {
		n *= 2
	}
	return hotTable{slots: make([]atomic.Pointer[pagecache.Page], n), mask: uint32(n - 1)}
}

// forget empties p's slot if it holds p: the cache dropped it.
func (h *hotTable) forget(p *pagecache.Page) {
	h.slot(p.Key()).CompareAndSwap(p, nil)
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
