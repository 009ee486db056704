package vfs

import (
	"io"
	"sync"
	"sync/atomic"
)

// CowFS is an in-memory file system whose files can be cloned in constant
// time: a file is a persistent tree of fixed-size chunks, and a clone
// shares the whole tree with its source. Each side copies a chunk (and the
// tree nodes above it) the first time it writes into it after a clone, so
// a clone costs nothing at first and then what it writes; the chunks only
// the other side still references are freed with it (Go's garbage
// collector does the reference counting). In-memory databases run over a
// CowFS, which is what makes cloning a database O(1).
//
// Invariant: every byte at or past a file's size reads as zero; a chunk
// never written reads as zeros and takes no memory.
type CowFS struct {
	fileTable[*cowNode]
	st cowCounters
}

// CowChunkSize is the unit a CowFS copies on write: one 4 KiB page of a
// database at the default page size.
const CowChunkSize = 4096

const (
	cowShift = 8 // children per tree node: 256
	cowFan   = 1 << cowShift
	cowMask  = cowFan - 1
)

// owners numbers the writers of chunks and tree nodes: a file writes in
// place into what carries its owner number and copies everything else.
// Cloning gives both the source and the clone new numbers, so neither
// writes in place into what the other can read.
var owners atomic.Uint64

type cowChunk struct {
	owner uint64
	b     [CowChunkSize]byte
}

// cowTree is one level of the chunk tree: kids below the bottom level,
// chunks at it.
type cowTree struct {
	owner  uint64
	kids   []*cowTree
	chunks []*cowChunk
}

type cowCounters struct {
	clones, copied, fresh atomic.Uint64
}

// CowStats are a CowFS's counters.
type CowStats struct {
	// Clones counts files cloned into this file system (CloneFile).
	Clones uint64
	// CopiedChunks counts chunks copied because a file wrote into a chunk
	// it shared with a clone or a source; FreshChunks counts chunks
	// allocated for never-written ranges. A chunk is CowChunkSize bytes.
	CopiedChunks uint64
	FreshChunks  uint64
	// Chunks is the number of chunks the files reference now, shared ones
	// included, and Bytes their size: what the files would take if nothing
	// were shared.
	Chunks int
	Bytes  int64
}

// cowNode is one file: its chunk tree and size, shared by every handle
// open on it.
type cowNode struct {
	fs     *CowFS
	mu     sync.RWMutex
	owner  uint64   // guarded by mu
	root   *cowTree // guarded by mu; nil for an empty file
	height int      // levels of root (1: root holds chunks); guarded by mu
	size   int64    // guarded by mu
	chunks int      // chunks the tree references; guarded by mu
	locks  lockState
	// base, when set, holds the bytes of every chunk below baseEnd that
	// the file never wrote (CreateOver): reads of such a chunk go to
	// base, and the first write copies the chunk from it. baseEnd only
	// shrinks (Truncate), so bytes cut off never come back from base.
	base    Backing
	baseEnd int64 // guarded by mu
}

// Backing is read-only bytes a CowFS file lies over (CreateOver): what
// its never-written chunks hold. They must not change while any file
// lies over them. ReadAt fills p completely or fails.
type Backing interface {
	ReadAt(p []byte, off int64) (int, error)
}

// NewCowFS returns an empty copy-on-write in-memory file system.
func NewCowFS() *CowFS { return &CowFS{fileTable: fileTable[*cowNode]{files: map[string]*cowNode{}}} }

func (m *CowFS) newNode() *cowNode { return &cowNode{fs: m, owner: owners.Add(1)} }

// Open implements FS.
func (m *CowFS) Open(name string, readOnly bool) (File, error) {
	n, err := m.lookup("open", name)
	if err != nil {
		return nil, err
	}
	return &cowFile{n: n, handle: handle{name: name, readOnly: readOnly}}, nil
}

// Create implements FS.
func (m *CowFS) Create(name string) (File, error) {
	return &cowFile{n: m.lookupOrAdd(name, m.newNode), handle: handle{name: name}}, nil
}

