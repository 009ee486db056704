package pagecache

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// Config configures a Cache.
type Config struct {
	PageSize int // bytes per page, > 0
	Capacity int // pages kept before eviction starts, > 0
	// WriteBack writes dirty pages to their backing store. The cache calls
	// it (with its mutex held, pages sorted by key, each page once) before
	// a dirty page is evicted and from Flush/Evict. It must not call back
	// into the cache. Nil means dirty pages are never evicted.
	WriteBack func(pages []*Page) error
	// OnDrop, when set, is called (with the cache's mutex held) for each
	// page that leaves the cache: evicted, replaced, recycled or
	// invalidated. The owner uses it to forget references it keeps beside
	// the cache, so they never keep a dropped page's buffer alive. It must
	// not call back into the cache.
	OnDrop func(p *Page)
}

// Cache is a bounded LRU cache of pages. It is safe for concurrent use.
type Cache struct {
	pageSize  int
	writeBack func([]*Page) error
	onDrop    func(*Page)

	pinnedN atomic.Int64 // pages with pins > 0 (cached or not)

	mu       sync.Mutex
	capacity int                        // guarded by mu
	lru      *simplelru.LRU[Key, *Page] // guarded by mu
	dirtyN   int                        // dirty pages held; guarded by mu
	st       Stats                      // counters; guarded by mu
	batch    []*Page                    // scratch for write-back; guarded by mu
	seen     map[Key]struct{}           // scratch for dedup; guarded by mu
	spare    [][]byte                   // recycled buffers for Create; guarded by mu
}

// maxSpare bounds the recycled buffers a cache keeps for reuse.
const maxSpare = 64

// New returns an empty cache.
func New(cfg Config) (*Cache, error) {
	if cfg.PageSize <= 0 || cfg.Capacity <= 0 {
		return nil, fmt.Errorf("%w: page size %d, capacity %d", ErrConfig, cfg.PageSize, cfg.Capacity)
	}
	// The LRU's own bound is disabled: pinned pages must survive, so the
	// cache decides what to evict itself.
	lru, err := simplelru.NewLRU[Key, *Page](math.MaxInt, nil)
	if err != nil {
		return nil, fmt.Errorf("pagecache: %w", err)
	}
	return &Cache{
		pageSize:  cfg.PageSize,
		writeBack: cfg.WriteBack,
		onDrop:    cfg.OnDrop,
		capacity:  cfg.Capacity,
		lru:       lru,
		seen:      map[Key]struct{}{},
	}, nil
}

// PageSize returns the size of every page's Data.
func (c *Cache) PageSize() int { return c.pageSize }

// Get returns the cached page for k, pinned, or nil when it is not cached.
func (c *Cache) Get(k Key) *Page {
	c.mu.Lock()
	p, ok := c.lru.Get(k)
	if ok {
		p.Pin()
		c.st.Hits++
	} else {
		c.st.Misses++
	}
	c.mu.Unlock()
	return p
}

// Fetch returns the page for k, pinned, calling load to fill a new buffer
// when it is not cached. load runs without the cache's mutex, so slow reads
// do not block other pages; two goroutines missing the same key at once may
// both load it, and the first to finish wins (a Key names immutable
// contents, so both loads agree).
func (c *Cache) Fetch(k Key, load func(buf []byte) error) (*Page, error) {
	if p := c.Get(k); p != nil {
		return p, nil
	}
	buf := make([]byte, c.pageSize)
	if err := load(buf); err != nil {
		return nil, err
	}
	return c.Add(k, buf)
}

