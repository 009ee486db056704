package factorized

import (
	"sync"
	"sync/atomic"
)

// PoolOptions configure a Pool.
type PoolOptions struct {
	// MaxFree bounds the free list; blocks returned past it are left to the
	// garbage collector. 0 means DefaultMaxFree.
	MaxFree int
	// EagerZero zeroes every block in full when it is handed out and on
	// Reset, as a design without lazy zeroing would. It exists as the
	// baseline for benchmarks; tuples read the same either way.
	EagerZero bool
}

// DefaultMaxFree is the free-list bound used when PoolOptions.MaxFree is 0:
// 64 blocks, 16 MiB.
const DefaultMaxFree = 64

// Pool is a per-database source of BlockSize blocks. Its free list is LIFO,
// so the block most recently returned is the next one handed out, still
// holding its old bytes; tests rely on that order. A Pool is safe for
// concurrent use; a nil *Pool is valid and allocates every block fresh.
type Pool struct {
	mu      sync.Mutex
	free    []*Block // guarded by mu; LIFO
	maxFree int
	eager   atomic.Bool

	zeroed    atomic.Int64 // bytes cleared by Claim, Reset and the zero-up-front path
	allocated atomic.Int64 // blocks allocated from the Go heap
}

// NewPool returns an empty pool.
func NewPool(o PoolOptions) *Pool {
	if o.MaxFree <= 0 {
		o.MaxFree = DefaultMaxFree
	}
	p := &Pool{maxFree: o.MaxFree}
	p.eager.Store(o.EagerZero)
	return p
}

// SetEagerZero switches whole-block zeroing (PoolOptions.EagerZero) on or
// off for blocks handed out from now on, so an A/B comparison can run on the
// same, warm blocks.
func (p *Pool) SetEagerZero(on bool) { p.eager.Store(on) }

// Get hands out an empty block. A recycled block is not zeroed: its frontier
// starts at 0 and Claim zeroes what it hands out. A freshly allocated block
// is zero already and its frontier starts at the end.
func (p *Pool) Get() *Block {
	b := p.pop()
	if b == nil {
		b = &Block{buf: make([]byte, BlockSize), pool: p, zeroed: BlockSize}
		if p != nil {
			p.allocated.Add(1)
		}
	}
	if p != nil && p.eager.Load() {
		b.eager = true
		b.zeroAll()
	}
	return b
}

// GetZeroed is the zero-up-front path, for blocks whose zero bytes mean
// "empty" (hash slots): it hands out a block whose first n bytes are already
// claimed and read as zero (n is capped at BlockSize).
func (p *Pool) GetZeroed(n int) *Block {
	b := p.Get()
	b.Claim(min(max(n, 0), BlockSize))
	return b
}

// Put returns a block to the free list. Blocks of another size (dedicated
// buffers for large values), blocks already on the list, and blocks past
// MaxFree are dropped. The caller must not touch b afterwards.
func (p *Pool) Put(b *Block) {
	if p == nil || b == nil || len(b.buf) != BlockSize || b.inPool {
		return
	}
	b.used, b.zeroed, b.dirty = 0, 0, 0
	b.eager = false
	p.mu.Lock()
	if len(p.free) < p.maxFree {
		b.inPool = true
		b.pool = p
		p.free = append(p.free, b)
	}
	p.mu.Unlock()
}

// pop takes the most recently returned block, or nil.
func (p *Pool) pop() *Block {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.free)
	if n == 0 {
		return nil
	}
	b := p.free[n-1]
	p.free[n-1] = nil
	p.free = p.free[:n-1]
	b.inPool = false
	return b
}

// Drain empties the free list, leaving its blocks to the garbage
// collector; a database calls it when it closes. The pool stays usable.
func (p *Pool) Drain() {
	if p == nil {
		return
	}
	p.mu.Lock()
	clear(p.free)
	p.free = p.free[:0]
	p.mu.Unlock()
}

// ZeroedBytes returns how many bytes this pool's blocks have cleared so far:
// the cost lazy zeroing keeps small. For tests and benchmarks.
func (p *Pool) ZeroedBytes() int64 {
	if p == nil {
		return 0
	}
	return p.zeroed.Load()
}

// Allocated returns how many blocks the pool has allocated from the heap.
func (p *Pool) Allocated() int64 {
	if p == nil {
		return 0
	}
	return p.allocated.Load()
}

// FreeBlocks returns the length of the free list.
func (p *Pool) FreeBlocks() int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.free)
}

func (p *Pool) countZeroed(n int) {
	if p != nil && n > 0 {
		p.zeroed.Add(int64(n))
	}
}
