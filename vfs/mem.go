package vfs

import (
	"io"
	"sort"
	"sync"
)

// MemFS is a file system held in memory. The zero value is not usable; call
// NewMemFS.
type MemFS struct {
	fileTable[*memNode]
}

// NewMemFS returns an empty in-memory file system.
func NewMemFS() *MemFS { return &MemFS{fileTable[*memNode]{files: map[string]*memNode{}}} }

// memNode is one file's bytes, shared by every handle open on it.
type memNode struct {
	mu    sync.RWMutex
	data  []byte    // guarded by mu
	locks lockState // guarded by mu

	// Crash tracking, on for CrashFS files only: the bytes as of the last
	// Sync and the last write since then. All guarded by mu.
	track     bool
	synced    []byte
	lastOff   int64
	lastWrite []byte
}

// Open implements FS.
func (m *MemFS) Open(name string, readOnly bool) (File, error) {
	n, err := m.lookup("open", name)
	if err != nil {
		return nil, err
	}
	return &memFile{n: n, handle: handle{name: name, readOnly: readOnly}}, nil
}

// Create implements FS.
func (m *MemFS) Create(name string) (File, error) {
	n := m.lookupOrAdd(name, func() *memNode { return &memNode{} })
	return &memFile{n: n, handle: handle{name: name}}, nil
}

// Remove implements FS.
func (m *MemFS) Remove(name string) error { return m.remove(name) }

// Stat implements FS.
func (m *MemFS) Stat(name string) (int64, error) {
	n, err := m.lookup("stat", name)
	if err != nil {
		return 0, err
	}
	n.mu.RLock()
	defer n.mu.RUnlock()
	return int64(len(n.data)), nil
}

// Names returns the names of all files, sorted.
func (m *MemFS) Names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := make([]string, 0, len(m.files))
	for k := range m.files {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

type memFile struct {
	handle
	n *memNode
}

func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.checkRead(off); err != nil {
		return 0, err
	}
	f.n.mu.RLock()
	defer f.n.mu.RUnlock()
	if off >= int64(len(f.n.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.n.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (f *memFile) WriteAt(p []byte, off int64) (int, error) {
	if err := f.checkWrite("write", "offset", off); err != nil {
		return 0, err
	}
	f.n.mu.Lock()
	defer f.n.mu.Unlock()
	f.n.write(p, off)
	return len(p), nil
}

func (n *memNode) write(p []byte, off int64) {
	end := off + int64(len(p))
	if end > int64(len(n.data)) {
		n.data = growTo(n.data, end)
	}
	copy(n.data[off:], p)
	if n.track {
		n.lastOff = off
		n.lastWrite = append(n.lastWrite[:0], p...)
	}
}

// growTo extends b to size bytes, zero-filled, doubling capacity so a file
// written in small appends costs amortized linear time.
func growTo(b []byte, size int64) []byte {
	if size <= int64(cap(b)) {
		old := len(b)
		b = b[:size]
		clear(b[old:])
		return b
	}
	nc := 2 * int64(cap(b))
	if nc < size {
		nc = size
	}
	nb := make([]byte, size, nc)
	copy(nb, b)
	return nb
}

// shrinkTo cuts b to size bytes. Memory is a memory file's disk: when the
// room left would exceed twice shrinkKeep (a write-ahead log cut after a huge
// transaction's checkpoint, a database file after VACUUM), the bytes move
// to an array with that much room, so the file does not hold its largest
// size forever, yet a log regrowing to its working size copies nothing.
func shrinkTo(b []byte, size int64) []byte {
	// Twice the room before moving, so cutting a file again does not copy.
	if int64(cap(b)) <= size+2*shrinkKeep {
		return b[:size]
	}
	nb := make([]byte, size, size+shrinkKeep)
	copy(nb, b)
	return nb
}

// shrinkKeep is the unused room a truncated memory file may keep: about a
// write-ahead log between checkpoints (4000 frames of a 4 KiB page).
const shrinkKeep = 16 << 20

func (f *memFile) Sync() error {
	if err := f.check(); err != nil {
		return err
	}
	f.n.mu.Lock()
	defer f.n.mu.Unlock()
	if f.n.track {
		f.n.synced = append(f.n.synced[:0], f.n.data...)
		f.n.lastWrite = f.n.lastWrite[:0]
	}
	return nil
}

func (f *memFile) Truncate(size int64) error {
	if err := f.checkWrite("truncate", "size", size); err != nil {
		return err
	}
	f.n.mu.Lock()
	defer f.n.mu.Unlock()
	if size <= int64(len(f.n.data)) {
		f.n.data = shrinkTo(f.n.data, size)
	} else {
		f.n.data = growTo(f.n.data, size)
	}
	f.n.lastWrite = f.n.lastWrite[:0]
	return nil
}

func (f *memFile) Size() (int64, error) {
	if err := f.check(); err != nil {
		return 0, err
	}
	f.n.mu.RLock()
	defer f.n.mu.RUnlock()
	return int64(len(f.n.data)), nil
}

func (f *memFile) Lock(exclusive bool) error { return f.lockIn(&f.n.mu, &f.n.locks, exclusive) }

func (f *memFile) Close() error { return f.closeIn(&f.n.mu, &f.n.locks) }
