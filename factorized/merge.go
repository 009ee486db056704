package factorized

import "fmt"

// Merge moves every tuple of o to the end of t and leaves o empty (still
// usable). Full blocks of o are moved whole when t's last block is full;
// otherwise tuples are copied into t's blocks with Block.CopyIn, which moves
// the zeroed frontier past them so later claims never clear them. o's
// overflow chunks move to t and the copied references are rebased.
func (t *Table) Merge(o *Table) error {
	if o == t {
		return ErrSelfMerge
	}
	if !t.schema.Equal(o.schema) {
		return fmt.Errorf("factorized: merge %d-column table into %d-column table: %w",
			o.schema.NumColumns(), t.schema.NumColumns(), ErrSchemaMismatch)
	}
	base := t.ovf.absorb(&o.ovf)
	for i, sb := range o.blocks {
		o.blocks[i] = nil
		if t.rows == len(t.blocks)*t.perBlock && sb.used == t.perBlock*t.width {
			t.blocks = append(t.blocks, sb)
			t.rebase(sb.buf[:sb.used], base)
			t.rows += t.perBlock
			continue
		}
		t.copyTuples(sb.buf[:sb.used], base)
		o.pool.Put(sb)
	}
	o.blocks = o.blocks[:0]
	o.rows = 0
	return nil
}

// copyTuples appends the whole tuples in src, filling t's last block before
// taking new ones.
func (t *Table) copyTuples(src []byte, base uint64) {
	for len(src) > 0 {
		if t.rows == len(t.blocks)*t.perBlock {
			t.blocks = append(t.blocks, t.pool.Get())
		}
		b := t.blocks[len(t.blocks)-1]
		n := min(len(src), b.Free()/t.width*t.width)
		start := b.used
		b.CopyIn(src[:n])
		t.rebase(b.buf[start:b.used], base)
		t.rows += n / t.width
		src = src[n:]
	}
}

// rebase adds base to the chunk index of every overflow reference in the
// tuples of buf.
func (t *Table) rebase(buf []byte, base uint64) {
	if base == 0 || len(t.schema.values) == 0 {
		return
	}
	for off := 0; off < len(buf); off += t.width {
		for _, c := range t.schema.values {
			s := buf[off+t.schema.offs[c]:]
			k := s[8] & kindMask
			if (k == KindText || k == KindBlob) && s[8]>>inlineShift == 0 && !t.nullAt(buf[off:], c) {
				le.PutUint64(s, le.Uint64(s)+base<<refChunkShift)
			}
		}
	}
}

func (t *Table) nullAt(tuple []byte, c int) bool {
	return tuple[t.schema.nullOff+c>>3]&(1<<(c&7)) != 0
}
