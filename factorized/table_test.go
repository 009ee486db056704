package factorized

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// dirtyPool returns a pool whose free list holds n blocks filled with 0xFF,
// as blocks recycled from earlier queries would be.
func dirtyPool(t testing.TB, n int) *Pool {
	t.Helper()
	p := NewPool(PoolOptions{})
	blocks := make([]*Block, n)
	for i := range blocks {
		blocks[i] = p.Get()
		_, ok := blocks[i].Claim(BlockSize)
		require.True(t, ok)
		for j := range blocks[i].buf {
			blocks[i].buf[j] = 0xFF
		}
	}
	for _, b := range blocks {
		p.Put(b)
	}
	require.Equal(t, n, p.FreeBlocks())
	return p
}

// wideSchema has 100-byte raw slots plus typed columns: 119-byte tuples, so
// a few dozen tuples cross several 4 KiB steps.
func wideSchema(t testing.TB) *Schema {
	t.Helper()
	s, err := NewSchema(Bytes(100), Int64(), Value(), Bool())
	require.NoError(t, err)
	return s
}

func requireZeroTuple(t *testing.T, r Row, what string) {
	t.Helper()
	for i, c := range r.Tuple() {
		if c != 0 {
			t.Fatalf("%s: tuple byte %d = %#x, want 0", what, i, c)
		}
	}
}

// fillTuple writes non-zero data into every column of r.
func fillTuple(r Row, seed int) {
	r.SetBytes(0, bytes.Repeat([]byte{0xAB}, 100))
	r.SetInt64(1, int64(seed)+1)
	r.SetText(2, fmt.Sprintf("value number %d, long enough for overflow", seed))
	r.SetBool(3, true)
}

func TestTable_ClaimedTuplesAreZeroOnRecycledBlocks(t *testing.T) {
	p := dirtyPool(t, 1)
	tb := NewTable(p, wideSchema(t))
	n := 3*ZeroStep/tb.width + 5 // spans more than three 4 KiB steps
	for i := range n {
		requireZeroTuple(t, tb.Append(), fmt.Sprintf("append %d", i))
	}
	require.Equal(t, 0, p.FreeBlocks(), "the table must have taken the recycled block")
	require.Equal(t, int64(1), p.Allocated())
	for i, r := range tb.All() {
		requireZeroTuple(t, r, fmt.Sprintf("scan %d", i))
		fillTuple(r, i)
	}

	// Shrink, then grow past another 4 KiB step: the regrown tuples held data.
	require.NoError(t, tb.Truncate(3))
	for i := 3; i < n+ZeroStep/tb.width; i++ {
		requireZeroTuple(t, tb.Append(), fmt.Sprintf("regrow %d", i))
	}

	for _, r := range tb.All() {
		fillTuple(r, 1)
	}
	tb.Reset()
	for i := range n {
		requireZeroTuple(t, tb.Append(), fmt.Sprintf("after reset %d", i))
	}
}

func TestTable_ClaimsAfterMergeKeepCopiedTuples(t *testing.T) {
	p := dirtyPool(t, 4)
	s := wideSchema(t)
	dst := NewTable(p, s)
	fillTuple(dst.Append(), 1000) // frontier at 4 KiB, overflow chunk 0 in use
	src := NewTable(p, s)
	n := 2*ZeroStep/s.width + 3 // copied tuples reach past dst's frontier
	for i := range n {
		fillTuple(src.Append(), i)
	}
	require.NoError(t, dst.Merge(src))
	require.Equal(t, 0, src.Len())
	require.Equal(t, n+1, dst.Len())

	for i := range 40 {
		requireZeroTuple(t, dst.Append(), fmt.Sprintf("claim %d after merge", i))
	}
	checkFilled(t, dst, 0, 1000)
	for i := range n {
		checkFilled(t, dst, i+1, i)
	}
}

func checkFilled(t *testing.T, tb *Table, row, seed int) {
	t.Helper()
	r := tb.Row(row)
	require.Equal(t, bytes.Repeat([]byte{0xAB}, 100), r.Bytes(0), "row %d", row)
	require.Equal(t, int64(seed)+1, r.Int64(1), "row %d", row)
	require.Equal(t, fmt.Sprintf("value number %d, long enough for overflow", seed), r.Text(2), "row %d", row)
	require.True(t, r.Bool(3), "row %d", row)
}

