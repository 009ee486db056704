package exec

import (
	"sync/atomic"
	"unsafe"

	"github.com/ladybugsql/ladybug/engine/types"
)

// BatchSize is the most rows a Batch holds.
const BatchSize = 1024

// Batch is a set of rows stored column by column. Sel, when non-nil, lists
// the live physical rows in ascending order; otherwise rows 0..N-1 are live.
type Batch struct {
	Cols [][]types.Value
	N    int
	Sel  []int32
}

// NewBatch returns a batch with ncol columns of capacity BatchSize.
func NewBatch(ncol int) *Batch { return newBatchCap(ncol, BatchSize) }

// newBatchCap is NewBatch with room for n rows (n <= BatchSize).
func newBatchCap(ncol, n int) *Batch {
	b := &Batch{Cols: make([][]types.Value, ncol)}
	backing := make([]types.Value, ncol*n)
	for i := range b.Cols {
		b.Cols[i] = backing[i*n : (i+1)*n : (i+1)*n]
	}
	return b
}

// grownBytes counts the bytes of column buffers fit and reserve allocated
// (see GrownBytes).
var grownBytes atomic.Int64

// GrownBytes returns the bytes of batch columns and expression buffers
// allocated since the process started. Buffers start empty and grow to the
// batches an execution meets, so a program's memory is what its build
// allocated plus what its executions grew; the engine's program cache
// reads the difference across a program's first build and execution.
func GrownBytes() int64 { return grownBytes.Load() }

func countGrown(values int) {
	grownBytes.Add(int64(values) * int64(unsafe.Sizeof(types.Value{})))
}

// emptyBatch is a batch of ncol columns with no room yet: its owner
// makes room with reserve or ensureRow as rows arrive, so an operator
// over a few rows never holds BatchSize values a column. A batch of up to
// eight columns and its column headers are one allocation.
func emptyBatch(ncol int) *Batch {
	switch {
	case ncol <= 2:
		return newBatchMem[[2][]types.Value](ncol)
	case ncol <= 4:
		return newBatchMem[[4][]types.Value](ncol)
	case ncol <= 8:
		return newBatchMem[[8][]types.Value](ncol)
	}
	return &Batch{Cols: make([][]types.Value, ncol)}
}

// batchMem is a Batch with room for its column headers.
type batchMem[A colHeaders] struct {
	b    Batch
	cols A
}

type colHeaders interface {
	[2][]types.Value | [4][]types.Value | [8][]types.Value
}

// newBatchMem returns an empty batch of ncol columns (at most A's length)
// allocated with its column headers.
func newBatchMem[A colHeaders](ncol int) *Batch {
	return (&batchMem[A]{}).batch(ncol)
}

// batch returns m's empty batch of ncol columns, or a batch of its own
// when ncol is more than m has room for (an operator holding a batchMem
// makes its output batch with no allocation of its own).
func (m *batchMem[A]) batch(ncol int) *Batch {
	if ncol > len(m.cols) {
		return emptyBatch(ncol)
	}
	m.b.Cols = unsafe.Slice(&m.cols[0], len(m.cols))[:ncol:ncol]
	return &m.b
}

// reserve makes room for n rows in every column, keeping the N rows b
// holds; a column grows to the next power of two (see roomFor), all short
// columns from one allocation.
func (b *Batch) reserve(n int) { growColumns(b.Cols, n, b.N, nil) }

// growColumns gives each column of cols shorter than n room for n rows,
// the next power of two (roomFor), all from one allocation, keeping their
// first keep values. With owned set, only columns i with owned[i] < 0
// are grown (a projection's computed ones; the others are its input's).
func growColumns(cols [][]types.Value, n, keep int, owned []int) {
	short := 0
	for i, col := range cols {
		if len(col) < n && (owned == nil || owned[i] < 0) {
			short++
		}
	}
	if short == 0 {
		return
	}
	size := roomFor(n)
	backing := make([]types.Value, short*size)
	countGrown(short * size)
	for i, col := range cols {
		if len(col) >= n || owned != nil && owned[i] >= 0 {
			continue
		}
		grown := backing[:size:size]
		backing = backing[size:]
		copy(grown, col[:min(keep, len(col))])
		cols[i] = grown
	}
}

// ensureRow makes room for row N (one more row).
func (b *Batch) ensureRow() {
	if len(b.Cols) > 0 && len(b.Cols[0]) <= b.N {
		b.reserve(b.N + 1)
	}
}

// Len returns the number of live rows.
func (b *Batch) Len() int {
	if b.Sel != nil {
		return len(b.Sel)
	}
	return b.N
}

// Reset empties the batch for reuse.
func (b *Batch) Reset() {
	b.N = 0
	b.Sel = nil
}

// ForEach calls fn with the physical index of every live row.
func (b *Batch) ForEach(fn func(i int)) {
	if b.Sel != nil {
		for _, i := range b.Sel {
			fn(int(i))
		}
		return
	}
	for i := 0; i < b.N; i++ {
		fn(i)
	}
}

// Phys returns the physical index of the k-th live row.
func (b *Batch) Phys(k int) int {
	if b.Sel != nil {
		return int(b.Sel[k])
	}
	return k
}

// Row copies live row k into dst.
func (b *Batch) Row(k int, dst []types.Value) {
	i := b.Phys(k)
	for c := range dst {
		dst[c] = b.Cols[c][i]
	}
}