// CreateOver creates (or replaces) the file name, of size bytes, lying over
// base: the file reads base's bytes until it writes them, and copies a
// chunk from base only when it first writes into it (counted in
// CopiedChunks; a chunk it overwrites whole reads nothing and counts in
// FreshChunks), so a file over a database snapshot costs nothing until
// it is written. Clones of the file share base.
func (m *CowFS) CreateOver(name string, base Backing, size int64) (File, error) {
	n := m.newNode()
	n.base, n.baseEnd, n.size = base, size, size
	m.mu.Lock()
	m.files[name] = n
	m.mu.Unlock()
	return &cowFile{n: n, handle: handle{name: name}}, nil
}

// Remove implements FS.
func (m *CowFS) Remove(name string) error { return m.remove(name) }

// Stat implements FS.
func (m *CowFS) Stat(name string) (int64, error) {
	n, err := m.lookup("stat", name)
	if err != nil {
		return 0, err
	}
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.size, nil
}

// CloneFile makes dst (in m) a copy of the file src of from, in constant
// time: both share every chunk until one of them writes it. An existing
// dst is replaced. The caller keeps src from changing mid-call if it needs
// a particular state (a database clones under its writer lock).
func (m *CowFS) CloneFile(from *CowFS, src, dst string) error {
	sn, err := from.lookup("clone", src)
	if err != nil {
		return err
	}
	dn := m.newNode()
	sn.mu.Lock()
	dn.root, dn.height, dn.size, dn.chunks = sn.root, sn.height, sn.size, sn.chunks
	dn.base, dn.baseEnd = sn.base, sn.baseEnd
	sn.owner = owners.Add(1)
	sn.mu.Unlock()
	m.mu.Lock()
	m.files[dst] = dn
	m.mu.Unlock()
	m.st.clones.Add(1)
	return nil
}

// Stats returns the counters.
func (m *CowFS) Stats() CowStats {
	st := CowStats{Clones: m.st.clones.Load(), CopiedChunks: m.st.copied.Load(), FreshChunks: m.st.fresh.Load()}
	m.mu.Lock()
	nodes := make([]*cowNode, 0, len(m.files))
	for _, n := range m.files {
		nodes = append(nodes, n)
	}
	m.mu.Unlock()
	for _, n := range nodes {
		n.mu.RLock()
		st.Chunks += n.chunks
		n.mu.RUnlock()
	}
	st.Bytes = int64(st.Chunks) * CowChunkSize
	return st
}

func countChunks(t *cowTree) int {
	if t == nil {
		return 0
	}
	n := 0
	for _, c := range t.chunks {
		if c != nil {
			n++
		}
	}
	for _, k := range t.kids {
		n += countChunks(k)
	}
	return n
}

// capacity is the bytes a tree of height h addresses.
func capacity(h int) int64 { return CowChunkSize << (cowShift * h) }

// chunk returns chunk ci for reading, or nil when it was never written.
// Caller holds n.mu (shared is enough).
func (n *cowNode) chunk(ci int64) *cowChunk {
	t := n.root
	if t == nil || ci >= capacity(n.height)/CowChunkSize {
		return nil
	}
	for lvl := n.height - 1; lvl > 0; lvl-- {
		t = t.kids[(ci>>(cowShift*lvl))&cowMask]
		if t == nil {
			return nil
		}
	}
	if i := ci & cowMask; i < int64(len(t.chunks)) {
		return t.chunks[i]
	}
	return nil
}

// newTree returns an empty tree level owned by n: a bottom level holds
// chunks, the others subtrees.
func (n *cowNode) newTree(bottom bool) *cowTree {
	t := &cowTree{owner: n.owner}
	if bottom {
		// Grown as chunks are written (see writable): a small file, such
		// as a clone's log, does not pay for 256 slots.
		t.chunks = make([]*cowChunk, 0, 4)
	} else {
		t.kids = make([]*cowTree, cowFan)
	}
	return t
}

// own returns t, or a copy of it owned by n when another file may read t.
func (n *cowNode) own(t *cowTree) *cowTree {
	if t.owner == n.owner {
		return t
	}
	c := &cowTree{owner: n.owner}
	if t.chunks != nil {
		c.chunks = append(make([]*cowChunk, 0, len(t.chunks)), t.chunks...)
	} else {
		c.kids = append(make([]*cowTree, 0, cowFan), t.kids...)
	}
	return c
}

