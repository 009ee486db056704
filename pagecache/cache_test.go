package pagecache

import (
	"errors"
	"sync"
	"testing"
)

type backing struct {
	mu      sync.Mutex
	written map[Key]int
	calls   int
	fail    error
}

func (b *backing) writeBack(pages []*Page) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fail != nil {
		return b.fail
	}
	b.calls++
	for _, p := range pages {
		b.written[p.Key()]++
	}
	return nil
}

func newCache(t *testing.T, capacity int) (*Cache, *backing) {
	t.Helper()
	b := &backing{written: map[Key]int{}}
	c, err := New(Config{PageSize: 64, Capacity: capacity, WriteBack: b.writeBack})
	if err != nil {
		t.Fatal(err)
	}
	return c, b
}

func k(n uint32) Key { return Key{Page: n} }

func TestCache_Fetch_HitsAndMisses(t *testing.T) {
	c, _ := newCache(t, 4)
	loads := 0
	load := func(buf []byte) error { loads++; buf[0] = 7; return nil }
	p, err := c.Fetch(k(1), load)
	if err != nil || p.Data[0] != 7 {
		t.Fatal(err)
	}
	c.Unpin(p)
	p, _ = c.Fetch(k(1), load)
	c.Unpin(p)
	st := c.Stats()
	if loads != 1 || st.Hits != 1 || st.Misses != 1 || st.Reads != 1 {
		t.Fatalf("loads %d stats %+v", loads, st)
	}
	if _, err := c.Fetch(k(2), func([]byte) error { return errors.New("boom") }); err == nil {
		t.Fatal("load error swallowed")
	}
}

func TestCache_Add_EvictsLRUButNeverPinned(t *testing.T) {
	c, _ := newCache(t, 3)
	pinned, _ := c.Create(k(0))
	for i := uint32(1); i < 10; i++ {
		p, err := c.Add(k(i), make([]byte, 64))
		if err != nil {
			t.Fatal(err)
		}
		c.Unpin(p)
	}
	if c.Len() != 3 {
		t.Fatalf("len %d", c.Len())
	}
	if p := c.Get(k(0)); p != pinned {
		t.Fatal("pinned page evicted")
	} else {
		c.Unpin(p)
	}
	if c.Get(k(1)) != nil {
		t.Fatal("oldest unpinned page kept")
	}
	if st := c.Stats(); st.Evictions != 7 || st.Pinned != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestCache_Add_AllPinnedGrowsPastCapacity(t *testing.T) {
	c, _ := newCache(t, 2)
	for i := uint32(0); i < 5; i++ {
		if _, err := c.Create(k(i)); err != nil {
			t.Fatal(err)
		}
	}
	if c.Len() != 5 {
		t.Fatalf("len %d", c.Len())
	}
}

func TestCache_Evict_WritesDirtyBackFirst(t *testing.T) {
	c, b := newCache(t, 2)
	p, _ := c.Create(k(1))
	c.MarkDirty(p)
	c.Unpin(p)
	for i := uint32(2); i < 5; i++ {
		q, _ := c.Add(k(i), make([]byte, 64))
		c.Unpin(q)
	}
	if b.written[k(1)] != 1 {
		t.Fatalf("dirty page not written back before eviction: %v", b.written)
	}
	if st := c.Stats(); st.Writes != 1 || st.Dirty != 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestCache_Evict_WriteBackErrorKeepsPage(t *testing.T) {
	c, b := newCache(t, 1)
	p, _ := c.Create(k(1))
	c.MarkDirty(p)
	c.Unpin(p)
	b.fail = errors.New("disk full")
	if _, err := c.Add(k(2), make([]byte, 64)); err == nil {
		t.Fatal("write-back error swallowed")
	}
	if q := c.Get(k(1)); q == nil || !c.IsDirty(q) {
		t.Fatal("dirty page lost after failed write-back")
	}
}

func TestCache_Flush_EachDistinctPageOnce(t *testing.T) {
	c, b := newCache(t, 100)
	var keys []Key
	for i := uint32(0); i < 10; i++ {
		p, _ := c.Create(k(i))
		c.MarkDirty(p)
		c.Unpin(p)
		for j := 0; j < 5; j++ { // one key per "row"
			keys = append(keys, k(i))
		}
	}
	if err := c.Flush(keys); err != nil {
		t.Fatal(err)
	}
	if b.calls != 1 || len(b.written) != 10 {
		t.Fatalf("calls %d written %v", b.calls, b.written)
	}
	for key, n := range b.written {
		if n != 1 {
			t.Fatalf("page %v written %d times", key, n)
		}
	}
	if err := c.Flush(keys); err != nil || b.calls != 1 {
		t.Fatalf("clean pages rewritten: %v calls %d", err, b.calls)
	}
}

func TestCache_Invalidate_RangeCrossingBoundaryCoversBothPages(t *testing.T) {
	c, b := newCache(t, 100)
	for i := uint32(0); i < 4; i++ {
		p, _ := c.Create(k(i))
		c.MarkDirty(p)
		c.Unpin(p)
	}
	keys := RangeKeys(nil, 60, 8, 64, 0) // bytes 60..67: pages 0 and 1
	keys = RangeKeys(keys, 62, 1, 64, 0) // page 0 again
	if len(keys) != 3 {
		t.Fatalf("keys %v", keys)
	}
	if n := c.Invalidate(keys); n != 2 {
		t.Fatalf("invalidated %d", n)
	}
	if c.Get(k(0)) != nil || c.Get(k(1)) != nil || len(b.written) != 0 {
		t.Fatal("invalidate kept or wrote pages")
	}
	if st := c.Stats(); st.Invalidations != 2 || st.Dirty != 2 {
		t.Fatalf("stats %+v", st)
	}
	n, err := c.Evict([]Key{k(2), k(3), k(3)})
	if err != nil || n != 2 || len(b.written) != 2 {
		t.Fatalf("evict %d %v %v", n, err, b.written)
	}
}

func TestCache_Versions_AreIndependent(t *testing.T) {
	c, _ := newCache(t, 10)
	a, _ := c.Create(Key{Page: 1, Ver: 1})
	a.Data[0] = 1
	bb, _ := c.Create(Key{Page: 1, Ver: 2})
	bb.Data[0] = 2
	if _, err := c.Create(Key{Page: 1, Ver: 1}); !errors.Is(err, ErrPinned) {
		t.Fatalf("create over pinned: %v", err)
	}
	c.Unpin(a)
	c.Unpin(bb)
	if p := c.Get(Key{Page: 1, Ver: 1}); p.Data[0] != 1 {
		t.Fatal("version 1 clobbered")
	}
}

func TestCache_Concurrent_Race(t *testing.T) {
	c, _ := newCache(t, 8)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				key := k(uint32((i * (g + 1)) % 20))
				p, err := c.Fetch(key, func(buf []byte) error { buf[0] = byte(key.Page); return nil })
				if err != nil {
					t.Error(err)
					return
				}
				if p.Data[0] != byte(key.Page) {
					t.Error("wrong page")
				}
				c.Unpin(p)
			}
		}(g)
	}
	wg.Wait()
	if st := c.Stats(); st.Pinned != 0 || st.Pages > 8 {
		t.Fatalf("stats %+v", st)
	}
}

