package vfs

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"
)

func allFS(t *testing.T) map[string]struct {
	fs  FS
	dir string
} {
	return map[string]struct {
		fs  FS
		dir string
	}{
		"os":    {OS(), t.TempDir()},
		"mem":   {NewMemFS(), "/m"},
		"cow":   {NewCowFS(), "/w"},
		"crash": {NewCrashFS(), "/c"},
		"fault": {NewFaultFS(NewMemFS()), "/f"},
	}
}

func TestFS_ReadWrite_RoundTrip(t *testing.T) {
	for name, c := range allFS(t) {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(c.dir, "a")
			if _, err := c.fs.Open(p, false); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("open missing: %v", err)
			}
			f, err := c.fs.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteAt([]byte("hello"), 10); err != nil {
				t.Fatal(err)
			}
			if sz, _ := f.Size(); sz != 15 {
				t.Fatalf("size %d", sz)
			}
			buf := make([]byte, 20)
			n, err := f.ReadAt(buf, 0)
			if n != 15 || err != io.EOF || string(buf[10:15]) != "hello" || buf[0] != 0 {
				t.Fatalf("read %d %v %q", n, err, buf)
			}
			if err := f.Truncate(12); err != nil {
				t.Fatal(err)
			}
			if sz, _ := c.fs.Stat(p); sz != 12 {
				t.Fatalf("stat %d", sz)
			}
			if err := f.Sync(); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			if err := c.fs.Remove(p); err != nil {
				t.Fatal(err)
			}
			if _, err := c.fs.Stat(p); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("stat removed: %v", err)
			}
		})
	}
}

func TestFile_Lock_Conflicts(t *testing.T) {
	for name, c := range allFS(t) {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(c.dir, "l")
			a, _ := c.fs.Create(p)
			b, _ := c.fs.Open(p, false)
			if err := a.Lock(true); err != nil {
				t.Fatal(err)
			}
			if err := b.Lock(true); !errors.Is(err, ErrLocked) {
				t.Fatalf("second exclusive lock: %v", err)
			}
			if err := b.Lock(false); !errors.Is(err, ErrLocked) {
				t.Fatalf("shared under exclusive: %v", err)
			}
			a.Close()
			if err := b.Lock(true); err != nil {
				t.Fatalf("lock after close: %v", err)
			}
			b.Close()
		})
	}
}

func TestCrashFS_Crash_KeepsSyncedBytes(t *testing.T) {
	c := NewCrashFS()
	syncs := 0
	c.OnSync = func() { syncs++ }
	f, _ := c.Create("x")
	f.WriteAt([]byte("aaaa"), 0)
	f.Sync()
	f.WriteAt([]byte("bbbbbbbb"), 2)
	clone := c.CrashClone(3)
	c.Crash(0)
	buf := make([]byte, 16)
	n, _ := f.ReadAt(buf, 0)
	if string(buf[:n]) != "aaaa" {
		t.Fatalf("after crash %q", buf[:n])
	}
	g, _ := clone.Open("x", true)
	n, _ = g.ReadAt(buf, 0)
	if string(buf[:n]) != "aabbb" {
		t.Fatalf("torn clone %q", buf[:n])
	}
	if syncs != 1 {
		t.Fatalf("syncs %d", syncs)
	}
}

func TestFaultFS_Inject_FailsNthWriteAndSync(t *testing.T) {
	ffs := NewFaultFS(NewMemFS())
	f, _ := ffs.Create("x")
	ffs.Inject(Fault{Op: OpWrite, After: 1, Short: true})
	ffs.Inject(Fault{Op: OpSync, Err: ErrNoSpace})
	if _, err := f.WriteAt([]byte("ok"), 0); err != nil {
		t.Fatal(err)
	}
	n, err := f.WriteAt([]byte("abcd"), 2)
	if n != 2 || !errors.Is(err, io.ErrShortWrite) {
		t.Fatalf("short write %d %v", n, err)
	}
	if _, err := f.WriteAt([]byte("z"), 0); err != nil {
		t.Fatalf("non-sticky fault fired twice: %v", err)
	}
	if err := f.Sync(); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("sync: %v", err)
	}
	ffs.Inject(Fault{Op: OpWrite, Sticky: true, Err: ErrNoSpace})
	for i := 0; i < 3; i++ {
		if _, err := f.WriteAt([]byte("z"), 0); !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("sticky %d: %v", i, err)
		}
	}
	ffs.Clear()
	if _, err := f.WriteAt([]byte("z"), 0); err != nil {
		t.Fatal(err)
	}
	if ffs.Count(OpWrite) != 7 {
		t.Fatalf("count %d", ffs.Count(OpWrite))
	}
}

func TestOS_SyncDir_AfterCreate(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d")
	f, err := OS().Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	ds, ok := OS().(DirSyncer)
	if !ok {
		t.Fatal("OS file system does not sync directories")
	}
	if err := ds.SyncDir(p); err != nil {
		t.Fatal(err)
	}
}

// TestMemFS_Truncate_FreesRoom checks a memory file cut far below its size
// lets go of the room it had, as a disk file gives its blocks back.
func TestMemFS_Truncate_FreesRoom(t *testing.T) {
	m := NewMemFS()
	f, err := m.Create("/m/wal")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(make([]byte, 3*shrinkKeep), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("header"), 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(32); err != nil {
		t.Fatal(err)
	}
	data := f.(*memFile).n.data
	if cap(data) > 32+shrinkKeep {
		t.Fatalf("truncated file keeps %d bytes of room", cap(data))
	}
	buf := make([]byte, 6)
	if _, err := f.ReadAt(buf, 0); err != nil || string(buf) != "header" {
		t.Fatalf("read after truncate: %q %v", buf, err)
	}
	// A small cut keeps the array: no copy per truncate.
	if err := f.Truncate(30); err != nil {
		t.Fatal(err)
	}
	if &f.(*memFile).n.data[0] != &data[0] {
		t.Fatal("a small cut copied the file")
	}
}
