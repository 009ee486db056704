package vfs

// CrashFS is an in-memory file system that simulates a machine crash:
// Crash keeps, for every file, only the bytes present at its last Sync.
type CrashFS struct {
	MemFS
	// OnSync, when set, is called after every successful Sync of any file
	// (outside all locks), so a test can take a CrashClone at each sync
	// boundary.
	OnSync func()
}

// NewCrashFS returns an empty crash-simulating file system.
func NewCrashFS() *CrashFS {
	return &CrashFS{MemFS: MemFS{fileTable[*memNode]{files: map[string]*memNode{}}}}
}

// Create implements FS.
func (c *CrashFS) Create(name string) (File, error) {
	f, err := c.MemFS.Create(name)
	if err != nil {
		return nil, err
	}
	n := f.(*memFile).n
	n.mu.Lock()
	n.track = true
	n.mu.Unlock()
	return &crashFile{memFile: f.(*memFile), fs: c}, nil
}

// Open implements FS.
func (c *CrashFS) Open(name string, readOnly bool) (File, error) {
	f, err := c.MemFS.Open(name, readOnly)
	if err != nil {
		return nil, err
	}
	return &crashFile{memFile: f.(*memFile), fs: c}, nil
}

type crashFile struct {
	*memFile
	fs *CrashFS
}

func (f *crashFile) Sync() error {
	if err := f.memFile.Sync(); err != nil {
		return err
	}
	if hook := f.fs.OnSync; hook != nil {
		hook()
	}
	return nil
}

// Crash discards every unsynced byte of every file, as a power loss would.
// When tornBytes > 0, the first tornBytes bytes of each file's last
// unsynced write survive (a torn write). Open handles keep working on the
// crashed contents; a test normally drops them and reopens.
func (c *CrashFS) Crash(tornBytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.files {
		n.mu.Lock()
		n.crash(tornBytes)
		n.mu.Unlock()
	}
}

// CrashClone returns a new CrashFS holding what would survive a crash now
// (see Crash), leaving c untouched. Locks are not copied.
func (c *CrashFS) CrashClone(tornBytes int) *CrashFS {
	out := NewCrashFS()
	c.mu.Lock()
	defer c.mu.Unlock()
	for name, n := range c.files {
		n.mu.RLock()
		cp := &memNode{
			track:     true,
			data:      append([]byte(nil), n.data...),
			synced:    append([]byte(nil), n.synced...),
			lastOff:   n.lastOff,
			lastWrite: append([]byte(nil), n.lastWrite...),
		}
		n.mu.RUnlock()
		cp.crash(tornBytes)
		out.files[name] = cp
	}
	return out
}

// crash rewinds n to its synced bytes. Caller holds n.mu.
func (n *memNode) crash(tornBytes int) {
	last, off := n.lastWrite, n.lastOff
	n.data = append(n.data[:0:0], n.synced...)
	if tornBytes > 0 && len(last) > 0 {
		k := min(tornBytes, len(last))
		end := off + int64(k)
		if end > int64(len(n.data)) {
			n.data = growTo(n.data, end)
		}
		copy(n.data[off:], last[:k])
	}
	n.synced = append(n.synced[:0], n.data...)
	n.lastWrite = nil
}
