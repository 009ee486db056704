package pagecache

import (
	"bytes"
	"errors"
	"testing"
)

func TestCache_Recycle_BufferReusedByCreate(t *testing.T) {
	c, _ := newCache(t, 8)
	p, err := c.Create(k(1))
	if err != nil {
		t.Fatal(err)
	}
	copy(p.Data, "stale bytes")
	buf := p.Data
	c.Unpin(p)
	if !c.Recycle(p) {
		t.Fatal("Recycle refused an unpinned page")
	}
	if p.Data != nil || c.Len() != 0 {
		t.Fatalf("recycled page still has data or is cached: %v, %d pages", p.Data != nil, c.Len())
	}
	if c.Get(k(1)) != nil {
		t.Fatal("recycled page still found")
	}
	q, err := c.Create(k(2))
	if err != nil {
		t.Fatal(err)
	}
	if &q.Data[0] != &buf[0] {
		t.Fatal("Create did not reuse the recycled buffer")
	}
	if !bytes.Equal(q.Data, make([]byte, 64)) {
		t.Fatalf("Create returned a dirty recycled buffer: %q", q.Data)
	}
	if st := c.Stats(); st.Recycled != 1 {
		t.Fatalf("Recycled = %d", st.Recycled)
	}
}

func TestCache_CreateCopy_CopiesIntoRecycledBuffer(t *testing.T) {
	c, _ := newCache(t, 8)
	p, _ := c.Create(k(1))
	c.Unpin(p)
	c.Recycle(p)
	src := bytes.Repeat([]byte{7}, 64)
	q, err := c.CreateCopy(Key{Page: 1, Ver: 2}, src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(q.Data, src) || q.Pins() != 1 {
		t.Fatalf("CreateCopy: data %v, pins %d", q.Data, q.Pins())
	}
	if _, err := c.CreateCopy(k(3), src[:10]); !errors.Is(err, ErrConfig) {
		t.Fatalf("short source: %v", err)
	}
	if _, err := c.CreateCopy(Key{Page: 1, Ver: 2}, src); !errors.Is(err, ErrPinned) {
		t.Fatalf("pinned key: %v", err)
	}
}

func TestCache_Recycle_PinnedPageKept(t *testing.T) {
	c, _ := newCache(t, 8)
	p, _ := c.Create(k(1))
	if c.Recycle(p) {
		t.Fatal("Recycle took a pinned page")
	}
	if p.Data == nil || c.Get(k(1)) == nil {
		t.Fatal("pinned page lost")
	}
}

func TestPage_Expose_Sticky(t *testing.T) {
	c, _ := newCache(t, 8)
	p, _ := c.Create(k(1))
	if p.Exposed() {
		t.Fatal("new page exposed")
	}
	p.Expose()
	p.Expose()
	if !p.Exposed() {
		t.Fatal("Expose did not stick")
	}
}