func TestTable_TuplesAreZeroAfterShrinkAndRegrow(t *testing.T) {
	p := dirtyPool(t, 3)
	tb := NewTable(p, wideSchema(t))
	n := tb.perBlock + 50 // two blocks
	for i := range n {
		fillTuple(tb.Append(), i)
	}
	for _, keep := range []int{tb.perBlock + 10, tb.perBlock - 7, 1, 0} {
		require.NoError(t, tb.Truncate(keep))
		for i := keep; i < n; i++ {
			requireZeroTuple(t, tb.Append(), fmt.Sprintf("keep %d, regrow %d", keep, i))
		}
		for i := 0; i < keep; i++ {
			checkFilled(t, tb, i, i)
		}
		for i := keep; i < n; i++ {
			fillTuple(tb.Row(i), i)
		}
	}
	require.ErrorIs(t, tb.Truncate(n+1), ErrOutOfRange)
	require.ErrorIs(t, tb.Truncate(-1), ErrOutOfRange)
}

func TestTable_NullBitsNeverLeak(t *testing.T) {
	p := dirtyPool(t, 1)
	s, err := NewSchema(Int64(), Value(), Float64(), Bool(), Bytes(3))
	require.NoError(t, err)
	tb := NewTable(p, s)

	r := tb.Append() // a slot of a 0xFF block
	r.SetInt64(0, 7)
	for c := range s.NumColumns() {
		require.False(t, r.IsNull(c) && c != 1, "column %d of a claimed tuple reads NULL", c)
	}
	require.True(t, r.IsNull(1), "a zeroed value cell is NULL")

	for c := range s.NumColumns() {
		r.SetNull(c)
		require.True(t, r.IsNull(c))
	}
	r.SetInt64(0, 1)
	r.SetValue(1, KindInt, 2, nil)
	r.SetFloat64(2, 3)
	r.SetBool(3, false)
	r.SetBytes(4, []byte("ab"))
	for c := range s.NumColumns() {
		require.False(t, r.IsNull(c), "column %d after overwriting NULL", c)
	}
	k, bits, _ := r.Value(1)
	require.Equal(t, KindInt, k)
	require.Equal(t, uint64(2), bits)
	require.Equal(t, []byte("ab\x00"), r.Bytes(4))

	// A NULL tuple given up and claimed again holds no NULL bits.
	for c := range s.NumColumns() {
		r.SetNull(c)
	}
	require.NoError(t, tb.Truncate(0))
	r = tb.Append()
	r.SetInt64(0, 9)
	require.False(t, r.IsNull(0))
	require.False(t, r.IsNull(2))
}

func TestTable_OneRowZeroesAtMost4KiB(t *testing.T) {
	p := dirtyPool(t, 1)
	s, err := NewSchema(Value())
	require.NoError(t, err)
	before := p.ZeroedBytes()
	tb := NewTable(p, s)
	tb.Append().SetValue(0, KindInt, 1, nil)
	k, bits, _ := tb.Value(0, 0)
	require.Equal(t, KindInt, k)
	require.Equal(t, uint64(1), bits)
	zeroed := p.ZeroedBytes() - before
	require.Positive(t, zeroed, "a recycled block must be zeroed where claimed")
	require.LessOrEqual(t, zeroed, int64(ZeroStep))

	// Reset zeroes only the high-water mark: here 10 tuples.
	for range 9 {
		tb.Append().SetValue(0, KindText, 0, []byte("some text past eight bytes"))
	}
	before = p.ZeroedBytes()
	tb.Reset()
	require.Equal(t, int64(10*s.Width()), p.ZeroedBytes()-before)
	before = p.ZeroedBytes()
	requireZeroTuple(t, tb.Append(), "after reset")
	require.Equal(t, before, p.ZeroedBytes(), "claims below the reset mark zero nothing")
}

func TestTable_Merge_SchemaMismatch(t *testing.T) {
	a := NewTable(nil, MustSchema(Int64()))
	require.ErrorIs(t, a.Merge(NewTable(nil, MustSchema(Float64()))), ErrSchemaMismatch)
	require.ErrorIs(t, a.Merge(a), ErrSelfMerge)
}

