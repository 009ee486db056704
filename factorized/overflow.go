package factorized

// Overflow references: a text or blob value longer than 8 bytes is stored in
// an overflow chunk and its 8-byte slot holds
//
//	chunk<<refChunkShift | offset<<refOffShift | length
//
// A length field of 0 marks a dedicated chunk holding exactly one large value
// (its length is the chunk's); empty values are always inline, so the two
// never collide.
const (
	refLenBits    = 19 // lengths up to BlockSize
	refOffBits    = 19 // offsets below BlockSize
	refOffShift   = refLenBits
	refChunkShift = refLenBits + refOffBits
	refLenMask    = 1<<refLenBits - 1
	refOffMask    = 1<<refOffBits - 1

	// dedicatedMin is the length from which a value gets a chunk of its own
	// instead of sharing a pooled block, so a large value never wastes the
	// tail of a block.
	dedicatedMin = BlockSize / 4
)

// overflow is a table's variable-length storage: chunks filled front to back
// with CopyIn, never zeroed (every byte handed out was just written). It
// holds nothing and allocates nothing until the first value longer than 8
// bytes arrives.
type overflow struct {
	pool   *Pool
	chunks []*Block
	cur    int   // index of the pooled chunk receiving small values; -1 if none (set by newOverflow)
	bytes  int64 // bytes held by chunks, for size accounting
}

// add copies v (len(v) > 8) into the buffer and returns its reference.
func (o *overflow) add(v []byte) uint64 {
	if len(v) >= dedicatedMin {
		o.chunks = append(o.chunks, &Block{buf: append([]byte(nil), v...), used: len(v), zeroed: len(v), dirty: len(v)})
		o.bytes += int64(len(v))
		return uint64(len(o.chunks)-1) << refChunkShift
	}
	if o.cur < 0 || o.chunks[o.cur].Free() < len(v) {
		o.chunks = append(o.chunks, o.pool.Get())
		o.cur = len(o.chunks) - 1
		o.bytes += BlockSize
	}
	c := o.chunks[o.cur]
	off := c.Len()
	c.CopyIn(v)
	return uint64(o.cur)<<refChunkShift | uint64(off)<<refOffShift | uint64(len(v))
}

// get returns a view of the value ref points to.
func (o *overflow) get(ref uint64) []byte {
	c := o.chunks[ref>>refChunkShift]
	n := int(ref & refLenMask)
	if n == 0 {
		return c.buf[:c.used:c.used]
	}
	off := int(ref >> refOffShift & refOffMask)
	return c.buf[off : off+n : off+n]
}

// absorb moves o2's chunks to the end of o's and returns the chunk index
// offset that o2's references need added.
func (o *overflow) absorb(o2 *overflow) uint64 {
	base := uint64(len(o.chunks))
	if len(o2.chunks) == 0 {
		return base
	}
	if o.cur < 0 && o2.cur >= 0 {
		o.cur = int(base) + o2.cur
	}
	o.chunks = append(o.chunks, o2.chunks...)
	o.bytes += o2.bytes
	clear(o2.chunks)
	o2.chunks, o2.cur, o2.bytes = o2.chunks[:0], -1, 0
	return base
}

// release returns every pooled chunk and leaves the buffer empty.
func (o *overflow) release() {
	for i, c := range o.chunks {
		o.pool.Put(c)
		o.chunks[i] = nil
	}
	o.chunks, o.cur, o.bytes = o.chunks[:0], -1, 0
}

func newOverflow(p *Pool) overflow { return overflow{pool: p, cur: -1} }
