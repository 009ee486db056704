package engine

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/ladybugsql/ladybug/engine/exec"
)

// Bounds of one database's idle compiled programs. A program holds a batch
// per operator and a scratch vector per expression, grown to the batches
// its executions met (at most exec.BatchSize rows): kilobytes to
// megabytes. One larger than a progCacheMaxShare of
// the budget is never kept, so it cannot flush all the others.
const (
	progCacheBytes    = 32 << 20
	progCacheEntries  = 256
	progCacheMaxShare = 8
)

// progCache keeps the idle compiled programs (operator trees, writers) of
// cached plans for reuse, within a byte budget and an entry count for the
// whole database, dropping the least recently returned first. A program
// idle through two garbage collections is dropped too (see sweepAtGC): the
// budget counts a program's size when built, not the buffers an execution
// grew in it (a scan's arena of blob bytes, say), which only then go.
//
// A sync.Pool per plan does not bound them: whatever was put in any pool
// stays alive until two garbage collections pass, so a workload of many
// distinct SQL texts kept every program of the last two GC cycles alive;
// the larger heap spaced collections further apart, which kept still more
// programs alive, and a long run grew to gigabytes.
type progCache struct {
	mu         sync.Mutex
	maxBytes   int64
	maxEntries int
	bytes      int64 // the idle programs' sizes, summed
	n          int
	head, tail *idleProg // most recently returned first
	spare      *idleProg // unlinked entries for reuse, chained by next
	gen        uint64    // garbage collections swept so far
	closed     bool
}

// idleProg is one idle program of bp in the cache's recency list.
type idleProg struct {
	bp         *boundPlan
	prog       any
	size       int64
	gen        uint64 // the cache's gen when it was returned
	prev, next *idleProg
}

func newProgCache(maxBytes int64, maxEntries int) *progCache {
	return &progCache{maxBytes: maxBytes, maxEntries: maxEntries}
}

// progSize is the size of a compiled program of one plan, measured when
// the first was built (see build) and completed when it is first returned
// (settle); the plan's programs are alike.
type progSize struct {
	bytes atomic.Int64
	// grownFrom is exec.GrownBytes() when the first program was built.
	grownFrom atomic.Int64
	settled   atomic.Bool
}

// settle adds, once, the buffers the first program's executions grew (its
// batches and expression buffers start empty: exec.GrownBytes) to the
// size measured at build, and returns the size. Other goroutines' growth
// in the meantime overstates it, which only keeps fewer programs.
func (ps *progSize) settle() int64 {
	if !ps.settled.Load() && ps.bytes.Load() != 0 && ps.settled.CompareAndSwap(false, true) {
		ps.bytes.Add(max(exec.GrownBytes()-ps.grownFrom.Load(), 0))
	}
	return ps.bytes.Load()
}

// heapAllocated returns the bytes the process has allocated so far. Its
// difference across a build is the program's size, overstated when other
// goroutines allocate meanwhile, which only keeps fewer programs.
func heapAllocated() int64 {
	s := [1]metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s[:])
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// build returns an idle program of bp or, when there is none, one newly
// built by mk, measuring the first such build's size.
func build[P any](pc *progCache, bp *boundPlan, mk func() (P, error)) (P, error) {
	if p, ok := pc.get(bp).(P); ok {
		return p, nil
	}
	if bp.size.bytes.Load() != 0 {
		return mk()
	}
	bp.size.grownFrom.Store(exec.GrownBytes())
	before := heapAllocated()
	p, err := mk()
	if err == nil {
		bp.size.bytes.CompareAndSwap(0, max(heapAllocated()-before, 1))
	}
	return p, err
}

// get takes an idle program of bp out of the cache, or returns nil.
func (pc *progCache) get(bp *boundPlan) any {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	k := len(bp.idle)
	if k == 0 {
		return nil
	}
	e := bp.idle[k-1]
	bp.idle[k-1] = nil
	bp.idle = bp.idle[:k-1]
	prog := e.prog
	pc.unlink(e)
	return prog
}

// put returns prog, a program of bp no execution uses any more, to the
// cache, evicting the least recently returned program when full.
func (pc *progCache) put(bp *boundPlan, prog any) {
	size := bp.size.settle()
	if size <= 0 || size > pc.maxBytes/progCacheMaxShare {
		return
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.closed {
		return
	}
	e := pc.spare
	if e != nil {
		pc.spare = e.next
		e.next = nil
	} else {
		e = &idleProg{}
	}
	e.bp, e.prog, e.size, e.gen = bp, prog, size, pc.gen
	e.next = pc.head
	if pc.head != nil {
		pc.head.prev = e
	} else {
		pc.tail = e
	}
	pc.head = e
	pc.n++
	pc.bytes += size
	bp.idle = append(bp.idle, e)
	for pc.n > pc.maxEntries || pc.bytes > pc.maxBytes {
		pc.evict(pc.tail)
	}
}

// sweepAtGC makes every garbage collection sweep the cache: a program
// returned before the previous collection and not used since is dropped,
// as a sync.Pool drops what survived one collection, so an idle database
// gives its programs' memory back. The cache is held weakly: a database
// dropped without Close is not kept alive by its sweeps.
func (pc *progCache) sweepAtGC() { armSweep(weak.Make(pc)) }

// armSweep arranges for wp's cache to be swept after the next garbage
// collection, and then again after each one until the cache is closed or
// collected.
func armSweep(wp weak.Pointer[progCache]) {
	// Not tiny (noscan objects under 16 bytes share blocks and go late).
	token := new([32]byte)
	runtime.AddCleanup(token, func(wp weak.Pointer[progCache]) {
		pc := wp.Value()
		if pc == nil || !pc.sweep() {
			return
		}
		armSweep(wp)
	}, wp)
}

// sweep drops the programs returned before the previous sweep; it reports
// false once the cache is closed.
func (pc *progCache) sweep() bool {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.closed {
		return false
	}
	for pc.tail != nil && pc.tail.gen < pc.gen {
		pc.evict(pc.tail)
	}
	pc.gen++
	return true
}

// close drops every idle program and keeps the cache empty from then on.
func (pc *progCache) close() {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.closed = true
	for pc.tail != nil {
		pc.evict(pc.tail)
	}
	pc.spare = nil
}

// evict drops e, removing it from its plan's idle list too.
func (pc *progCache) evict(e *idleProg) {
	idle := e.bp.idle
	for i, x := range idle {
		if x == e {
			// Keep the order: get takes the newest from the end.
			last := len(idle) - 1
			copy(idle[i:], idle[i+1:])
			idle[last] = nil
			e.bp.idle = idle[:last]
			break
		}
	}
	pc.unlink(e)
}

// unlink removes e from the recency list and keeps it as a spare, holding
// neither its plan nor its program.
func (pc *progCache) unlink(e *idleProg) {
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		pc.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		pc.tail = e.prev
	}
	pc.n--
	pc.bytes -= e.size
	*e = idleProg{next: pc.spare}
	pc.spare = e
}

// usage returns how many idle programs the cache holds and their bytes.
func (pc *progCache) usage() (n int, bytes int64) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.n, pc.bytes
}
