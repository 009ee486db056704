package exec

import "github.com/ladybugsql/ladybug/engine/types"

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
