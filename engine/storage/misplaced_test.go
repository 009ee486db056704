package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/vfs"
)

// misplacedDB builds a database whose main file holds every kind of page
// (branch and leaf pages of a tree, overflow pages of long values, a
// free-list trunk) and returns its image, the tree's root and its contents.
func misplacedDB(t *testing.T) (img []byte, root uint32, want map[string][]byte) {
	t.Helper()
	fsys := vfs.NewMemFS()
	s := openT(t, fsys, Options{PageSize: 1024})
	want = map[string][]byte{}
	tx := mustWrite(t, s)
	root, err := tx.CreateTree()
	if err != nil {
		t.Fatal(err)
	}
	drop, err := tx.CreateTree()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 600; i++ {
		v := []byte(fmt.Sprintf("value %d", i))
		if i%50 == 0 {
			v = bytes.Repeat(v, 200) // overflow pages
		}
		if err := tx.Tree(root).Put(key(i), v); err != nil {
			t.Fatal(err)
		}
		want[string(key(i))] = v
		if err := tx.Tree(drop).Put(key(i), v); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx = mustWrite(t, s)
	if err := tx.DropTree(drop); err != nil { // its pages go to the free list
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return readAll(t, fsys, "/db"), root, want
}

// readEverything reads the tree back every way and runs the integrity
// check, returning the errors and problems it met. A value read without
// an error must be the value written: a misplaced page never reads as
// data.
func readEverything(t *testing.T, fsys vfs.FS, root uint32, want map[string][]byte) []string {
	t.Helper()
	var got []string
	note := func(err error) {
		if err != nil {
			got = append(got, err.Error())
		}
	}
	s, err := Open("/db", Options{FS: fsys})
	if err != nil {
		return []string{err.Error()}
	}
	defer s.Close()
	tx, err := s.BeginRead()
	if err != nil {
		return []string{err.Error()}
	}
	defer tx.Rollback()
	tr := tx.Tree(root)
	for k, v := range want {
		val, ok, err := tr.Get([]byte(k))
		note(err)
		if err == nil && (!ok || !bytes.Equal(val, v)) {
			t.Errorf("key %s read back as %.20q (found %v) with no error", k, val, ok)
		}
	}
	c := tr.Cursor()
	for ok := c.First(); ok; ok = c.Next() {
		v, err := c.Value()
		note(err)
		if w, known := want[string(c.Key())]; err == nil && (!known || !bytes.Equal(v, w)) {
			t.Errorf("cursor read key %q value %.20q with no error", c.Key(), v)
		}
	}
	note(c.Err())
	c.Close()
	problems, err := s.IntegrityCheck()
	note(err)
	return append(got, problems...)
}

// TestStore_MisplacedPage_FailsChecksum writes a valid page of each kind
// (leaf, branch, overflow, free-list trunk) at another page's position,
// and another page at its position: each read of the moved-over position
// fails with ErrCorrupt naming its checksum, and nothing reads as data.
// Before the checksum covered the page number, such a page read back as
// another page's contents.
func TestStore_MisplacedPage_FailsChecksum(t *testing.T) {
	img, root, want := misplacedDB(t)
	const ps = 1024
	// Pages in use, by kind: free pages listed by a trunk hold stale
	// contents nothing reads.
	free := map[uint32]bool{}
	for p := uint32(1); int(p)*ps < len(img); p++ {
		pg := img[int(p)*ps : int(p+1)*ps]
		if pg[0] == typeFreelist && pageOK(pg, p) {
			for i := 0; i < int(binary.BigEndian.Uint32(pg[trunkCount:])); i++ {
				free[binary.BigEndian.Uint32(pg[trunkHdr+4*i:])] = true
			}
		}
	}
	byKind := map[byte][]uint32{}
	for p := uint32(2); int(p)*ps < len(img); p++ {
		pg := img[int(p)*ps : int(p+1)*ps]
		if !free[p] && pageOK(pg, p) {
			byKind[pg[0]] = append(byKind[pg[0]], p)
		}
	}
	kinds := []struct {
		name string
		typ  byte
	}{{"leaf", typeLeaf}, {"branch", typeBranch}, {"overflow", typeOverflow}, {"freelist", typeFreelist}}
	reachable := append(append([]uint32{}, byKind[typeLeaf]...), byKind[typeBranch]...)
	for _, k := range kinds {
		pages := byKind[k.typ]
		if len(pages) == 0 {
			t.Fatalf("the database has no %s page", k.name)
		}
		src := pages[len(pages)-1]
		// The page of this kind written over another one of the same kind
		// (or over a leaf), and a leaf written over this one.
		dst := pages[0]
		if dst == src {
			dst = reachable[len(reachable)/2]
		}
		for _, mv := range [][2]uint32{{src, dst}, {reachable[0], src}} {
			from, to := mv[0], mv[1]
			if from == to {
				continue
			}
			bad := append([]byte(nil), img...)
			copy(bad[int(to)*ps:int(to+1)*ps], img[int(from)*ps:int(from+1)*ps])
			fsys := vfs.NewMemFS()
			writeFile(t, fsys, "/db", bad)
			got := readEverything(t, fsys, root, want)
			text := strings.Join(got, "\n")
			if !strings.Contains(text, fmt.Sprintf("page %d", to)) || !strings.Contains(text, "checksum mismatch") {
				t.Errorf("%s page %d written at page %d: not reported as a checksum failure of page %d:\n%s", k.name, from, to, to, text)
			}
		}
	}
	// A read error is ErrCorrupt.
	bad := append([]byte(nil), img...)
	l := byKind[typeLeaf]
	copy(bad[int(l[0])*ps:int(l[0]+1)*ps], img[int(l[1])*ps:int(l[1]+1)*ps])
	fsys := vfs.NewMemFS()
	writeFile(t, fsys, "/db", bad)
	s, err := Open("/db", Options{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tx := mustRead(t, s)
	defer tx.Rollback()
	c := tx.Tree(root).Cursor()
	for ok := c.First(); ok; ok = c.Next() {
	}
	if err := c.Err(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("scan over a misplaced leaf: %v, want ErrCorrupt", err)
	}
	c.Close()
}

// TestOpen_OlderFormatVersion_RefusedNamingIt: a file of format version 1
// (checksums without the page number) is refused with ErrCorrupt and a
// message naming its version and this one's, and left as it was.
func TestOpen_OlderFormatVersion_RefusedNamingIt(t *testing.T) {
	img, _, _ := misplacedDB(t)
	img[hdrVersion+3] = 1
	sealPage(img[:1024], 0)
	for _, m := range openModes {
		fsys := vfs.NewMemFS()
		writeFile(t, fsys, "/db", img)
		opts := m.opts
		opts.FS = fsys
		s, err := Open("/db", opts)
		if err == nil {
			s.Close()
			t.Fatalf("%s: opened a version 1 file", m.name)
		}
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "format version 1") || !strings.Contains(err.Error(), "version 2") {
			t.Errorf("%s: %v", m.name, err)
		}
		if got := readAll(t, fsys, "/db"); !bytes.Equal(got, img) {
			t.Errorf("%s: the file changed", m.name)
		}
	}
}