func TestTable_Merge_MovesFullBlocksAndRebasesOverflow(t *testing.T) {
	p := NewPool(PoolOptions{})
	s := MustSchema(Value(), Int64())
	dst, src := NewTable(p, s), NewTable(p, s)
	long := func(i int) string { return fmt.Sprintf("a long text value %08d", i) }
	for i := range dst.perBlock { // exactly one full block
		r := dst.Append()
		r.SetText(0, long(i))
		r.SetInt64(1, int64(i))
	}
	m := 2*dst.perBlock + 17
	for i := range m {
		r := src.Append()
		r.SetText(0, long(-i))
		r.SetInt64(1, int64(-i))
	}
	require.NoError(t, dst.Merge(src))
	require.Equal(t, dst.perBlock+m, dst.Len())
	for i, r := range dst.All() {
		want := i
		if i >= dst.perBlock {
			want = -(i - dst.perBlock)
		}
		if r.Text(0) != long(want) || r.Int64(1) != int64(want) {
			t.Fatalf("row %d: %q, %d; want %q, %d", i, r.Text(0), r.Int64(1), long(want), want)
		}
	}
	require.Zero(t, src.SizeBytes())
}

func TestTable_Value_AllKinds(t *testing.T) {
	tb := NewTable(nil, MustSchema(Value()))
	big := bytes.Repeat([]byte("x"), dedicatedMin+1)
	cases := []struct {
		kind uint8
		bits uint64
		b    []byte
	}{
		{KindNull, 0, nil}, {KindInt, 1<<63 | 5, nil}, {KindReal, 0x400921fb54442d18, nil},
		{KindText, 0, []byte{}}, {KindText, 0, []byte("12345678")}, {KindText, 0, []byte("123456789")},
		{KindBlob, 0, []byte{0, 1, 2}}, {KindBlob, 0, big}, {KindText, 0, bytes.Repeat([]byte("y"), 5000)},
	}
	for _, c := range cases {
		tb.Append().SetValue(0, c.kind, c.bits, c.b)
	}
	for i, c := range cases {
		k, bits, b := tb.Value(i, 0)
		require.Equal(t, c.kind, k, "case %d", i)
		require.Equal(t, c.bits, bits, "case %d", i)
		require.Equal(t, len(c.b), len(b), "case %d", i)
		require.True(t, bytes.Equal(c.b, b), "case %d", i)
	}
	require.Greater(t, tb.SizeBytes(), int64(BlockSize+len(big)))
	tb.Append().SetValue(0, 99, 1, nil)
	require.True(t, tb.IsNull(len(cases), 0), "an unknown kind is stored as NULL")
}

func TestTable_Overflow_AllocatesNothingUntilUsed(t *testing.T) {
	p := NewPool(PoolOptions{})
	tb := NewTable(p, MustSchema(Value()))
	tb.Append().SetText(0, "short")
	require.Equal(t, int64(BlockSize), tb.SizeBytes())
	require.Equal(t, int64(1), p.Allocated())
	tb.Append().SetText(0, "not short anymore")
	require.Equal(t, int64(2*BlockSize), tb.SizeBytes())
	tb.Release()
	require.Zero(t, tb.SizeBytes())
	require.Equal(t, 2, p.FreeBlocks())
}

func TestNewSchema_Invalid(t *testing.T) {
	_, err := NewSchema(Bytes(0))
	require.ErrorIs(t, err, ErrBadColumn)
	_, err = NewSchema(Column{Type: 77})
	require.ErrorIs(t, err, ErrBadColumn)
	_, err = NewSchema(Bytes(BlockSize))
	require.ErrorIs(t, err, ErrTupleTooWide)
	s, err := NewSchema()
	require.NoError(t, err)
	require.Equal(t, 1, s.Width())
	require.Panics(t, func() { MustSchema(Bytes(-1)) })
}

func TestTable_Init_ReleasesAndReuses(t *testing.T) {
	p := NewPool(PoolOptions{})
	var tb Table
	tb.Init(p, MustSchema(Int64()))
	tb.Append().SetInt64(0, 5)
	require.Equal(t, 0, p.FreeBlocks())
	tb.Init(p, MustSchema(Value()))
	require.Equal(t, 1, p.FreeBlocks(), "Init released the old block")
	require.Zero(t, tb.Len())
	tb.Append().SetText(0, "x")
	require.Equal(t, "x", tb.Text(0, 0))
}
