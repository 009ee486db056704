package storage

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/ladybugsql/ladybug/vfs"
)

func TestStore_Vacuum_ShrinksAndKeepsData(t *testing.T) {
	fsys := vfs.NewMemFS()
	s := openT(t, fsys, Options{PageSize: 1024})
	tx := mustWrite(t, s)
	a, _ := tx.CreateTree()
	b, _ := tx.CreateTree()
	big := bytes.Repeat([]byte("ov"), 3000)
	for i := 0; i < 4000; i++ {
		tx.Tree(a).Put(key(i), []byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
		if i%200 == 0 {
			tx.Tree(b).Put(key(i), big)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx = mustWrite(t, s)
	for i := 0; i < 4000; i++ {
		if i%50 != 0 {
			tx.Tree(a).Delete(key(i))
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	before := s.PageCount()
	if err := s.Vacuum(context.Background()); err != nil {
		t.Fatal(err)
	}
	after := s.PageCount()
	if after >= before/2 || s.FreelistCount() > 2 {
		t.Fatalf("vacuum: %d -> %d pages, %d free", before, after, s.FreelistCount())
	}
	checkIntegrity(t, s)
	s.Close()
	if size, _ := fsys.Stat("/db"); size != int64(after)*1024 {
		t.Fatalf("file is %d bytes, want %d pages", size, after)
	}
	s = openT(t, fsys, Options{PageSize: 1024})
	defer s.Close()
	rt := mustRead(t, s)
	defer rt.Rollback()
	for i := 0; i < 4000; i++ {
		_, ok, err := rt.Tree(a).Get(key(i))
		if err != nil || ok != (i%50 == 0) {
			t.Fatalf("tree a key %d: %v %v", i, ok, err)
		}
		if i%200 == 0 {
			if v, _, _ := rt.Tree(b).Get(key(i)); !bytes.Equal(v, big) {
				t.Fatalf("tree b key %d lost its overflow value", i)
			}
		}
	}
	checkIntegrity(t, s)
}

// TestStore_Vacuum_ShrinksWhenNoPageMoves empties a tree whose root sits
// at the bottom of the file, so VACUUM moves nothing and changes only the
// header (page count, free list); the file must still shrink.
func TestStore_Vacuum_ShrinksWhenNoPageMoves(t *testing.T) {
	fsys := vfs.NewMemFS()
	s := openT(t, fsys, Options{PageSize: 1024})
	tx := mustWrite(t, s)
	a, _ := tx.CreateTree()
	for i := 0; i < 3000; i++ {
		tx.Tree(a).Put(key(i), bytes.Repeat([]byte("v"), 200))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx = mustWrite(t, s)
	for i := 0; i < 3000; i++ {
		tx.Tree(a).Delete(key(i))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	before := s.PageCount()
	if err := s.Vacuum(context.Background()); err != nil {
		t.Fatal(err)
	}
	if after := s.PageCount(); after > 4 || s.FreelistCount() != 0 {
		t.Fatalf("vacuum of an empty tree: %d -> %d pages, %d free", before, after, s.FreelistCount())
	}
	checkIntegrity(t, s)
	s.Close()
	s = openT(t, fsys, Options{PageSize: 1024})
	defer s.Close()
	if s.PageCount() > 4 {
		t.Fatalf("reopened with %d pages", s.PageCount())
	}
	checkIntegrity(t, s)
}

func TestTx_DropTree_FreesEverything(t *testing.T) {
	s := openT(t, nil, Options{PageSize: 1024})
	defer s.Close()
	tx := mustWrite(t, s)
	a, _ := tx.CreateTree()
	for i := 0; i < 2000; i++ {
		tx.Tree(a).Put(key(i), bytes.Repeat([]byte{1}, 30+i%1500))
	}
	tx.Commit()
	tx = mustWrite(t, s)
	if err := tx.DropTree(a); err != nil {
		t.Fatal(err)
	}
	if err := tx.DropTree(a); err == nil {
		t.Fatal("dropping a dropped tree succeeded")
	}
	tx.Commit()
	if s.FreelistCount()+2 != s.PageCount() {
		t.Fatalf("%d free of %d pages after dropping the only tree", s.FreelistCount(), s.PageCount())
	}
	checkIntegrity(t, s)
	tx = mustWrite(t, s)
	c, _ := tx.CreateTree()
	tx.Tree(c).Put([]byte("x"), []byte("y"))
	if err := tx.ClearTree(c); err != nil {
		t.Fatal(err)
	}
	if n, _ := tx.Tree(c).Count(); n != 0 {
		t.Fatalf("count after clear %d", n)
	}
	tx.Commit()
	checkIntegrity(t, s)
}

// countCtx is a context that is done after left polls of Err.
type countCtx struct {
	context.Context
	left int
}

func (c *countCtx) Err() error {
	if c.left <= 0 {
		return context.Canceled
	}
	c.left--
	return nil
}

// TestStore_Vacuum_PollsItsContext: VACUUM polls its context while it
// walks the trees and moves pages: stopped after every number of polls
// it fails with the context's error and leaves the file as it was; it
// polls at least 8 times over ~2,000 pages before it completes (before it
// polled never).
func TestStore_Vacuum_PollsItsContext(t *testing.T) {
	s := openT(t, vfs.NewMemFS(), Options{PageSize: 1024})
	defer s.Close()
	tx := mustWrite(t, s)
	a, _ := tx.CreateTree()
	for i := 0; i < 40000; i++ {
		tx.Tree(a).Put(key(i), []byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx = mustWrite(t, s)
	for i := 0; i < 20000; i++ {
		tx.Tree(a).Delete(key(i))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	before := s.PageCount()
	stops := 0
	for ; ; stops++ {
		err := s.Vacuum(&countCtx{Context: context.Background(), left: stops})
		if err == nil {
			break
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("after %d polls: %v", stops, err)
		}
		if s.PageCount() != before {
			t.Fatalf("a stopped VACUUM changed the page count: %d -> %d", before, s.PageCount())
		}
	}
	if stops < 8 {
		t.Fatalf("VACUUM polled its context %d times over %d pages", stops, before)
	}
	if s.PageCount() >= before {
		t.Fatalf("vacuum: %d -> %d pages", before, s.PageCount())
	}
	checkIntegrity(t, s)
	rt := mustRead(t, s)
	defer rt.Rollback()
	for i := 0; i < 40000; i += 97 {
		if _, ok, err := rt.Tree(a).Get(key(i)); err != nil || ok != (i >= 20000) {
			t.Fatalf("key %d: %v %v", i, ok, err)
		}
	}
}
