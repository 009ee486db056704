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
// The first file is empty, or lies over a backing (CreateOver) that must
// show through wherever the files never wrote and never change.
func TestCowFS_Model(t *testing.T) {
	t.Run("empty", func(t *testing.T) { cowModel(t, false) })
	t.Run("over", func(t *testing.T) { cowModel(t, true) })
}

// byteBacking is a Backing over a byte slice.
type byteBacking []byte

func (b byteBacking) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off+int64(len(p)) > int64(len(b)) {
		return 0, io.EOF
	}
	return copy(p, b[off:]), nil
}

func cowModel(t *testing.T, over bool) {
	rng := rand.New(rand.NewPCG(7, 11))
	type file struct {
		f     File
		model []byte
	}
	fsys := NewCowFS()
	var base []byte
	f0, err := fsys.Create("f0")
	if over {
		base = make([]byte, CowChunkSize*300+rng.IntN(2*CowChunkSize))
		for i := range base {
			base[i] = byte(rng.Uint32())
		}
		f0, err = fsys.CreateOver("f0", byteBacking(base), int64(len(base)))
	}
	if err != nil {
		t.Fatal(err)
	}
	kept := bytes.Clone(base)
	files := []*file{{f: f0, model: bytes.Clone(base)}}
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
	if !bytes.Equal(base, kept) {
		t.Fatal("a file wrote into its backing")
	}
}

// TestCowFS_OverCopiesOnlyWrittenChunks: a file over a backing reads it
// without copying; a partial write copies one chunk from it, a whole-chunk
// write reads nothing from it, and a truncate hides the backing's bytes
// past the new size for good.
func TestCowFS_OverCopiesOnlyWrittenChunks(t *testing.T) {
	base := bytes.Repeat([]byte{9}, 10*CowChunkSize)
	fsys := NewCowFS()
	f, err := fsys.CreateOver("db", byteBacking(base), int64(len(base)))
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 3*CowChunkSize)
	if _, err := f.ReadAt(p, CowChunkSize/2); err != nil || !bytes.Equal(p, base[:len(p)]) {
		t.Fatalf("read over the backing: %v", err)
	}
	if st := fsys.Stats(); st.Chunks != 0 || st.CopiedChunks != 0 {
		t.Fatalf("reads copied chunks: %+v", st)
	}
	if _, err := f.WriteAt([]byte{1}, 2*CowChunkSize+5); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(make([]byte, CowChunkSize), 4*CowChunkSize); err != nil {
		t.Fatal(err)
	}
	if st := fsys.Stats(); st.Chunks != 2 || st.CopiedChunks != 1 || st.FreshChunks != 1 {
		t.Fatalf("two writes: %+v", st)
	}
	got := make([]byte, CowChunkSize)
	f.ReadAt(got, 2*CowChunkSize)
	if got[5] != 1 || got[4] != 9 || got[6] != 9 {
		t.Fatal("a partial write lost the backing's bytes around it")
	}
	if err := f.Truncate(CowChunkSize + 10); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(8 * CowChunkSize); err != nil {
		t.Fatal(err)
	}
	f.ReadAt(got, CowChunkSize)
	if got[9] != 9 || !bytes.Equal(got[10:], make([]byte, CowChunkSize-10)) {
		t.Fatal("bytes cut by a truncate came back from the backing")
	}
	if !bytes.Equal(base, bytes.Repeat([]byte{9}, 10*CowChunkSize)) {
		t.Fatal("the file wrote into its backing")
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