func TestNew_InvalidConfig_Errors(t *testing.T) {
	if _, err := New(Config{PageSize: 0, Capacity: 1}); !errors.Is(err, ErrConfig) {
		t.Fatal(err)
	}
}

func BenchmarkCache_GetHit(b *testing.B) {
	c, _ := New(Config{PageSize: 4096, Capacity: 1024})
	for i := uint32(0); i < 1000; i++ {
		p, _ := c.Create(k(i))
		c.Unpin(p)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := c.Get(k(uint32(i % 1000)))
		c.Unpin(p)
	}
}

func TestCache_Rekey_MovesEachPageOnce(t *testing.T) {
	c, _ := newCache(t, 10)
	p, _ := c.Create(Key{Page: 1, Ver: 5})
	p.Data[0] = 9
	c.Unpin(p)
	stale, _ := c.Create(k(1))
	c.Unpin(stale)
	from := []Key{{Page: 1, Ver: 5}, {Page: 1, Ver: 5}, {Page: 2, Ver: 5}}
	to := []Key{k(1), k(1), k(2)}
	if n := c.Rekey(from, to); n != 1 {
		t.Fatalf("rekeyed %d", n)
	}
	got := c.Get(k(1))
	if got == nil || got.Data[0] != 9 || got.Key() != k(1) {
		t.Fatal("rekeyed page not found under its new key")
	}
	c.Unpin(got)
	if c.Get(Key{Page: 1, Ver: 5}) != nil || c.Len() != 1 {
		t.Fatalf("old key still cached (len %d)", c.Len())
	}
}

