package factorized

import (
	"fmt"
	"iter"
)

// Table is a factorized table: tuples of one Schema in pooled blocks, each
// block holding a whole number of tuples and every block but the last full,
// plus an overflow buffer for long text and blobs. Tuple i lives in block
// i/perBlock. A Table is not safe for concurrent use, and must not be
// copied once used (it may point into itself); pass *Table.
type Table struct {
	schema   *Schema
	pool     *Pool
	blocks   []*Block
	rows     int
	perBlock int // tuples per block
	width    int // tuple width
	ovf      overflow
	one      [1]*Block // backs blocks while there is one, sparing a small query an allocation
}

// NewTable returns an empty table drawing blocks from p (nil: unpooled). It
// holds no block until the first tuple is appended.
func NewTable(p *Pool, s *Schema) *Table {
	t := new(Table)
	t.Init(p, s)
	return t
}

// Init makes t an empty table of schema s drawing blocks from p, releasing
// anything it held. It lets a Table live inside an operator's struct
// without an allocation of its own.
func (t *Table) Init(p *Pool, s *Schema) {
	if t.schema != nil {
		t.Release()
	}
	*t = Table{schema: s, pool: p, width: s.width, perBlock: BlockSize / s.width, ovf: newOverflow(p)}
	t.blocks = t.one[:0]
}

// Schema returns the table's schema.
func (t *Table) Schema() *Schema { return t.schema }

// Len returns the number of tuples.
func (t *Table) Len() int { return t.rows }

// Append adds a tuple that reads as zero in every byte (every column
// non-NULL and zero, except TypeValue cells, which read as NULL) and returns
// a view of it; its index is Len()-1.
func (t *Table) Append() Row {
	if t.rows == len(t.blocks)*t.perBlock {
		t.blocks = append(t.blocks, t.pool.Get())
	}
	b := t.blocks[len(t.blocks)-1]
	off, _ := b.Claim(t.width) // fits: the block has room for a whole tuple
	t.rows++
	return Row{t: t, b: b.buf[off : off+t.width : off+t.width]}
}

// AppendZero is Append returning the new tuple's index.
func (t *Table) AppendZero() int {
	t.Append()
	return t.rows - 1
}

// Row returns a view of tuple i (0 ≤ i < Len()).
func (t *Table) Row(i int) Row {
	bi, off := 0, i*t.width
	if i >= t.perBlock { // small tables skip the division
		bi = i / t.perBlock
		off = (i - bi*t.perBlock) * t.width
	}
	return Row{t: t, b: t.blocks[bi].buf[off : off+t.width : off+t.width]}
}

// All iterates over the tuples in order, block by block.
func (t *Table) All() iter.Seq2[int, Row] {
	return func(yield func(int, Row) bool) {
		i := 0
		for _, b := range t.blocks {
			for off := 0; off < b.used; off += t.width {
				if !yield(i, Row{t: t, b: b.buf[off : off+t.width : off+t.width]}) {
					return
				}
				i++
			}
		}
	}
}

// Truncate shrinks the table to its first n tuples. Blocks no longer needed
// go back to the pool; the last kept block's frontier is pulled back so the
// space given up is zeroed again when it is claimed again. Overflow bytes of
// the dropped tuples are not reclaimed until Reset or Release.
func (t *Table) Truncate(n int) error {
	if n < 0 || n > t.rows {
		return fmt.Errorf("factorized: truncate table of %d tuples to %d: %w", t.rows, n, ErrOutOfRange)
	}
	keep := (n + t.perBlock - 1) / t.perBlock
	for i := keep; i < len(t.blocks); i++ {
		t.pool.Put(t.blocks[i])
		t.blocks[i] = nil
	}
	t.blocks = t.blocks[:keep]
	t.rows = n
	if keep > 0 {
		return t.blocks[keep-1].Truncate((n - (keep-1)*t.perBlock) * t.width)
	}
	return nil
}

// Reset empties the table for reuse (by a cached plan): the first block is
// kept and Reset, zeroing only the bytes it ever used, the rest and the
// overflow buffer go back to the pool.
func (t *Table) Reset() {
	if len(t.blocks) == 0 {
		t.ovf.release()
		t.rows = 0
		return
	}
	first := t.blocks[0]
	t.blocks[0] = nil
	t.Release()
	first.Reset()
	t.blocks = append(t.blocks, first)
}

// Release empties the table and returns every block to the pool, so an idle
// table holds no memory. The table stays usable.
func (t *Table) Release() {
	for i, b := range t.blocks {
		t.pool.Put(b)
		t.blocks[i] = nil
	}
	t.blocks = t.blocks[:0]
	t.ovf.release()
	t.rows = 0
}

// SizeBytes returns the memory the table holds: its blocks and overflow
// chunks.
func (t *Table) SizeBytes() int64 {
	return int64(len(t.blocks))*BlockSize + t.ovf.bytes
}

// Typed cell accessors by tuple index; each is Row(row) and the Row method
// of the same name.

// IsNull reports whether cell (row, c) is NULL.
func (t *Table) IsNull(row, c int) bool { return t.Row(row).IsNull(c) }

// SetNull makes cell (row, c) NULL.
func (t *Table) SetNull(row, c int) { t.Row(row).SetNull(c) }

// Int64 returns cell (row, c).
func (t *Table) Int64(row, c int) int64 { return t.Row(row).Int64(c) }

// SetInt64 sets cell (row, c).
func (t *Table) SetInt64(row, c int, v int64) { t.Row(row).SetInt64(c, v) }

// Float64 returns cell (row, c).
func (t *Table) Float64(row, c int) float64 { return t.Row(row).Float64(c) }

// SetFloat64 sets cell (row, c).
func (t *Table) SetFloat64(row, c int, v float64) { t.Row(row).SetFloat64(c, v) }

// Bool returns cell (row, c).
func (t *Table) Bool(row, c int) bool { return t.Row(row).Bool(c) }

// SetBool sets cell (row, c).
func (t *Table) SetBool(row, c int, v bool) { t.Row(row).SetBool(c, v) }

// Bytes returns a writable view of TypeBytes cell (row, c).
func (t *Table) Bytes(row, c int) []byte { return t.Row(row).Bytes(c) }

// SetBytes copies v into TypeBytes cell (row, c), zero-padded.
func (t *Table) SetBytes(row, c int, v []byte) { t.Row(row).SetBytes(c, v) }

// Value returns TypeValue cell (row, c); see Row.Value for the aliasing
// caveat.
func (t *Table) Value(row, c int) (kind uint8, bits uint64, b []byte) { return t.Row(row).Value(c) }

// SetValue sets TypeValue cell (row, c); see Row.SetValue.
func (t *Table) SetValue(row, c int, kind uint8, bits uint64, b []byte) {
	t.Row(row).SetValue(c, kind, bits, b)
}

// Text returns TypeValue cell (row, c) as a string view; see Row.Text.
func (t *Table) Text(row, c int) string { return t.Row(row).Text(c) }