// Add inserts a page the caller has just read, pinned, and counts a read.
// When k is already cached the existing page is returned instead. data must
// be PageSize bytes; the cache keeps it. An error means making room failed
// (a dirty page could not be written back); nothing was inserted.
func (c *Cache) Add(k Key, data []byte) (*Page, error) {
	if len(data) != c.pageSize {
		return nil, fmt.Errorf("%w: page of %d bytes, want %d", ErrConfig, len(data), c.pageSize)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.lru.Get(k); ok {
		p.Pin()
		return p, nil
	}
	if err := c.makeRoom(); err != nil {
		return nil, err
	}
	c.st.Reads++
	return c.insert(k, data), nil
}

// Create inserts a new zeroed page for k, pinned and clean, replacing an
// unpinned cached copy (a dirty one is discarded). It returns ErrPinned when
// k is cached and pinned.
func (c *Cache) Create(k Key) (*Page, error) { return c.create(k, nil) }

// CreateCopy is Create with the page's contents copied from src (PageSize
// bytes): the copy-on-write of a page version, without zeroing a buffer
// that is overwritten at once.
func (c *Cache) CreateCopy(k Key, src []byte) (*Page, error) {
	if len(src) != c.pageSize {
		return nil, fmt.Errorf("%w: page of %d bytes, want %d", ErrConfig, len(src), c.pageSize)
	}
	return c.create(k, src)
}

func (c *Cache) create(k Key, src []byte) (*Page, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.lru.Peek(k); ok {
		if old.pins.Load() > 0 {
			return nil, fmt.Errorf("%w: %v", ErrPinned, k)
		}
		c.drop(old)
	}
	if err := c.makeRoom(); err != nil {
		return nil, err
	}
	var buf []byte
	if n := len(c.spare); n > 0 {
		buf = c.spare[n-1]
		c.spare[n-1] = nil
		c.spare = c.spare[:n-1]
		if src == nil {
			clear(buf)
		}
	} else {
		buf = make([]byte, c.pageSize)
	}
	copy(buf, src)
	return c.insert(k, buf), nil
}

// Recycle drops p from the cache (if it is still cached) and keeps its
// buffer for a later Create or CreateCopy, which overwrite it. The caller
// guarantees that nobody reads p.Data again: no reader can reach the
// version p holds, and no slice of it was handed out. p.Data is set to nil,
// so a reference the caller overlooked fails loudly instead of reading
// another page. A pinned page is left alone; Recycle reports whether it
// took the buffer.
func (c *Cache) Recycle(p *Page) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p.pins.Load() > 0 || p.Data == nil {
		return false
	}
	if cur, ok := c.lru.Peek(p.key); ok && cur == p {
		c.drop(p)
	}
	p.gone = true
	if len(c.spare) < maxSpare {
		c.spare = append(c.spare, p.Data)
	}
	p.Data = nil
	c.st.Recycled++
	return true
}

func (c *Cache) insert(k Key, data []byte) *Page {
	p := &Page{key: k, Data: data, pinned: &c.pinnedN}
	p.Pin()
	c.lru.Add(k, p)
	return p
}

// Unpin releases one pin. It never takes the cache's lock.
func (c *Cache) Unpin(p *Page) {
	switch n := p.pins.Add(-1); {
	case n == 0:
		c.pinnedN.Add(-1)
	case n < 0:
		p.pins.Add(1) // an unbalanced Unpin must not wedge eviction
	}
}

// MarkDirty marks p as modified; it will be written back before eviction.
func (c *Cache) MarkDirty(p *Page) {
	c.mu.Lock()
	if !p.dirty && !p.gone {
		p.dirty = true
		c.dirtyN++
	}
	c.mu.Unlock()
}

// MarkClean marks pages as written by their owner (without WriteBack).
func (c *Cache) MarkClean(pages []*Page) {
	c.mu.Lock()
	for _, p := range pages {
		c.clean(p)
	}
	c.mu.Unlock()
}

// IsDirty reports whether p is marked dirty.
func (c *Cache) IsDirty(p *Page) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return p.dirty
}

func (c *Cache) clean(p *Page) {
	if p.dirty {
		p.dirty = false
		if !p.gone {
			c.dirtyN--
		}
	}
}

