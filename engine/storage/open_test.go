package storage

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/vfs"
)

// openModes are the ways a caller opens an existing file: create if
// missing (rwc), read-write (rw) and read-only (ro).
var openModes = []struct {
	name string
	opts Options
}{
	{"rwc", Options{Create: true}},
	{"rw", Options{}},
	{"ro", Options{ReadOnly: true}},
}

// foreignFiles are files another program wrote, at every size Open treats
// specially: around each page size (a header page and two), around the
// largest page size's two pages (all a creation can write) and 128 KiB.
func foreignFiles() map[string][]byte {
	r := rand.New(rand.NewPCG(8, 3))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	text := func(n int) []byte {
		return []byte(strings.Repeat("the quick brown fox jumps over the lazy dog\n", n/44+1))[:n]
	}
	files := map[string][]byte{
		"json config":    []byte(`{"listen": ":8080", "debug": true, "n": 42}`),
		"text 52 KB":     text(52 * 1024),
		"sqlite header":  sqliteHeaderFixture(),
		"one byte":       {0x4c},
		"magic prefix 7": []byte(headerMagic[:7]),
		// Ladybug's magic over another program's bytes: a damaged
		// database, never an unfinished creation.
		"magic then random": append([]byte(headerMagic), random(4096-len(headerMagic))...),
		"magic then text":   append([]byte(headerMagic), text(1000)...),
	}
	sizes := []int{8, 100}
	for ps := minPageSize; ps <= maxPageSize; ps *= 2 {
		sizes = append(sizes, ps-1, ps, ps+1, 2*ps-1, 2*ps, 2*ps+1)
	}
	sizes = append(sizes, 128<<10-1, 128<<10, 128<<10+1)
	for _, n := range sizes {
		files[fmt.Sprintf("random %d", n)] = random(n)
		files[fmt.Sprintf("text %d", n)] = text(n)
		files[fmt.Sprintf("zeros %d", n)] = make([]byte, n)
	}
	return files
}

// sqliteHeaderFixture is the start of a SQLite database file: its 100-byte
// header (magic, 4096-byte pages, format numbers) on an otherwise empty
// first page, as sqlite3 writes it for an empty database.
func sqliteHeaderFixture() []byte {
	p := make([]byte, 4096)
	copy(p, "SQLite format 3\x00")
	p[16], p[17] = 0x10, 0x00 // page size 4096
	p[18], p[19] = 1, 1       // file format write/read versions
	p[21], p[22], p[23] = 64, 32, 32
	p[31] = 1 // database size in pages
	p[47] = 4 // schema format
	p[59] = 1 // text encoding UTF-8
	p[100] = 0x0d
	p[105], p[106] = 0x10, 0x00
	return p
}

// TestOpen_ForeignFile_RefusedUntouched: a file that is not a ladybug
// database is refused with ErrNotADB in every mode, and Open writes
// nothing: the file keeps its bytes and no log appears beside it.
func TestOpen_ForeignFile_RefusedUntouched(t *testing.T) {
	for name, content := range foreignFiles() {
		for _, m := range openModes {
			fsys := vfs.NewMemFS()
			writeFile(t, fsys, "/db", content)
			opts := m.opts
			opts.FS = fsys
			s, err := Open("/db", opts)
			if err == nil {
				s.Close()
				t.Errorf("%s, %s: opened a foreign file", name, m.name)
				continue
			}
			want := ErrNotADB
			if bytes.HasPrefix(content, []byte(headerMagic)) {
				want = ErrCorrupt // ladybug's magic: a damaged database
			}
			if !errors.Is(err, want) {
				t.Errorf("%s, %s: error %v, want %v", name, m.name, err, want)
			}
			if got := readAll(t, fsys, "/db"); !bytes.Equal(got, content) {
				t.Errorf("%s, %s: the file changed (%d bytes, was %d)", name, m.name, len(got), len(content))
			}
			if _, err := fsys.Stat("/db-wal"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s, %s: a log was created beside the file", name, m.name)
			}
		}
	}
}

