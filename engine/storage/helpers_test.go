package storage

import (
	"context"
	"fmt"
	"testing"

	"github.com/ladybugsql/ladybug/vfs"
)

// openT opens (creating) the store "/db" on fsys (a new MemFS when nil;
// a temporary directory for the OS file system).
func openT(t testing.TB, fsys vfs.FS, opts Options) *Store {
	t.Helper()
	if fsys == nil {
		fsys = vfs.NewMemFS()
	}
	opts.FS = fsys
	opts.Create = true
	path := "/db"
	if fsys == vfs.OS() {
		path = t.TempDir() + "/db"
	}
	s, err := Open(path, opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

func mustWrite(t testing.TB, s *Store) *Tx {
	t.Helper()
	tx, err := s.BeginWrite(context.Background())
	if err != nil {
		t.Fatalf("begin write: %v", err)
	}
	return tx
}

func mustRead(t testing.TB, s *Store) *Tx {
	t.Helper()
	tx, err := s.BeginRead()
	if err != nil {
		t.Fatalf("begin read: %v", err)
	}
	return tx
}

// newTreeT creates a tree in its own committed transaction.
func newTreeT(t testing.TB, s *Store) uint32 {
	t.Helper()
	tx := mustWrite(t, s)
	root, err := tx.CreateTree()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return root
}

// checkIntegrity fails the test when the store's integrity check finds
// problems.
func checkIntegrity(t testing.TB, s *Store) {
	t.Helper()
	probs, err := s.IntegrityCheck()
	if err != nil {
		t.Fatalf("integrity check: %v", err)
	}
	if len(probs) > 0 {
		t.Fatalf("integrity problems: %v", probs)
	}
}

func key(i int) []byte { return []byte(fmt.Sprintf("k%08d", i)) }