// drop removes p from the cache. Caller holds mu.
func (c *Cache) drop(p *Page) {
	c.lru.Remove(p.key)
	if p.dirty {
		c.dirtyN--
	}
	p.gone = true
	if c.onDrop != nil {
		c.onDrop(p)
	}
}

// makeRoom evicts least recently used unpinned pages until there is room
// for one more, writing dirty ones back first. Pinned pages met on the way
// are moved to the front (they are in use). Caller holds mu.
func (c *Cache) makeRoom() error {
	for tries := c.lru.Len(); c.lru.Len() >= c.capacity && tries > 0; tries-- {
		k, p, _ := c.lru.GetOldest()
		if p.pins.Load() > 0 {
			c.lru.Get(k)
			continue
		}
		if p.dirty {
			if c.writeBack == nil {
				c.lru.Get(k)
				continue
			}
			if err := c.write([]*Page{p}); err != nil {
				return err
			}
		}
		c.drop(p)
		c.st.Evictions++
	}
	return nil
}

// write writes pages back and marks them clean. Caller holds mu.
func (c *Cache) write(pages []*Page) error {
	if err := c.writeBack(pages); err != nil {
		return fmt.Errorf("pagecache: write back %d pages: %w", len(pages), err)
	}
	for _, p := range pages {
		c.clean(p)
	}
	c.st.Writes += uint64(len(pages))
	return nil
}

// distinct returns the cached pages for keys, each once, sorted by key.
// Caller holds mu; the result aliases c.batch.
func (c *Cache) distinct(keys []Key) []*Page {
	clear(c.seen)
	out := c.batch[:0]
	for _, k := range keys {
		if _, dup := c.seen[k]; dup {
			continue
		}
		c.seen[k] = struct{}{}
		if p, ok := c.lru.Peek(k); ok {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *Page) int { return a.key.Compare(b.key) })
	c.batch = out
	return out
}

// Flush writes back the dirty pages among keys in one WriteBack call, each
// distinct page once, and marks them clean. Pinned pages are flushed too.
func (c *Cache) Flush(keys []Key) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.flush(c.distinct(keys))
}

func (c *Cache) flush(pages []*Page) error {
	dirty := pages[:0:0]
	for _, p := range pages {
		if p.dirty {
			dirty = append(dirty, p)
		}
	}
	if len(dirty) == 0 {
		return nil
	}
	if c.writeBack == nil {
		return fmt.Errorf("%w: dirty pages but no WriteBack", ErrConfig)
	}
	return c.write(dirty)
}

// FlushAll writes back every dirty page.
func (c *Cache) FlushAll() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.flush(c.lru.Values())
}

// Evict writes back the dirty pages among keys (one WriteBack call), then
// drops every unpinned one of them, each distinct page once. Pinned pages
// stay. It returns how many pages were dropped.
func (c *Cache) Evict(keys []Key) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	pages := c.distinct(keys)
	var unpinned []*Page
	for _, p := range pages {
		if p.pins.Load() == 0 {
			unpinned = append(unpinned, p)
		}
	}
	if err := c.flush(unpinned); err != nil {
		return 0, err
	}
	for _, p := range unpinned {
		c.drop(p)
	}
	c.st.Evictions += uint64(len(unpinned))
	return len(unpinned), nil
}

// Invalidate drops the pages among keys without writing them back, each
// distinct page once, pinned or not (a holder keeps its reference, which is
// simply no longer cached). It returns how many pages were dropped.
func (c *Cache) Invalidate(keys []Key) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	pages := c.distinct(keys)
	for _, p := range pages {
		c.drop(p)
	}
	c.st.Invalidations += uint64(len(pages))
	return len(pages)
}

