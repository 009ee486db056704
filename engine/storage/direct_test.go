package storage

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ladybugsql/ladybug/pagecache"
	"github.com/ladybugsql/ladybug/vfs"
)

// openMem opens a memory store (Options.Memory) at "/db" on fsys, creating
// it when missing.
func openMem(t *testing.T, fsys *vfs.CowFS) *Store {
	t.Helper()
	s, err := Open("/db", Options{FS: fsys, Create: true, Memory: true, CheckpointFrames: 256})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A memory store's commit with no reader open and an empty log writes the
// main file, not the log: the log stays without frames, the counter
// counts it, and the data reads back, also from the main file itself
// (after the cache is emptied) with intact checksums.
func TestDirect_CommitWithoutReaderSkipsTheLog(t *testing.T) {
	s := openMem(t, vfs.NewCowFS())
	defer s.Close()
	root := newTreeT(t, s)
	before := s.Stats()
	snap0 := s.newestHeader().seq
	for i := range 300 {
		putT(t, s, root, fmt.Sprint("k", i), fmt.Sprint("v", i))
	}
	if got := s.newestHeader().seq - snap0; got != 300 {
		t.Fatalf("300 commits advanced the commit number by %d", got)
	}
	st := s.Stats()
	if got := st.DirectCommits - before.DirectCommits; got != 300 {
		t.Fatalf("%d of 300 commits were direct", got)
	}
	if st.WALFrames != 0 || st.Checkpoints != before.Checkpoints {
		t.Fatalf("the log took frames (%d) or checkpointed (%d→%d)", st.WALFrames, before.Checkpoints, st.Checkpoints)
	}
	s.cache.InvalidateFunc(func(pagecache.Key) bool { return true })
	s.hot.clear()
	for i := range 300 {
		if got := readT(t, s, root, fmt.Sprint("k", i)); got != fmt.Sprint("v", i) {
			t.Fatalf("k%d reads %q from the main file", i, got)
		}
	}
	checkIntegrity(t, s)
}

// A file store never commits directly, whatever its file system.
func TestDirect_OnlyForMemoryStores(t *testing.T) {
	s := openT(t, vfs.NewCowFS(), Options{})
	defer s.Close()
	root := newTreeT(t, s)
	putT(t, s, root, "a", "1")
	if st := s.Stats(); st.DirectCommits != 0 || st.WALFrames == 0 {
		t.Fatalf("a store without Options.Memory committed directly: %+v", st)
	}
}

// While a reader is open, commits go to the log and the reader keeps its
// snapshot; once it ends and a checkpoint empties the log, commits are
// direct again.
func TestDirect_OpenReaderKeepsItsSnapshot(t *testing.T) {
	s := openMem(t, vfs.NewCowFS())
	defer s.Close()
	root := newTreeT(t, s)
	putT(t, s, root, "a", "old")
	rt := mustRead(t, s)
	d0 := s.Stats().DirectCommits
	putT(t, s, root, "a", "new")
	putT(t, s, root, "b", "new")
	if st := s.Stats(); st.DirectCommits != d0 || st.WALFrames == 0 {
		t.Fatalf("commits under an open reader were direct: %+v", st)
	}
	if got := getT(t, rt, root, "a"); got != "old" {
		t.Fatalf("the reader sees %q, want its snapshot's old", got)
	}
	if got := getT(t, rt, root, "b"); got != "<none>" {
		t.Fatalf("the reader sees b = %q, a later commit's", got)
	}
	rt.Rollback()
	if _, err := s.Checkpoint(context.Background(), CheckpointFull); err != nil {
		t.Fatal(err)
	}
	putT(t, s, root, "c", "new")
	if st := s.Stats(); st.DirectCommits != d0+1 {
		t.Fatalf("after the checkpoint the commit was not direct: %+v", st)
	}
	for _, k := range []string{"a", "b", "c"} {
		if got := readT(t, s, root, k); got != "new" {
			t.Fatalf("%s reads %q", k, got)
		}
	}
	checkIntegrity(t, s)
}

// Readers beginning while direct commits rewrite the main file each see
// one commit whole: every commit writes the same counter into two keys
// far apart (different leaves), and no reader may see them differ.
func TestDirect_ConcurrentReadersSeeWholeCommits(t *testing.T) {
	s := openMem(t, vfs.NewCowFS())
	defer s.Close()
	root := newTreeT(t, s)
	tx := mustWrite(t, s)
	for i := range 2000 { // many leaves between the two keys
		if err := tx.Tree(root).Put(key(i), []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	const commits = 400
	var done atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !done.Load() {
				rt, err := s.BeginRead()
				if err != nil {
					errs <- err
					return
				}
				a, _, err1 := rt.Tree(root).Get(key(0))
				b, _, err2 := rt.Tree(root).Get(key(1999))
				a, b = append([]byte(nil), a...), append([]byte(nil), b...)
				rt.Rollback()
				if err1 != nil || err2 != nil {
					errs <- fmt.Errorf("get: %v %v", err1, err2)
					return
				}
				if string(a) != string(b) && !(string(a) == "0" && string(b) == "1999") {
					errs <- fmt.Errorf("a reader saw half a commit: %q and %q", a, b)
					return
				}
			}
		}()
	}
	for i := range commits {
		tx := mustWrite(t, s)
		v := []byte(fmt.Sprint("c", i))
		if err := tx.Tree(root).Put(key(0), v); err != nil {
			t.Fatal(err)
		}
		if err := tx.Tree(root).Put(key(1999), v); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	done.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if st := s.Stats(); st.DirectCommits == 0 {
		t.Fatal("no commit was direct (readers were always open): the test checked nothing of the direct path")
	}
	checkIntegrity(t, s)
}

// Direct commits that change only the commit number leave the main file's
// header behind; a commit through the log (a reader is open) and Close
// bring it up to date, so the files reopen with every commit, and a clone
// taken meanwhile reads them all.
func TestDirect_MainHeaderFollowsForTheLogAndReopen(t *testing.T) {
	fsys := vfs.NewCowFS()
	s := openMem(t, fsys)
	root := newTreeT(t, s)
	putT(t, s, root, "a", "1") // may grow the page count: header written
	putT(t, s, root, "a", "2") // the same leaf: only the commit number
	if !s.mainStale {
		t.Fatal("a commit changing only the commit number rewrote the main file's header")
	}
	c, err := s.Clone(context.Background(), vfs.NewCowFS(), "/clone", Options{Memory: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := readT(t, c, root, "a"); got != "2" {
		t.Fatalf("the clone reads %q", got)
	}
	putT(t, c, root, "a", "clone")
	c.Close()
	putT(t, s, root, "a", "3")
	rt := mustRead(t, s)
	putT(t, s, root, "a", "4") // through the log: a reader is open
	rt.Rollback()
	if s.Stats().WALFrames == 0 {
		t.Fatal("the commit under a reader was not logged")
	}
	// Reopen the files as they are now (a second store over a clone of
	// them, as after a crash): the log must follow the main file's header.
	img := vfs.NewCowFS()
	for _, n := range []string{"/db", "/db-wal"} {
		if err := img.CloneFile(fsys, n, n); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Open("/db", Options{FS: img, Memory: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := readT(t, r, root, "a"); got != "4" {
		t.Fatalf("reopened files read %q, want 4", got)
	}
	checkIntegrity(t, r)
	r.Close()
	putT(t, s, root, "a", "5")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err = Open("/db", Options{FS: fsys, Memory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := readT(t, r, root, "a"); got != "5" {
		t.Fatalf("after Close the files read %q, want 5", got)
	}
}
