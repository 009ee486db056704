package storage

import (
	"context"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/vfs"
)

// The hot-page table keeps no page the cache dropped: after reads of many
// more pages than the cache holds (every one passing through the table),
// each page still in the table is the one the cache holds for its key. A
// table that kept dropped pages would keep their buffers alive beside a
// full cache.
func TestHotTable_HoldsOnlyCachedPages(t *testing.T) {
	s := openT(t, nil, Options{PageSize: 512, CacheSize: 16 * 512})
	defer s.Close()
	root := newTreeT(t, s)
	long := strings.Repeat("v", 200) // two rows per 512-byte leaf
	tx := mustWrite(t, s)
	for i := range 400 {
		if err := tx.Tree(root).Put(key(i), []byte(long)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		rt := mustRead(t, s)
		for i := range 400 {
			if v, ok, err := rt.Tree(root).Get(key(i)); err != nil || !ok || string(v) != long {
				t.Fatalf("key %d: %v %v", i, ok, err)
			}
		}
		rt.Rollback()
	}
	held := 0
	for i := range s.hot.slots {
		pg := s.hot.slots[i].Load()
		if pg == nil {
			continue
		}
		held++
		cached := s.cache.Get(pg.Key())
		if cached != nil {
			s.cache.Unpin(cached)
		}
		if cached != pg {
			t.Fatalf("hot slot %d holds page %v, which the cache dropped", i, pg.Key())
		}
	}
	if held == 0 {
		t.Fatal("no page in the hot table after the reads")
	}
	if st := s.Stats().Cache; st.Evictions == 0 {
		t.Fatalf("the reads evicted nothing (%+v): the test did not exercise drops", st)
	}
}

// A checkpoint rewrites main-file pages: a clone's hot-page table (which
// the cache does not empty on drops) must not keep serving the version a
// page had in the main file before. The clone reads a row from its main
// file, rewrites it, checkpoints, and must read the new value.
func TestHotTable_CheckpointForgetsOldMainFilePages(t *testing.T) {
	s := openT(t, vfs.NewCowFS(), Options{})
	defer s.Close()
	root := newTreeT(t, s)
	tx := mustWrite(t, s)
	if err := tx.Tree(root).Put(key(1), []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	c, err := s.Clone(context.Background(), vfs.NewCowFS(), "/clone", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	get := func() string {
		rt := mustRead(t, c)
		defer rt.Rollback()
		v, ok, err := rt.Tree(root).Get(key(1))
		if err != nil || !ok {
			t.Fatalf("get: %v %v", ok, err)
		}
		return string(v)
	}
	if v := get(); v != "old" { // the main file's leaf, now in the hot table
		t.Fatalf("clone reads %q, want old", v)
	}
	tx = mustWrite(t, c)
	if err := tx.Tree(root).Put(key(1), []byte("new")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Checkpoint(context.Background(), CheckpointFull); err != nil {
		t.Fatal(err)
	}
	if !c.walIndexEmpty() {
		t.Fatal("the checkpoint left frames in the log: the test reads no main-file page")
	}
	if v := get(); v != "new" {
		t.Fatalf("after the checkpoint the clone reads %q, want new", v)
	}
}
