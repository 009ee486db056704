package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/vfs"
)

func TestStore_Commit_VisibleAfterReopen(t *testing.T) {
	fsys := vfs.NewMemFS()
	s := openT(t, fsys, Options{})
	tx := mustWrite(t, s)
	root, err := tx.CreateTree()
	if err != nil {
		t.Fatal(err)
	}
	tr := tx.Tree(root)
	for i := 0; i < 5000; i++ {
		if err := tr.Put(key(i), []byte("value")); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.SetMeta(0, uint64(root)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	checkIntegrity(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openT(t, fsys, Options{})
	defer s.Close()
	rt := mustRead(t, s)
	defer rt.Rollback()
	if rt.Meta(0) != uint64(root) {
		t.Fatalf("meta %d", rt.Meta(0))
	}
	tr = rt.Tree(root)
	for i := 0; i < 5000; i++ {
		v, ok, err := tr.Get(key(i))
		if err != nil || !ok || string(v) != "value" {
			t.Fatalf("get %d: %q %v %v", i, v, ok, err)
		}
	}
	if n, _ := tr.Count(); n != 5000 {
		t.Fatalf("count %d", n)
	}
	checkIntegrity(t, s)
}

func TestTx_Rollback_DiscardsWrites(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	tx.Tree(root).Put([]byte("a"), []byte("1"))
	tx.Commit()
	tx = mustWrite(t, s)
	tx.Tree(root).Put([]byte("b"), []byte("2"))
	tx.Tree(root).Delete([]byte("a"))
	tx.Rollback()
	tx.Rollback()
	rt := mustRead(t, s)
	defer rt.Rollback()
	if _, ok, _ := rt.Tree(root).Get([]byte("b")); ok {
		t.Fatal("rolled-back insert visible")
	}
	if _, ok, _ := rt.Tree(root).Get([]byte("a")); !ok {
		t.Fatal("rolled-back delete applied")
	}
}

func TestTx_Snapshot_ReaderSeesOldVersion(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	tx.Tree(root).Put([]byte("a"), []byte("old"))
	tx.Commit()
	rt := mustRead(t, s)
	tx = mustWrite(t, s)
	tx.Tree(root).Put([]byte("a"), []byte("new"))
	if v, _, _ := rt.Tree(root).Get([]byte("a")); string(v) != "old" {
		t.Fatalf("reader sees uncommitted %q", v)
	}
	tx.Commit()
	if v, _, _ := rt.Tree(root).Get([]byte("a")); string(v) != "old" {
		t.Fatalf("reader sees later commit %q", v)
	}
	rt.Rollback()
	rt = mustRead(t, s)
	defer rt.Rollback()
	if v, _, _ := rt.Tree(root).Get([]byte("a")); string(v) != "new" {
		t.Fatalf("new reader sees %q", v)
	}
}

func TestStore_BeginWrite_BusyTimeout(t *testing.T) {
	s := openT(t, nil, Options{BusyTimeout: 20 * time.Millisecond})
	defer s.Close()
	tx := mustWrite(t, s)
	start := time.Now()
	if _, err := s.BeginWrite(context.Background()); !errors.Is(err, ErrBusy) {
		t.Fatalf("second writer: %v", err)
	}
	if time.Since(start) < 15*time.Millisecond {
		t.Fatal("did not wait for busy timeout")
	}
	tx.Rollback()
	tx2 := mustWrite(t, s)
	tx2.Rollback()
}

func TestStore_Open_SecondHandleIsBusy(t *testing.T) {
	fsys := vfs.NewMemFS()
	s := openT(t, fsys, Options{})
	defer s.Close()
	if _, err := Open("/db", Options{FS: fsys}); !errors.Is(err, ErrBusy) {
		t.Fatalf("second open: %v", err)
	}
}

func TestTree_Put_OverflowValues(t *testing.T) {
	fsys := vfs.NewMemFS()
	s := openT(t, fsys, Options{CacheSize: 16 * 4096})
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	big := bytes.Repeat([]byte("0123456789abcdef"), 3<<16) // 3 MiB
	tr := tx.Tree(root)
	if err := tr.Put([]byte("big"), big); err != nil {
		t.Fatal(err)
	}
	if err := tr.Put([]byte("mid"), big[:5000]); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	checkIntegrity(t, s)
	s.Close()
	s = openT(t, fsys, Options{CacheSize: 16 * 4096})
	defer s.Close()
	rt := mustRead(t, s)
	v, ok, err := rt.Tree(root).Get([]byte("big"))
	if err != nil || !ok || !bytes.Equal(v, big) {
		t.Fatalf("big value: %d bytes %v %v", len(v), ok, err)
	}
	rt.Rollback()
	tx = mustWrite(t, s)
	before := s.FreelistCount()
	if _, err := tx.Tree(root).Delete([]byte("big")); err != nil {
		t.Fatal(err)
	}
	tx.Commit()
	if s.FreelistCount() < before+700 {
		t.Fatalf("overflow pages not freed: %d -> %d", before, s.FreelistCount())
	}
	checkIntegrity(t, s)
}

func TestTree_Put_BigKeys(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	tr := tx.Tree(root)
	if err := tr.Put(make([]byte, maxBigKey+1), nil); !errors.Is(err, ErrKeyTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	big := func(i int) []byte {
		return append([]byte(fmt.Sprintf("%04d", i)), bytes.Repeat([]byte("k"), 5000+i)...)
	}
	for i := 0; i < 300; i++ {
		if err := tr.Put(big(i), []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	// Sharing more than MaxKeySize bytes makes keys inseparable.
	same := bytes.Repeat([]byte("s"), 3*s.MaxKeySize())
	var err error
	for i := 0; i < 50 && err == nil; i++ {
		err = tr.Put(append(append([]byte{}, same...), byte(i)), nil)
	}
	if !errors.Is(err, ErrKeyTooLarge) {
		t.Fatalf("inseparable keys: %v", err)
	}
	tx.Rollback()
	tx = mustWrite(t, s)
	root, _ = tx.CreateTree()
	tr = tx.Tree(root)
	for i := 0; i < 300; i++ {
		tr.Put(big(i), []byte(fmt.Sprint(i)))
	}
	tx.Commit()
	checkIntegrity(t, s)
	rt := mustRead(t, s)
	defer rt.Rollback()
	c := rt.Tree(root).Cursor()
	defer c.Close()
	i := 0
	for ok := c.First(); ok; ok = c.Next() {
		if !bytes.Equal(c.Key(), big(i)) {
			t.Fatalf("key %d: %d bytes", i, len(c.Key()))
		}
		i++
	}
	if i != 300 {
		t.Fatalf("scanned %d", i)
	}
	if v, ok, err := rt.Tree(root).Get(big(123)); err != nil || !ok || string(v) != "123" {
		t.Fatalf("get big key: %q %v %v", v, ok, err)
	}
	if !c.Seek(big(200)[:3000]) || !bytes.Equal(c.Key(), big(200)) {
		t.Fatal("seek by a prefix of a big key")
	}
}

func TestTx_ReadOnly_RejectsWrites(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	rt := mustRead(t, s)
	if _, err := rt.CreateTree(); !errors.Is(err, ErrReadOnly) {
		t.Fatal(err)
	}
	rt.Commit()
	if _, _, err := rt.Tree(1).Get(nil); !errors.Is(err, ErrTxClosed) {
		t.Fatal(err)
	}
}

func TestStore_Close_ThenBeginFails(t *testing.T) {
	s := openT(t, nil, Options{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.BeginWrite(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("begin write after close: %v", err)
	}
	if _, err := s.BeginRead(); !errors.Is(err, ErrClosed) {
		t.Fatalf("begin read after close: %v", err)
	}
	if err := s.Close(); !errors.Is(err, ErrClosed) {
		t.Fatalf("second close: %v", err)
	}
}

func TestStore_ReadOnly_ReadsWALAndRejectsWrites(t *testing.T) {
	fsys := vfs.NewMemFS()
	s := openT(t, fsys, Options{})
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	tx.Tree(root).Put([]byte("k"), []byte("v"))
	tx.Commit()
	s.Close()
	ro, err := Open("/db", Options{FS: fsys, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.BeginWrite(context.Background()); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("write on read-only store: %v", err)
	}
	rt := mustRead(t, ro)
	defer rt.Rollback()
	if v, ok, _ := rt.Tree(root).Get([]byte("k")); !ok || string(v) != "v" {
		t.Fatal("read-only store lost data")
	}
}

func TestCursor_WriteTx_SeesOwnWritesAndSurvivesOtherTrees(t *testing.T) {
	s := openT(t, nil, Options{PageSize: 1024, CacheSize: 8 * 1024})
	defer s.Close()
	tx := mustWrite(t, s)
	defer tx.Rollback()
	a, _ := tx.CreateTree()
	b, _ := tx.CreateTree()
	for i := 0; i < 500; i++ {
		tx.Tree(a).Put(key(i), []byte("a"))
	}
	c := tx.Tree(a).Cursor()
	defer c.Close()
	n := 0
	for ok := c.First(); ok; ok = c.Next() {
		// Writes to another tree (enough to spill) must not disturb c.
		tx.Tree(b).Put(key(n), bytes.Repeat([]byte("b"), 100))
		if string(c.Key()) != string(key(n)) {
			t.Fatalf("cursor at %q, want %q", c.Key(), key(n))
		}
		n++
	}
	if n != 500 || c.Err() != nil {
		t.Fatalf("scanned %d, err %v", n, c.Err())
	}
	if s.Stats().SpilledPages == 0 {
		t.Fatal("test did not spill")
	}
}

func TestStore_Stats_NoPinsLeakAfterWork(t *testing.T) {
	s := openT(t, nil, Options{PageSize: 1024, CacheSize: 16 * 1024})
	defer s.Close()
	tx := mustWrite(t, s)
	root, _ := tx.CreateTree()
	for i := 0; i < 2000; i++ {
		tx.Tree(root).Put(key(i), []byte("v"))
	}
	if s.Stats().Cache.Pinned == 0 {
		t.Fatal("a write transaction's dirty pages are not pinned")
	}
	tx.Commit()
	rt := mustRead(t, s)
	c := rt.Tree(root).Cursor()
	for ok := c.First(); ok; ok = c.Next() {
	}
	c.Close()
	rt.Tree(root).Get(key(5))
	rt.Rollback()
	tx = mustWrite(t, s)
	tx.Tree(root).Delete(key(1))
	tx.Rollback()
	if st := s.Stats(); st.Cache.Pinned != 0 {
		t.Fatalf("%d pages still pinned", st.Cache.Pinned)
	}
}

func TestCursor_OwnTreeWrittenWithoutSeek_NoPanic(t *testing.T) {
	s := openT(t, nil, Options{PageSize: 1024})
	defer s.Close()
	tx := mustWrite(t, s)
	defer tx.Rollback()
	root, _ := tx.CreateTree()
	tr := tx.Tree(root)
	for i := 0; i < 300; i++ {
		tr.Put(key(i), []byte("v"))
	}
	c := tr.Cursor()
	defer c.Close()
	c.Last()
	for i := 0; i < 300; i++ {
		tr.Delete(key(i))
	}
	// Misuse per the contract, but it must not panic.
	c.Key()
	c.Value()
	c.Next()
	c.Prev()
	if !c.Seek(nil) {
		_ = c.Err()
	}
}