// Promote turns a writer's dirty page into the committed version: the
// Page cached under the new key takes over its contents (its own unexposed
// buffer recycled, nothing dropped), or, where that Page is pinned, is
// dropped (reported through OnDrop) and the page moves to the new key. The
// old key is left empty, the page clean, the caller's pin released.
func TestCache_Promote_ReplacesAndCleans(t *testing.T) {
	for _, pinned := range []bool{false, true} {
		var dropped []*Page
		c, err := New(Config{PageSize: 64, Capacity: 10, OnDrop: func(p *Page) { dropped = append(dropped, p) }})
		if err != nil {
			t.Fatal(err)
		}
		old, _ := c.Create(k(1))
		if !pinned {
			c.Unpin(old)
		}
		p, _ := c.Create(Key{Page: 1, Ver: 5})
		c.MarkDirty(p)
		p.Data[0] = 9
		pages := []*Page{p}
		c.Promote(pages, 0)
		st := c.Stats()
		if st.Dirty != 0 || c.IsDirty(pages[0]) || p.Pins() != 0 {
			t.Fatalf("pinned %v: dirty %d, pins %d after Promote", pinned, st.Dirty, p.Pins())
		}
		want := old
		if pinned {
			want = p
			if len(dropped) != 1 || dropped[0] != old {
				t.Fatalf("dropped %v, want the pinned replaced version", dropped)
			}
		} else if len(dropped) != 0 || st.Recycled != 1 {
			t.Fatalf("dropped %v, recycled %d: want the old Page reused and its buffer recycled", dropped, st.Recycled)
		}
		got := c.Get(k(1))
		if got != want || pages[0] != want || got.Key() != k(1) || got.Data[0] != 9 {
			t.Fatalf("pinned %v: the new contents are not cached under the new key", pinned)
		}
		c.Unpin(got)
		if c.Get(Key{Page: 1, Ver: 5}) != nil || c.Len() != 1 {
			t.Fatalf("the old key is still cached (len %d)", c.Len())
		}
	}
}

func TestCache_Resize_EvictsDownToCapacity(t *testing.T) {
	c, _ := newCache(t, 10)
	for i := uint32(0); i < 10; i++ {
		p, _ := c.Create(k(i))
		c.Unpin(p)
	}
	if err := c.Resize(4); err != nil {
		t.Fatal(err)
	}
	if c.Len() != 4 {
		t.Fatalf("len %d after resize", c.Len())
	}
	if n := c.InvalidateFunc(func(key Key) bool { return key.Page%2 == 0 }); n != 2 {
		t.Fatalf("invalidated %d", n)
	}
	if err := c.Resize(0); err == nil {
		t.Fatal("resize to 0 accepted")
	}
}

func TestCache_Unpin_Unbalanced_DoesNotWedge(t *testing.T) {
	c, _ := newCache(t, 1)
	p, _ := c.Create(k(1))
	c.Unpin(p)
	c.Unpin(p)
	if p.Pins() != 0 {
		t.Fatalf("pins %d", p.Pins())
	}
	q, _ := c.Add(k(2), make([]byte, 64))
	c.Unpin(q)
	if c.Get(k(1)) != nil {
		t.Fatal("page with unbalanced unpin was never evicted")
	}
}

// OnDrop reports every page that leaves the cache (eviction, replacement,
// recycling, invalidation), once, and no page that stays or is only renamed.
func TestCache_OnDrop_ReportsEveryPageThatLeaves(t *testing.T) {
	var dropped []Key
	c, err := New(Config{PageSize: 64, Capacity: 2, OnDrop: func(p *Page) { dropped = append(dropped, p.Key()) }})
	if err != nil {
		t.Fatal(err)
	}
	add := func(n uint32) *Page {
		p, err := c.Add(k(n), make([]byte, 64))
		if err != nil {
			t.Fatal(err)
		}
		c.Unpin(p)
		return p
	}
	add(1)
	add(2)
	add(3)                                          // evicts 1
	p2, err := c.CreateCopy(k(2), make([]byte, 64)) // replaces 2
	if err != nil {
		t.Fatal(err)
	}
	c.Unpin(p2)
	c.Rekey([]Key{k(3)}, []Key{k(4)}) // renamed, still cached
	if !c.Recycle(p2) {
		t.Fatal("recycle refused an unpinned page")
	}
	add(5)
	c.Invalidate([]Key{k(5), k(6)})
	want := []Key{k(1), k(2), k(2), k(5)}
	if len(dropped) != len(want) {
		t.Fatalf("dropped %v, want %v", dropped, want)
	}
	for i := range want {
		if dropped[i] != want[i] {
			t.Fatalf("dropped %v, want %v", dropped, want)
		}
	}
	if p := c.Get(k(4)); p == nil {
		t.Fatal("the renamed page left the cache")
	} else {
		c.Unpin(p)
	}
}
