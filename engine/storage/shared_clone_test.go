//go:build linux || darwin

package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/vfs"
)

// A clone of a file database reads a snapshot of the file (the source
// Store's read transaction): while it lives, another process's commits
// and checkpoints must not overwrite the main-file pages it reads, nor
// restart the log under it. Once the source Store closes, the clone reads
// its own copy of the snapshot, and the other process checkpoints freely.
func TestShared_CloneSnapshotSurvivesOtherProcessCheckpoints(t *testing.T) {
	a, b, _ := openShared2(t, Options{CheckpointFrames: 20})
	defer a.Close()
	defer b.Close()
	root := newTreeT(t, a)
	const n = 200
	put := func(tag string) {
		t.Helper()
		for k := 1; k <= n; k += 20 {
			tx := mustWrite(t, a)
			for i := k; i < k+20; i++ {
				if err := tx.Tree(root).Put(key(i), []byte(kpValue(tag, i))); err != nil {
					t.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := func(tag string) func(int) string {
		return func(i int) string { return kpValue(tag, i) }
	}
	read := func(s *Store) map[int]string {
		t.Helper()
		tx := mustRead(t, s)
		defer tx.Rollback()
		m, err := kpValues(tx, root, n)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	full := func() CheckpointResult {
		t.Helper()
		r, err := a.Checkpoint(context.Background(), CheckpointFull)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	put("v1")
	if r := full(); r.Busy {
		t.Fatalf("checkpoint with no reader: %+v", r)
	}
	// Two clones of b's snapshot (v1, all in the main file); they read
	// nothing yet, so b caches none of the pages they will read.
	c1, err := b.Clone(context.Background(), vfs.NewCowFS(), "/c1", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	c2, err := b.Clone(context.Background(), vfs.NewCowFS(), "/c2", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	restarts := a.Stats().LogRestarts
	var rs []CheckpointResult
	for round := range 3 {
		tag := fmt.Sprint("v", round+2)
		put(tag)
		// b follows a's commits: its oldest snapshot (the clones') must
		// still bound a's checkpoint.
		kpExpect(t, "b", read(b), n, want(tag))
		rs = append(rs, full())
	}
	kpExpect(t, "clone 1", read(c1), n, want("v1"))
	for round, r := range rs {
		if !r.Busy {
			t.Fatalf("round %d: a full checkpoint finished the log under a clone's snapshot: %+v", round, r)
		}
	}
	if a.Stats().LogRestarts != restarts {
		t.Fatal("the log restarted under a clone's snapshot")
	}
	kpExpect(t, "b", read(b), n, want("v4"))
	// A clone's own commit stays its own.
	tx := mustWrite(t, c1)
	if err := tx.Tree(root).Put(key(kpNext), []byte("clone")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if m := read(a); m[kpNext] != "" {
		t.Fatal("a reads the clone's commit")
	}
	checkIntegrity(t, c1)
	// With b closed, the clones read their copy of the snapshot, and a's
	// checkpoints restart the log.
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	put("v5")
	if r := full(); r.Busy {
		t.Fatalf("checkpoint once the clones' source closed: %+v", r)
	}
	if a.Stats().LogRestarts == restarts {
		t.Fatal("the log never restarted once the clones' source closed")
	}
	put("v6")
	full()
	kpExpect(t, "clone 2", read(c2), n, want("v1"))
	if m := read(c1); m[kpNext] != "clone" {
		t.Fatal("clone 1 lost its commit")
	}
	checkIntegrity(t, c2)
	kpExpect(t, "a", read(a), n, want("v6"))
	checkIntegrity(t, a)
}

// The -shm file has a slot for each of shmSlots processes: one more open
// is refused with ErrBusy saying so, and gets in once a slot is free.
func TestShared_MoreProcessesThanSlotsIsBusy(t *testing.T) {
	a, b, path := openShared2(t, Options{CacheSize: 8 << 10})
	defer a.Close()
	root := newTreeT(t, a)
	putT(t, a, root, "k", "v")
	stores := []*Store{a, b}
	defer func() {
		for _, s := range stores[1:] {
			s.Close()
		}
	}()
	opts := Options{FS: vfs.OS(), CacheSize: 8 << 10}
	for len(stores) < shmSlots {
		s, err := Open(path, opts)
		if err != nil {
			t.Fatalf("open %d: %v", len(stores)+1, err)
		}
		stores = append(stores, s)
	}
	_, err := Open(path, opts)
	if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), fmt.Sprintf("%d processes have the database open", shmSlots)) {
		t.Fatalf("open %d: %v", shmSlots+1, err)
	}
	// The refused open left the others working.
	putT(t, stores[shmSlots-1], root, "k", "last")
	if got := readT(t, a, root, "k"); got != "last" {
		t.Fatalf("a reads %q", got)
	}
	if err := stores[1].Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, opts)
	if err != nil {
		t.Fatalf("open once a slot is free: %v", err)
	}
	stores[1] = s
	if got := readT(t, s, root, "k"); got != "last" {
		t.Fatalf("the new opener reads %q", got)
	}
	checkIntegrity(t, s)
}