// writable returns chunk ci ready to modify, copying the chunk and the
// tree levels above it that n shares, or filling it from base when n
// never wrote it (unless whole: the caller overwrites all of it). Caller
// holds n.mu exclusively.
func (n *cowNode) writable(ci int64, whole bool) (*cowChunk, error) {
	var fill *cowChunk
	if !whole && ci*CowChunkSize < n.baseEnd && n.chunk(ci) == nil {
		// Read before the tree changes, so a failed read changes nothing.
		fill = &cowChunk{owner: n.owner}
		if err := n.readBase(fill.b[:], ci*CowChunkSize); err != nil {
			return nil, err
		}
	}
	for n.root == nil || ci >= capacity(n.height)/CowChunkSize {
		if n.root == nil {
			n.root, n.height = n.newTree(true), 1
			continue
		}
		up := n.newTree(false)
		up.kids[0] = n.root
		n.root, n.height = up, n.height+1
	}
	n.root = n.own(n.root)
	t := n.root
	for lvl := n.height - 1; lvl > 0; lvl-- {
		i := (ci >> (cowShift * lvl)) & cowMask
		k := t.kids[i]
		if k == nil {
			k = n.newTree(lvl == 1)
		} else {
			k = n.own(k)
		}
		t.kids[i] = k
		t = k
	}
	i := ci & cowMask
	if i >= int64(len(t.chunks)) {
		t.chunks = append(t.chunks, make([]*cowChunk, i+1-int64(len(t.chunks)))...)
	}
	c := t.chunks[i]
	switch {
	case c == nil && fill != nil:
		c = fill
		n.chunks++
		n.fs.st.copied.Add(1)
	case c == nil: // never written, or overwritten whole: nothing to read
		c = &cowChunk{owner: n.owner}
		n.chunks++
		n.fs.st.fresh.Add(1)
	case c.owner != n.owner:
		c = &cowChunk{owner: n.owner, b: c.b}
		n.fs.st.copied.Add(1)
	}
	t.chunks[i] = c
	return c, nil
}

// readBase fills p with the bytes at off: base's below baseEnd, zeros
// past it. Caller holds n.mu.
func (n *cowNode) readBase(p []byte, off int64) error {
	k := int(max(min(int64(len(p)), n.baseEnd-off), 0))
	if k > 0 {
		if _, err := n.base.ReadAt(p[:k], off); err != nil {
			return err
		}
	}
	clear(p[k:])
	return nil
}

// readAt copies the bytes at off into p (holes read as zeros, or base's
// bytes below baseEnd). Caller holds n.mu; off+len(p) <= n.size.
func (n *cowNode) readAt(p []byte, off int64) error {
	for len(p) > 0 {
		ci, co := off/CowChunkSize, int(off%CowChunkSize)
		k := min(len(p), CowChunkSize-co)
		if c := n.chunk(ci); c != nil {
			copy(p[:k], c.b[co:])
		} else if off < n.baseEnd {
			// Consecutive chunks from base go in one read.
			for k < len(p) && off+int64(k) < n.baseEnd && n.chunk(ci+int64(k+co)/CowChunkSize) == nil {
				k = min(len(p), k+CowChunkSize)
			}
			if err := n.readBase(p[:k], off); err != nil {
				return err
			}
		} else {
			clear(p[:k])
		}
		p, off = p[k:], off+int64(k)
	}
	return nil
}

// writeAt writes p at off. Caller holds n.mu exclusively.
func (n *cowNode) writeAt(p []byte, off int64) (int, error) {
	done := 0
	for len(p) > 0 {
		ci, co := off/CowChunkSize, int(off%CowChunkSize)
		c, err := n.writable(ci, co == 0 && len(p) >= CowChunkSize)
		if err != nil {
			return done, err
		}
		k := copy(c.b[co:], p)
		p, off, done = p[k:], off+int64(k), done+k
		n.size = max(n.size, off)
	}
	return done, nil
}

