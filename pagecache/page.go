package pagecache

import (
	"cmp"
	"sync/atomic"
)

// Key identifies one version of one page.
type Key struct {
	Page uint32
	Ver  uint64
}

// Compare orders keys by version, then page number.
func (k Key) Compare(o Key) int {
	if c := cmp.Compare(k.Ver, o.Ver); c != 0 {
		return c
	}
	return cmp.Compare(k.Page, o.Page)
}

// Page is a cached page. Data has exactly the cache's page size.
type Page struct {
	key    Key
	Data   []byte
	pins   atomic.Int32
	pinned *atomic.Int64 // the cache's count of pinned pages
	dirty  bool          // guarded by the cache's mu
	gone   bool          // no longer in the cache (evicted or invalidated); guarded by mu
	// exposed: the owner handed out a slice of Data that may outlive its
	// use (see Expose); such a buffer must never be recycled.
	exposed atomic.Bool
}

// Expose records that a slice of the page's Data may be kept by someone
// the owner does not track, so the buffer must never be recycled. It is
// cheap to call again: only the first call writes.
func (p *Page) Expose() {
	if !p.exposed.Load() {
		p.exposed.Store(true)
	}
}

// Exposed reports whether Expose was called.
func (p *Page) Exposed() bool { return p.exposed.Load() }

// Key returns the page's key.
func (p *Page) Key() Key { return p.key }

// Pin adds a pin to a page the caller already holds pinned (for example to
// hand a second reference to another owner). Each Pin needs its own Unpin.
func (p *Page) Pin() {
	if p.pins.Add(1) == 1 {
		p.pinned.Add(1)
	}
}

// Pins returns the current pin count.
func (p *Page) Pins() int { return int(p.pins.Load()) }

// DataOrNil returns p.Data, or nil for a nil page.
func (p *Page) DataOrNil() []byte {
	if p == nil {
		return nil
	}
	return p.Data
}
