package txn

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ladybugsql/ladybug/engine/errs"
)

// memStore is a small model of engine/storage for unit tests: snapshot
// isolation by copy-on-begin-write, one writer with a busy timeout.
type memStore struct {
	mu      sync.Mutex
	seq     uint64
	state   *memState // committed; never mutated
	lock    chan struct{}
	timeout time.Duration
	dirty   atomic.Uint64
}

type memState struct {
	trees map[uint32]*memTree
	meta  [16]uint64
	next  uint32
}

type memTree struct {
	keys []string // sorted
	vals map[string][]byte
}

var errMemBusy = errors.New("memkv: busy")

func newMemStore(timeout time.Duration) *memStore {
	return &memStore{
		state:   &memState{trees: map[uint32]*memTree{}, next: 2},
		lock:    make(chan struct{}, 1),
		timeout: timeout,
	}
}

func (s *memStore) pagesModified() uint64 { return s.dirty.Load() }

func (s *memStore) errCode(err error) errs.Code {
	if errors.Is(err, errMemBusy) {
		return errs.CodeBusy
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return errs.CodeInterrupt
	}
	return errs.CodeIO
}

func (s *memStore) BeginRead() (kvTx, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &memTx{s: s, st: s.state, snap: s.seq}, nil
}

func (s *memStore) BeginWrite(ctx context.Context) (kvTx, error) {
	t := time.NewTimer(s.timeout)
	defer t.Stop()
	select {
	case s.lock <- struct{}{}:
	case <-t.C:
		return nil, errMemBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return &memTx{s: s, st: s.state.clone(), snap: s.seq, write: true}, nil
}

func (st *memState) clone() *memState {
	c := &memState{trees: make(map[uint32]*memTree, len(st.trees)), meta: st.meta, next: st.next}
	for r, t := range st.trees {
		nt := &memTree{keys: slices.Clone(t.keys), vals: make(map[string][]byte, len(t.vals))}
		for k, v := range t.vals {
			nt.vals[k] = v
		}
		c.trees[r] = nt
	}
	return c
}

type memTx struct {
	s     *memStore
	st    *memState
	snap  uint64
	write bool
	done  bool
}

var errMemRO = errors.New("memkv: read-only tx")

func (t *memTx) Writable() bool   { return t.write }
func (t *memTx) Snapshot() uint64 { return t.snap }
func (t *memTx) CreateTree() (uint32, error) {
	if !t.write {
		return 0, errMemRO
	}
	r := t.st.next
	t.st.next++
	t.st.trees[r] = &memTree{vals: map[string][]byte{}}
	return r, nil
}
func (t *memTx) DropTree(root uint32) error {
	if !t.write {
		return errMemRO
	}
	delete(t.st.trees, root)
	return nil
}
func (t *memTx) Tree(root uint32) kvTree { return &memTreeH{tx: t, root: root} }
func (t *memTx) Meta(slot int) uint64    { return t.st.meta[slot] }
func (t *memTx) SetMeta(slot int, v uint64) error {
	if !t.write {
		return errMemRO
	}
	t.st.meta[slot] = v
	return nil
}
func (t *memTx) Commit() error {
	if t.done {
		return errors.New("memkv: done")
	}
	t.done = true
	if !t.write {
		return nil
	}
	t.s.mu.Lock()
	t.s.state = t.st
	t.s.seq++
	t.s.mu.Unlock()
	<-t.s.lock
	return nil
}
func (t *memTx) Rollback() error {
	if t.done {
		return nil
	}
	t.done = true
	if t.write {
		<-t.s.lock
	}
	return nil
}

type memTreeH struct {
	tx   *memTx
	root uint32
}

var errMemNoTree = errors.New("memkv: no such tree")

func (h *memTreeH) tree() (*memTree, error) {
	t, ok := h.tx.st.trees[h.root]
	if !ok {
		return nil, errMemNoTree
	}
	return t, nil
}

func (h *memTreeH) Get(key []byte) ([]byte, bool, error) {
	t, err := h.tree()
	if err != nil {
		return nil, false, err
	}
	v, ok := t.vals[string(key)]
	return v, ok, nil
}

func (h *memTreeH) Put(key, val []byte) error {
	t, err := h.tree()
	if err != nil || !h.tx.write {
		return errors.Join(err, errMemRO)
	}
	k := string(key)
	if _, ok := t.vals[k]; !ok {
		i, _ := slices.BinarySearch(t.keys, k)
		t.keys = slices.Insert(t.keys, i, k)
	}
	t.vals[k] = slices.Clone(val)
	h.tx.s.dirty.Add(1)
	return nil
}

func (h *memTreeH) Delete(key []byte) (bool, error) {
	t, err := h.tree()
	if err != nil || !h.tx.write {
		return false, errors.Join(err, errMemRO)
	}
	k := string(key)
	if _, ok := t.vals[k]; !ok {
		return false, nil
	}
	delete(t.vals, k)
	i, _ := slices.BinarySearch(t.keys, k)
	t.keys = slices.Delete(t.keys, i, i+1)
	h.tx.s.dirty.Add(1)
	return true, nil
}

func (h *memTreeH) Count() (int64, error) {
	t, err := h.tree()
	if err != nil {
		return 0, err
	}
	return int64(len(t.keys)), nil
}

func (h *memTreeH) Cursor() kvCursor {
	t, err := h.tree()
	return &memCursor{t: t, err: err, i: -1}
}

type memCursor struct {
	t   *memTree
	err error
	i   int
}

func (c *memCursor) ok() bool {
	if c.t == nil || c.i < 0 || c.i >= len(c.t.keys) {
		c.i = -1
		return false
	}
	return true
}
func (c *memCursor) First() bool { c.i = 0; return c.ok() }
func (c *memCursor) Last() bool {
	if c.t == nil {
		return false
	}
	c.i = len(c.t.keys) - 1
	return c.ok()
}
func (c *memCursor) Seek(key []byte) bool {
	if c.t == nil {
		return false
	}
	c.i, _ = slices.BinarySearch(c.t.keys, string(key))
	return c.ok()
}
func (c *memCursor) Next() bool {
	if c.i < 0 {
		return false
	}
	c.i++
	return c.ok()
}
func (c *memCursor) Prev() bool {
	if c.i < 0 {
		return false
	}
	c.i--
	return c.ok()
}
func (c *memCursor) Key() []byte {
	if !c.ok() {
		return nil
	}
	return []byte(c.t.keys[c.i])
}
func (c *memCursor) Value() ([]byte, error) {
	if !c.ok() {
		return nil, nil
	}
	return c.t.vals[c.t.keys[c.i]], nil
}
func (c *memCursor) Err() error { return c.err }
func (c *memCursor) Close()     {}
