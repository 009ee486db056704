package vfs

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
)

// TestCowFS_Model runs random writes, truncates and clones on a family of
// CowFS files and compares each with its own byte-slice model: a clone
// sees its source's bytes at the clone and no write of either side after.
func TestCowFS_Model(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	type file struct {
		f     File
		model []byte
	}
	fsys := NewCowFS()
	f0, err := fsys.Create("f0")
	if err != nil {
		t.Fatal(err)
	}
	files := []*file{{f: f0}}
	for step := range 4000 {
		x := files[rng.IntN(len(files))]
		switch op := rng.IntN(20); {
		case op < 13: // write
			off := int64(rng.IntN(3 << 20))
			if rng.IntN(4) == 0 {
				off = int64(len(x.model)) // append
			}
			n := rng.IntN(3 * CowChunkSize)
			p := make([]byte, n)
			for i := range p {
				p[i] = byte(rng.Uint32())
			}
			if _, err := x.f.WriteAt(p, off); err != nil {
				t.Fatal(err)
			}
			if end := off + int64(n); end > int64(len(x.model)) {
				x.model = append(x.model, make([]byte, end-int64(len(x.model)))...)
			}
			copy(x.model[off:], p)
		case op < 15: // truncate
			size := int64(rng.IntN(len(x.model) + CowChunkSize*4 + 1))
			if err := x.f.Truncate(size); err != nil {
				t.Fatal(err)
			}
			if size <= int64(len(x.model)) {
				x.model = x.model[:size:size]
			} else {
				x.model = append(x.model, make([]byte, size-int64(len(x.model)))...)
			}
		case op < 17 && len(files) < 12: // clone
			name := "f" + string(rune('a'+len(files)))
			dst := fsys
			if rng.IntN(2) == 0 {
				dst = NewCowFS()
			}
			var src string
			for nm, nd := range fsys.files {
				if nd == x.f.(*cowFile).n {
					src = nm
				}
			}
			if err := dst.CloneFile(fsys, src, name); err != nil {
				t.Fatal(err)
			}
			cf, err := dst.Open(name, false)
			if err != nil {
				t.Fatal(err)
			}
			if dst == fsys {
				files = append(files, &file{f: cf, model: bytes.Clone(x.model)})
			} else {
				// A clone in another FS: renamed into fsys's namespace
				// for the next clones.
				fsys.mu.Lock()
				fsys.files[name] = cf.(*cowFile).n
				fsys.mu.Unlock()
				files = append(files, &file{f: cf, model: bytes.Clone(x.model)})
			}
		default: // read and compare a random range
			if len(x.model) == 0 {
				continue
			}
			off := rng.IntN(len(x.model))
			n := rng.IntN(4 * CowChunkSize)
			p := make([]byte, n)
			got, err := x.f.ReadAt(p, int64(off))
			want := min(n, len(x.model)-off)
			if got != want || (got < n && err != io.EOF) || !bytes.Equal(p[:got], x.model[off:off+got]) {
				t.Fatalf("step %d: read %d@%d: got %d bytes, err %v, contents differ: %v", step, n, off, got, err, !bytes.Equal(p[:got], x.model[off:off+got]))
			}
		}
	}
	for i, x := range files {
		n := x.f.(*cowFile).n
		if n.chunks != countChunks(n.root) {
			t.Fatalf("file %d: chunk count %d, tree holds %d", i, n.chunks, countChunks(n.root))
		}
		sz, _ := x.f.Size()
		if sz != int64(len(x.model)) {
			t.Fatalf("file %d: size %d, model %d", i, sz, len(x.model))
		}
		p := make([]byte, sz)
		if sz > 0 {
			if _, err := x.f.ReadAt(p, 0); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(p, x.model) {
			t.Fatalf("file %d differs from its model", i)
		}
	}
}

// TestCowFS_CloneSharesUntilWritten: a clone costs no chunk; writing one
// byte on either side copies exactly one chunk, and the other side keeps
// its bytes.
func TestCowFS_CloneSharesUntilWritten(t *testing.T) {
	src := NewCowFS()
	f, _ := src.Create("db")
	big := bytes.Repeat([]byte{1}, 100*CowChunkSize)
	if _, err := f.WriteAt(big, 0); err != nil {
		t.Fatal(err)
	}
	dst := NewCowFS()
	if err := dst.CloneFile(src, "db", "db"); err != nil {
		t.Fatal(err)
	}
	if st := dst.Stats(); st.Chunks != 100 || st.CopiedChunks != 0 || st.FreshChunks != 0 {
		t.Fatalf("clone stats %+v", st)
	}
	g, _ := dst.Open("db", false)
	if _, err := g.WriteAt([]byte{2}, 50*CowChunkSize+7); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{3}, 60*CowChunkSize); err != nil {
		t.Fatal(err)
	}
	if c := dst.Stats().CopiedChunks; c != 1 {
		t.Fatalf("clone copied %d chunks for a one-byte write, want 1", c)
	}
	if c := src.Stats().CopiedChunks; c != 1 {
		t.Fatalf("source copied %d chunks for a one-byte write, want 1", c)
	}
	b := make([]byte, 1)
	f.ReadAt(b, 50*CowChunkSize+7)
	if b[0] != 1 {
		t.Fatal("the clone's write reached the source")
	}
	g.ReadAt(b, 60*CowChunkSize)
	if b[0] != 1 {
		t.Fatal("the source's write reached the clone")
	}
	if err := dst.CloneFile(src, "missing", "x"); err == nil {
		t.Fatal("cloning a missing file succeeded")
	}
}