// TestOpen_EmptyFile_IsNewDatabase: a 0-byte file is a new, empty
// database, as in SQLite, when the open may write; a read-only open
// cannot create it and refuses with ErrNotADB, leaving it empty.
func TestOpen_EmptyFile_IsNewDatabase(t *testing.T) {
	for _, m := range openModes {
		fsys := vfs.NewMemFS()
		writeFile(t, fsys, "/db", nil)
		opts := m.opts
		opts.FS = fsys
		s, err := Open("/db", opts)
		if m.opts.ReadOnly {
			if !errors.Is(err, ErrNotADB) {
				t.Errorf("ro: error %v, want ErrNotADB", err)
			}
			if got := readAll(t, fsys, "/db"); len(got) != 0 {
				t.Errorf("ro: the empty file was written (%d bytes)", len(got))
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		root := newTreeT(t, s)
		s.Close()
		s, err = Open("/db", Options{FS: fsys, ReadOnly: true})
		if err != nil {
			t.Fatalf("%s: reopen: %v", m.name, err)
		}
		tx := mustRead(t, s)
		if _, _, err := tx.Tree(root).Get([]byte("k")); err != nil {
			t.Errorf("%s: the created database does not read back: %v", m.name, err)
		}
		tx.Rollback()
		s.Close()
	}
}

// TestOpen_UnfinishedCreation_Reinitialized: what a creation that crashed
// before its sync can leave (a prefix of its two pages, or the pages with
// zeroed holes) is provably ladybug's own and holds nothing, so a
// writable open initializes it again; the same bytes with one byte of
// another program's changed are refused as damaged, untouched.
func TestOpen_UnfinishedCreation_Reinitialized(t *testing.T) {
	for _, ps := range []int{minPageSize, 4096, maxPageSize} {
		img := creationImage(ps)
		holed := append([]byte(nil), img...)
		clear(holed[ps+100 : ps+300]) // a lost sector in the registry page
		clear(holed[200:ps])          // and the header's checksum trailer
		cases := map[string][]byte{
			"magic only":        img[:len(headerMagic)],
			"half header page":  img[:ps/2],
			"header page":       img[:ps],
			"header, torn tail": img[:ps+ps/3],
			"pages with holes":  holed,
		}
		for name, content := range cases {
			fsys := vfs.NewMemFS()
			writeFile(t, fsys, "/db", content)
			s, err := Open("/db", Options{FS: fsys, PageSize: ps})
			if err != nil {
				t.Errorf("ps %d, %s: %v", ps, name, err)
				continue
			}
			newTreeT(t, s)
			s.Close()
			// A foreign byte among them: not creation's, so never rewritten.
			bad := append([]byte(nil), content...)
			bad[len(bad)-1] ^= 0x5a
			if bad[len(bad)-1] == 0 {
				bad[len(bad)-1] = 0x5a
			}
			fsys = vfs.NewMemFS()
			writeFile(t, fsys, "/db", bad)
			want := ErrCorrupt
			if !bytes.HasPrefix(bad, []byte(headerMagic)) {
				want = ErrNotADB
			}
			if s, err := Open("/db", Options{FS: fsys, PageSize: ps}); err == nil {
				s.Close()
				t.Errorf("ps %d, %s with a foreign byte: opened", ps, name)
			} else if !errors.Is(err, want) {
				t.Errorf("ps %d, %s with a foreign byte: error %v, want %v", ps, name, err, want)
			}
			if got := readAll(t, fsys, "/db"); !bytes.Equal(got, bad) {
				t.Errorf("ps %d, %s with a foreign byte: the file changed", ps, name)
			}
		}
	}
}

func writeFile(t *testing.T, fsys vfs.FS, name string, content []byte) {
	t.Helper()
	f, err := fsys.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(content) > 0 {
		if _, err := f.WriteAt(content, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