// truncate sets the size; bytes cut off are dropped (or zeroed in the last
// chunk kept), so the file reads zeros past its end if it grows again.
func (n *cowNode) truncate(size int64) error {
	if size < n.size {
		if co := size % CowChunkSize; co != 0 && (n.chunk(size/CowChunkSize) != nil || size < n.baseEnd) {
			c, err := n.writable(size/CowChunkSize, false)
			if err != nil {
				return err
			}
			clear(c.b[co:])
		}
		n.baseEnd = min(n.baseEnd, size)
		keep := (size + CowChunkSize - 1) / CowChunkSize
		if keep == 0 {
			n.root, n.height, n.chunks = nil, 0, 0
		} else if n.root != nil {
			n.root = n.dropFrom(n.root, n.height, 0, keep)
		}
	}
	n.size = size
	return nil
}

// dropFrom removes every chunk at index >= keep from t, which covers the
// chunks from base at height h, copying the levels it changes.
func (n *cowNode) dropFrom(t *cowTree, h int, base, keep int64) *cowTree {
	span := capacity(h-1) / CowChunkSize // chunks under one child
	out := t
	for i := range int64(cowFan) {
		start := base + i*span
		switch {
		case start+span <= keep:
		case h == 1:
			if i < int64(len(out.chunks)) && out.chunks[i] != nil {
				out = n.own(out)
				out.chunks[i] = nil
				n.chunks--
			}
		case start >= keep:
			if out.kids[i] != nil {
				out = n.own(out)
				n.chunks -= countChunks(out.kids[i])
				out.kids[i] = nil
			}
		default: // keep falls inside child i
			if k := out.kids[i]; k != nil {
				if nk := n.dropFrom(k, h-1, start, keep); nk != k {
					out = n.own(out)
					out.kids[i] = nk
				}
			}
		}
	}
	return out
}

type cowFile struct {
	handle
	n *cowNode
}

func (f *cowFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.checkRead(off); err != nil {
		return 0, err
	}
	f.n.mu.RLock()
	defer f.n.mu.RUnlock()
	if off >= f.n.size {
		return 0, io.EOF
	}
	k := int(min(int64(len(p)), f.n.size-off))
	if err := f.n.readAt(p[:k], off); err != nil {
		return 0, err
	}
	if k < len(p) {
		return k, io.EOF
	}
	return k, nil
}

// ReadShared implements SharedReader: the chunk at off, without a copy,
// when n is CowChunkSize, off is a multiple of it, and the chunk is frozen
// (it was shared by a clone, so every file that can read it copies it
// before writing). Otherwise nil.
func (f *cowFile) ReadShared(off int64, n int) []byte {
	if n != CowChunkSize || off < 0 || off%CowChunkSize != 0 || f.check() != nil {
		return nil
	}
	f.n.mu.RLock()
	defer f.n.mu.RUnlock()
	if off+CowChunkSize > f.n.size {
		return nil
	}
	c := f.n.chunk(off / CowChunkSize)
	if c == nil || c.owner == f.n.owner {
		return nil
	}
	return c.b[:]
}

func (f *cowFile) WriteAt(p []byte, off int64) (int, error) {
	if err := f.checkWrite("write", "offset", off); err != nil {
		return 0, err
	}
	f.n.mu.Lock()
	defer f.n.mu.Unlock()
	return f.n.writeAt(p, off)
}

func (f *cowFile) Sync() error { return f.check() }

func (f *cowFile) Truncate(size int64) error {
	if err := f.checkWrite("truncate", "size", size); err != nil {
		return err
	}
	f.n.mu.Lock()
	defer f.n.mu.Unlock()
	return f.n.truncate(size)
}

func (f *cowFile) Size() (int64, error) {
	if err := f.check(); err != nil {
		return 0, err
	}
	f.n.mu.RLock()
	defer f.n.mu.RUnlock()
	return f.n.size, nil
}

func (f *cowFile) Lock(exclusive bool) error { return f.lockIn(&f.n.mu, &f.n.locks, exclusive) }

func (f *cowFile) Close() error { return f.closeIn(&f.n.mu, &f.n.locks) }
