package factorized

import "fmt"

// BlockSize is the size of every pooled block: 256 KiB.
const BlockSize = 256 << 10

// ZeroStep is the granularity of lazy zeroing: Claim zeroes up to the end of
// the claim rounded up to a multiple of ZeroStep (4 KiB).
const ZeroStep = 4 << 10

// Block is a byte buffer handed out by a Pool, filled front to back by Claim
// (space that reads as zero) or CopyIn (bytes copied from elsewhere).
//
// A block coming from the pool's free list still holds whatever its previous
// user wrote; the zeroed frontier records how much of it is known to be zero
// or overwritten since, so a claim zeroes only the part it needs.
type Block struct {
	buf []byte

	// used is the cursor: bytes [0, used) belong to the block's owner.
	used int
	// zeroed is the frontier: bytes [used, zeroed) read as zero.
	// Invariant: 0 ≤ used ≤ zeroed ≤ len(buf).
	zeroed int
	// dirty is the high-water mark of used since the block was handed out or
	// last Reset: bytes at or past max(dirty, zeroed) were never written by
	// the current owner. Invariant: used ≤ dirty ≤ len(buf).
	dirty int

	pool   *Pool // counts zeroed bytes; nil for a block outside any pool
	eager  bool  // zero the whole block on hand-out and Reset (A/B baseline)
	inPool bool  // on the pool's free list; guards against a double Put
}

// Len returns the number of bytes claimed or copied in so far (the cursor).
func (b *Block) Len() int { return b.used }

// Free returns how many bytes can still be claimed.
func (b *Block) Free() int { return len(b.buf) - b.used }

// Zeroed returns the zeroed frontier: bytes from Len() up to it read as zero.
func (b *Block) Zeroed() int { return b.zeroed }

// Bytes returns a view of the claimed part of the block. It aliases the
// block, which goes back to the pool (and to another owner) on Reset or
// Release of the table that holds it.
func (b *Block) Bytes() []byte { return b.buf[:b.used] }

// Claim reserves the next n bytes and returns their offset; they read as
// zero. It zeroes from the frontier to the claim's end rounded up to
// ZeroStep, capped at the block, and never more. ok is false, and nothing
// changes, if n is negative or does not fit.
func (b *Block) Claim(n int) (off int, ok bool) {
	if n < 0 || n > len(b.buf)-b.used {
		return 0, false
	}
	off = b.used
	end := off + n
	if end > b.zeroed {
		b.zeroTo(min(roundUp(end, ZeroStep), len(b.buf)))
	}
	b.used = end
	b.dirty = max(b.dirty, end)
	b.check()
	return off, true
}

// CopyIn appends as much of src as fits, without zeroing, and returns how
// many bytes it copied. Copied bytes are written, so the frontier moves past
// them: a later Claim never zeroes them.
func (b *Block) CopyIn(src []byte) int {
	n := copy(b.buf[b.used:], src)
	b.used += n
	b.zeroed = max(b.zeroed, b.used)
	b.dirty = max(b.dirty, b.used)
	b.check()
	return n
}

// Truncate shrinks the claimed part to n bytes. The bytes given up hold old
// data, so the frontier is pulled back to the new cursor and a later Claim
// zeroes them again.
func (b *Block) Truncate(n int) error {
	if n < 0 || n > b.used {
		return fmt.Errorf("factorized: truncate block of %d bytes to %d: %w", b.used, n, ErrOutOfRange)
	}
	b.used = n
	b.zeroed = n
	b.check()
	return nil
}

// Reset empties the block for reuse by the same owner. It zeroes only the
// bytes written since the block was handed out (the high-water mark), so the
// whole previously used part reads as zero again and later claims within it
// zero nothing.
func (b *Block) Reset() {
	if b.eager {
		b.used, b.dirty = 0, 0
		b.zeroAll()
		return
	}
	clear(b.buf[:b.dirty])
	b.pool.countZeroed(b.dirty)
	b.zeroed = max(b.zeroed, b.dirty)
	b.used, b.dirty = 0, 0
	b.check()
}

// zeroTo zeroes [zeroed, to) and moves the frontier to to.
func (b *Block) zeroTo(to int) {
	clear(b.buf[b.zeroed:to])
	b.pool.countZeroed(to - b.zeroed)
	b.zeroed = to
}

// zeroAll zeroes the whole block, as the eager baseline does.
func (b *Block) zeroAll() {
	clear(b.buf)
	b.pool.countZeroed(len(b.buf))
	b.zeroed = len(b.buf)
}

// roundUp rounds n up to a multiple of step, a power of two.
func roundUp(n, step int) int { return (n + step - 1) &^ (step - 1) }
