package storage

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"testing"

	"github.com/ladybugsql/ladybug/vfs"
)

// TestStore_CorruptFile_NeverPanics damages random bytes of a database
// file, re-seals the page checksum (so structural checks, not just the
// checksum, must catch it), and runs reads, writes and the integrity check:
// each returns normally or with an error, never panics.
func TestStore_CorruptFile_NeverPanics(t *testing.T) {
	base := vfs.NewMemFS()
	s := openT(t, base, Options{PageSize: 1024})
	tx := mustWrite(t, s)
	a, _ := tx.CreateTree()
	for i := 0; i < 1500; i++ {
		v := []byte(fmt.Sprintf("value %d", i))
		if i%100 == 0 {
			v = bytes.Repeat(v, 300)
		}
		tx.Tree(a).Put(key(i), v)
		if i%150 == 0 { // big keys too
			tx.Tree(a).Put(append(key(i), bytes.Repeat([]byte("K"), 400+i)...), v[:5])
		}
	}
	tx.Commit()
	s.Close()
	orig := readAll(t, base, "/db")
	r := rand.New(rand.NewPCG(42, 1))
	iters := 300
	if raceEnabled {
		iters = 60
	}
	for it := 0; it < iters; it++ {
		img := append([]byte(nil), orig...)
		pages := len(img) / 1024
		p := r.IntN(pages)
		for range 1 + r.IntN(4) {
			img[p*1024+r.IntN(1020)] ^= byte(1 + r.IntN(255))
		}
		sealPage(img[p*1024:(p+1)*1024], uint32(p))
		fsys := vfs.NewMemFS()
		f, _ := fsys.Create("/db")
		f.WriteAt(img, 0)
		f.Close()
		func() {
			defer func() {
				if rec := recover(); rec != nil {
					t.Fatalf("iteration %d (page %d): panic: %v\n%s", it, p, rec, debug.Stack())
				}
			}()
			exerciseDamaged(fsys, a)
		}()
	}
}

// exerciseDamaged runs every kind of operation, ignoring errors.
func exerciseDamaged(fsys vfs.FS, root uint32) {
	s, err := Open("/db", Options{FS: fsys})
	if err != nil {
		return
	}
	defer s.Close()
	s.IntegrityCheck()
	if rt, err := s.BeginRead(); err == nil {
		tr := rt.Tree(root)
		c := tr.Cursor()
		for ok := c.First(); ok; ok = c.Next() {
			c.Value()
		}
		for ok := c.Last(); ok; ok = c.Prev() {
		}
		c.Close()
		for i := 0; i < 1500; i += 7 {
			tr.Get(key(i))
		}
		tr.Count()
		rt.Rollback()
	}
	tx, err := s.BeginWrite(context.Background())
	if err != nil {
		return
	}
	tr := tx.Tree(root)
	for i := 0; i < 1500; i += 3 {
		if _, err := tr.Delete(key(i)); err != nil {
			break
		}
		if err := tr.Put(key(i+1), bytes.Repeat([]byte{7}, i%900)); err != nil {
			break
		}
	}
	tx.DropTree(root)
	tx.Commit()
	s.Vacuum(context.Background())
}

func readAll(t *testing.T, fsys vfs.FS, name string) []byte {
	t.Helper()
	f, err := fsys.Open(name, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	size, _ := f.Size()
	buf := make([]byte, size)
	f.ReadAt(buf, 0)
	return buf
}
