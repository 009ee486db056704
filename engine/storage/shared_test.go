//go:build linux || darwin

package storage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/vfs"
)

// Two Stores on one file in one process use the same protocol as two
// processes: their locks are per open file (Linux open file description
// locks), and they share nothing but the files and the -shm mapping. The
// tests with real processes are in multiproc_test.go.

func openShared2(t *testing.T, opts Options) (a, b *Store, path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "db")
	opts.FS, opts.Create = vfs.OS(), true
	var err error
	if a, err = Open(path, opts); err != nil {
		t.Fatal(err)
	}
	if b, err = Open(path, opts); err != nil {
		a.Close()
		t.Fatal(err)
	}
	return a, b, path
}

func putT(t *testing.T, s *Store, root uint32, k, v string) {
	t.Helper()
	tx := mustWrite(t, s)
	if err := tx.Tree(root).Put([]byte(k), []byte(v)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func getT(t *testing.T, tx *Tx, root uint32, k string) string {
	t.Helper()
	v, ok, err := tx.Tree(root).Get([]byte(k))
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return "<none>"
	}
	return string(v)
}

func readT(t *testing.T, s *Store, root uint32, k string) string {
	t.Helper()
	tx := mustRead(t, s)
	defer tx.Rollback()
	return getT(t, tx, root, k)
}

func TestShared_CommitVisibleToTheOtherHandle(t *testing.T) {
	a, b, _ := openShared2(t, Options{})
	defer a.Close()
	defer b.Close()
	root := newTreeT(t, a)
	putT(t, a, root, "x", "from a")
	if got := readT(t, b, root, "x"); got != "from a" {
		t.Fatalf("b reads %q", got)
	}
	putT(t, b, root, "x", "from b")
	if got := readT(t, a, root, "x"); got != "from b" {
		t.Fatalf("a reads %q", got)
	}
	checkIntegrity(t, a)
	checkIntegrity(t, b)
}

func TestShared_SecondWriterWaitsThenErrBusy(t *testing.T) {
	a, b, _ := openShared2(t, Options{BusyTimeout: 30 * time.Millisecond})
	defer a.Close()
	defer b.Close()
	root := newTreeT(t, a)
	tx := mustWrite(t, a)
	start := time.Now()
	_, err := b.BeginWrite(context.Background())
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("second writer: %v", err)
	}
	if time.Since(start) < 25*time.Millisecond {
		t.Fatal("did not wait for the busy timeout")
	}
	// A reader of b is not blocked by a's writer.
	if got := readT(t, b, root, "x"); got != "<none>" {
		t.Fatalf("b reads %q", got)
	}
	if err := tx.Tree(root).Put([]byte("x"), []byte("1")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	putT(t, b, root, "x", "2")
	if got := readT(t, a, root, "x"); got != "2" {
		t.Fatalf("a reads %q", got)
	}
}

// A reader of one handle keeps its snapshot while the other commits and
// checkpoints; once it ends, the log restarts, and both handles read the
// newest values from the main file.
func TestShared_ReaderSnapshotSurvivesOtherCheckpoints(t *testing.T) {
	a, b, path := openShared2(t, Options{CheckpointFrames: 20})
	defer a.Close()
	defer b.Close()
	root := newTreeT(t, a)
	for i := range 50 {
		putT(t, a, root, fmt.Sprint(i), "v0")
	}
	rt := mustRead(t, b)
	for round := 1; round <= 5; round++ {
		for i := range 50 {
			putT(t, a, root, fmt.Sprint(i), fmt.Sprintf("v%d", round))
		}
	}
	for i := range 50 {
		if got := getT(t, rt, root, fmt.Sprint(i)); got != "v0" {
			t.Fatalf("old snapshot reads %d = %q", i, got)
		}
	}
	rt.Rollback()
	restarts := a.Stats().LogRestarts
	for i := range 50 {
		putT(t, a, root, fmt.Sprint(i), "last")
	}
	if a.Stats().LogRestarts == restarts {
		t.Fatal("the log never restarted once the other handle's reader ended")
	}
	for _, s := range []*Store{a, b} {
		for i := range 50 {
			if got := readT(t, s, root, fmt.Sprint(i)); got != "last" {
				t.Fatalf("reads %d = %q", i, got)
			}
		}
		checkIntegrity(t, s)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	putT(t, b, root, "after", "close")
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if size, _ := vfs.OS().Stat(path + "-wal"); size != 0 {
		t.Fatalf("log left at %d bytes after the last close", size)
	}
	c := openT2(t, path)
	defer c.Close()
	if got := readT(t, c, root, "after"); got != "close" {
		t.Fatalf("reopened reads %q", got)
	}
}

func openT2(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path, Options{FS: vfs.OS()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestShared_ReadOnlyOpenFollowsWriterWithoutWriting(t *testing.T) {
	a, b, path := openShared2(t, Options{CheckpointFrames: 10})
	b.Close()
	defer a.Close()
	root := newTreeT(t, a)
	putT(t, a, root, "k", "v0")
	ro, err := Open(path, Options{FS: vfs.OS(), ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	snapshot := func() map[string]string {
		m := map[string]string{}
		for _, suf := range []string{"", "-wal", "-shm"} {
			data, _ := readFileT(path + suf)
			m[suf] = data
		}
		return m
	}
	if got := readT(t, ro, root, "k"); got != "v0" {
		t.Fatalf("ro reads %q", got)
	}
	// An open read transaction of the read-only handle keeps its snapshot
	// (and holds checkpoints off) while the writer commits.
	rt := mustRead(t, ro)
	for i := 1; i <= 30; i++ {
		putT(t, a, root, "k", fmt.Sprintf("v%d", i))
		putT(t, a, root, fmt.Sprint("other", i), "x")
	}
	if got := getT(t, rt, root, "k"); got != "v0" {
		t.Fatalf("ro snapshot reads %q", got)
	}
	rt.Rollback()
	if got := readT(t, ro, root, "k"); got != "v30" {
		t.Fatalf("ro reads %q after the commits", got)
	}
	// With no reader open, the writer checkpoints and restarts the log; the
	// read-only handle reads the new state, and its reads write nothing.
	for i := 31; i <= 60; i++ {
		putT(t, a, root, "k", fmt.Sprintf("v%d", i))
	}
	if _, err := a.Checkpoint(context.Background(), CheckpointTruncate); err != nil {
		t.Fatal(err)
	}
	before := snapshot()
	for range 3 {
		if got := readT(t, ro, root, "k"); got != "v60" {
			t.Fatalf("ro reads %q after the checkpoint", got)
		}
		checkIntegrity(t, ro)
	}
	if after := snapshot(); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatal("a read-only handle changed the files")
	}
	if _, err := ro.BeginWrite(context.Background()); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("write on read-only: %v", err)
	}
}

func readFileT(name string) (string, error) {
	b, err := os.ReadFile(name)
	return string(b), err
}
