//go:build unix

package storage

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ladybugsql/ladybug/vfs"
)

// A database file removed while a Store has it open (another program's rm,
// perhaps followed by a new database under the name) must not take
// commits: every later open of the path reads the other file, so the
// commit would be acknowledged and lost. The write transaction open when
// the file went fails at Commit, with the data of the new file untouched.
func TestStore_CommitRefusedAfterFileRemoved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db")
	s, err := Open(path, Options{FS: vfs.OS(), Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	root := newTreeT(t, s)
	putT(t, s, root, "k", "before")

	tx := mustWrite(t, s)
	if err := tx.Tree(root).Put([]byte("k"), []byte("lost")); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil {
			t.Fatal(err)
		}
	}
	other, err := Open(path, Options{FS: vfs.OS(), Create: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("commit after the file was removed: %v, want ErrReadOnly", err)
	}
	if got := readT(t, s, root, "k"); got != "before" {
		t.Fatalf("the store reads %q after the refused commit", got)
	}
	tx2 := mustWrite(t, s)
	if err := tx2.Tree(root).Put([]byte("k"), []byte("again")); err != nil {
		t.Fatal(err)
	}
	if err := tx2.Commit(); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("a later commit: %v, want ErrReadOnly", err)
	}
	if h := other.newestHeader(); h.seq != 0 || h.pageCount != 2 {
		t.Fatalf("the new file changed: %+v", h)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
}
