package factorized

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func recycledBlock(t *testing.T, p *Pool) *Block {
	t.Helper()
	b := p.Get()
	b.Claim(BlockSize)
	for i := range b.buf {
		b.buf[i] = 0xEE
	}
	p.Put(b)
	got := p.Get()
	require.Same(t, b, got, "the free list is LIFO")
	return got
}

func TestBlock_Claim_ZeroesToNextStep(t *testing.T) {
	p := NewPool(PoolOptions{})
	b := recycledBlock(t, p)
	before := p.ZeroedBytes()
	off, ok := b.Claim(10)
	require.True(t, ok)
	require.Equal(t, 0, off)
	require.Equal(t, ZeroStep, b.Zeroed())
	require.Equal(t, int64(ZeroStep), p.ZeroedBytes()-before)
	require.Equal(t, byte(0xEE), b.buf[ZeroStep], "bytes past the step stay untouched")

	off, ok = b.Claim(ZeroStep)
	require.True(t, ok)
	require.Equal(t, 10, off)
	require.Equal(t, 2*ZeroStep, b.Zeroed())

	_, ok = b.Claim(BlockSize)
	require.False(t, ok, "a claim past the block fails")
	_, ok = b.Claim(-1)
	require.False(t, ok)
	_, ok = b.Claim(b.Free())
	require.True(t, ok)
	require.Equal(t, BlockSize, b.Zeroed(), "the frontier is capped at the block")
	require.Zero(t, b.Free())
}

func TestBlock_CopyIn_MovesFrontier(t *testing.T) {
	p := NewPool(PoolOptions{})
	b := recycledBlock(t, p)
	b.Claim(1)
	src := make([]byte, 2*ZeroStep)
	for i := range src {
		src[i] = 7
	}
	require.Equal(t, len(src), b.CopyIn(src))
	require.Equal(t, 1+len(src), b.Zeroed())
	off, _ := b.Claim(1)
	require.Equal(t, byte(7), b.buf[off-1], "the claim left the copied bytes alone")
	require.Zero(t, b.buf[off])
}

func TestBlock_Truncate_PullsFrontierBack(t *testing.T) {
	p := NewPool(PoolOptions{})
	b := recycledBlock(t, p)
	b.Claim(100)
	b.buf[50] = 1
	require.NoError(t, b.Truncate(40))
	require.Equal(t, 40, b.Zeroed())
	off, _ := b.Claim(60)
	require.Zero(t, b.buf[off+10])
	require.ErrorIs(t, b.Truncate(101), ErrOutOfRange)
}

func TestBlock_Reset_ZeroesHighWaterMarkOnly(t *testing.T) {
	p := NewPool(PoolOptions{})
	b := recycledBlock(t, p)
	b.Claim(300)
	for i := range 300 {
		b.buf[i] = 1
	}
	require.NoError(t, b.Truncate(100))
	before := p.ZeroedBytes()
	b.Reset()
	require.Equal(t, int64(300), p.ZeroedBytes()-before)
	require.Equal(t, 0, b.Len())
	require.Equal(t, 300, b.Zeroed())
	for i := range 300 {
		require.Zero(t, b.buf[i])
	}
}

func TestPool_Get_EagerZeroesWholeBlock(t *testing.T) {
	p := NewPool(PoolOptions{EagerZero: true})
	b := p.Get()
	require.Equal(t, int64(BlockSize), p.ZeroedBytes())
	b.Claim(10)
	require.Equal(t, int64(BlockSize), p.ZeroedBytes(), "an eager block needs no zeroing on claim")
	b.Reset()
	require.Equal(t, int64(2*BlockSize), p.ZeroedBytes())
}

func TestPool_Put_IgnoresDoublePutAndForeignSizes(t *testing.T) {
	p := NewPool(PoolOptions{MaxFree: 2})
	b := p.Get()
	p.Put(b)
	p.Put(b)
	require.Equal(t, 1, p.FreeBlocks())
	p.Put(&Block{buf: make([]byte, 10)})
	p.Put(nil)
	require.Equal(t, 1, p.FreeBlocks())
	p.Put(p.Get())
	p.Put(&Block{buf: make([]byte, BlockSize)})
	p.Put(&Block{buf: make([]byte, BlockSize)})
	require.Equal(t, 2, p.FreeBlocks(), "MaxFree bounds the list")
	p.Drain()
	require.Zero(t, p.FreeBlocks())
	require.NotNil(t, p.Get())
}

func TestPool_GetZeroed_ClaimsZeroedPrefix(t *testing.T) {
	p := NewPool(PoolOptions{})
	p.Put(recycledBlock(t, p)) // dirty, back on the list
	b := p.GetZeroed(3 * ZeroStep)
	require.Equal(t, 3*ZeroStep, b.Len())
	for _, c := range b.Bytes() {
		require.Zero(t, c)
	}
	var nilPool *Pool
	nb := nilPool.GetZeroed(BlockSize + 1)
	require.Equal(t, BlockSize, nb.Len())
	nilPool.Put(nb)
	require.Zero(t, nilPool.ZeroedBytes())
}