// InvalidateFunc drops every cached page whose key satisfies match, without
// writing it back. It returns how many pages were dropped.
func (c *Cache) InvalidateFunc(match func(Key) bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, k := range c.lru.Keys() {
		if match(k) {
			p, _ := c.lru.Peek(k)
			c.drop(p)
			n++
		}
	}
	c.st.Invalidations += uint64(n)
	return n
}

// Resize changes the capacity, evicting down to it where it can.
func (c *Cache) Resize(capacity int) error {
	if capacity <= 0 {
		return fmt.Errorf("%w: capacity %d", ErrConfig, capacity)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.capacity = capacity + 1 // makeRoom leaves room for one more
	err := c.makeRoom()
	c.capacity = capacity
	return err
}

// Len returns the number of cached pages.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// Stats returns the counters and current occupancy.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.st
	st.Pages = c.lru.Len()
	st.Dirty = c.dirtyN
	st.Capacity = c.capacity
	st.Pinned = int(c.pinnedN.Load())
	return st
}

// ResetStats zeroes the counters.
func (c *Cache) ResetStats() {
	c.mu.Lock()
	c.st = Stats{}
	c.mu.Unlock()
}

// RangeKeys appends to dst the keys (with version ver) of every page that
// the byte range [off, off+n) overlaps: a range crossing a page boundary
// yields both pages. An empty range yields none.
func RangeKeys(dst []Key, off, n int64, pageSize int, ver uint64) []Key {
	if n <= 0 || off < 0 || pageSize <= 0 {
		return dst
	}
	first := off / int64(pageSize)
	last := (off + n - 1) / int64(pageSize)
	for pg := first; pg <= last && pg <= math.MaxUint32; pg++ {
		dst = append(dst, Key{Page: uint32(pg), Ver: ver})
	}
	return dst
}

// Promote makes each of pages, cached pages the caller owns and holds
// pinned (a writer's private versions), version ver of its page in place
// of what the cache held under that key, clean, and releases the caller's
// pin: committed versions taking the place of the ones they supersede, in
// one lock for the batch. Nobody may read a superseded version again.
// Where one is cached and unpinned, its Page and LRU entry take over the
// new contents (no entry is allocated), its own buffer going to Create's
// spares unless exposed, and pages[i] is set to it; otherwise the page
// moves to the new key. A page no longer cached keeps its old key.
func (c *Cache) Promote(pages []*Page, ver uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, p := range pages {
		c.clean(p)
		to := Key{Page: p.key.Page, Ver: ver}
		if p.gone || p.key == to {
			c.Unpin(p)
			continue
		}
		old, ok := c.lru.Get(to)
		switch {
		case ok && old.pins.Load() == 0 && !old.dirty && old.Data != nil:
			if !old.Exposed() && len(c.spare) < maxSpare {
				c.spare = append(c.spare, old.Data)
				c.st.Recycled++
			}
			old.Data = p.Data
			old.exposed.Store(p.Exposed())
			c.lru.Remove(p.key)
			p.gone = true
			pages[i] = old
		default:
			if ok {
				c.drop(old)
			}
			c.lru.Remove(p.key)
			p.key = to
			c.lru.Add(to, p)
		}
		c.Unpin(p)
	}
}

// Rekey moves cached pages from keys from[i] to to[i] (each distinct source
// once), replacing whatever to[i] held. The owner uses it when a page
// version changes its name but not its contents, such as a log page copied
// into the main file. It returns how many pages moved.
func (c *Cache) Rekey(from, to []Key) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.seen)
	n := 0
	for i := range min(len(from), len(to)) {
		if _, dup := c.seen[from[i]]; dup || from[i] == to[i] {
			continue
		}
		c.seen[from[i]] = struct{}{}
		p, ok := c.lru.Peek(from[i])
		if !ok {
			continue
		}
		if old, ok := c.lru.Peek(to[i]); ok {
			c.drop(old)
		}
		c.lru.Remove(from[i])
		p.key = to[i]
		c.lru.Add(to[i], p)
		n++
	}
	return n
}
