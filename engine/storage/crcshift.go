package storage

import (
	"encoding/binary"
	"hash/crc32"
	"sync"
)

// crcShift extends a CRC-32C over n more bytes without reading them, given
// their own CRC: the CRC of a||b is shift(crc(a)) ^ crc(b), where shift
// appends len(b) zero bytes to the register (zlib's crc32_combine with the
// operator for one fixed length precomputed). A log frame's checksum covers
// its header and page image, and the image's own checksum is already the
// CRC of its body, so the frame's checksum costs a shift instead of a
// second pass over the page.
type crcShift [32]uint32 // column i: the operator applied to bit i

// castagnoliRev is the reflected Castagnoli polynomial.
const castagnoliRev = 0x82f63b78

// newCRCShift returns the operator that appends n zero bytes.
func newCRCShift(n int) crcShift {
	var op crcShift // one zero bit
	op[0] = castagnoliRev
	for i := 1; i < 32; i++ {
		op[i] = 1 << (i - 1)
	}
	var acc crcShift // identity
	for i := range acc {
		acc[i] = 1 << i
	}
	for bits := uint64(n) * 8; bits > 0; bits >>= 1 {
		if bits&1 != 0 {
			acc = acc.compose(&op)
		}
		op = op.compose(&op)
	}
	return acc
}

// apply returns the operator applied to v.
func (m *crcShift) apply(v uint32) uint32 {
	var out uint32
	for i := 0; v != 0; i, v = i+1, v>>1 {
		if v&1 != 0 {
			out ^= m[i]
		}
	}
	return out
}

// compose returns the operator m after o (the two commute: both are powers
// of the same one).
func (m *crcShift) compose(o *crcShift) crcShift {
	var out crcShift
	for i := range out {
		out[i] = m.apply(o[i])
	}
	return out
}

// crcShiftTable is a crcShift as four byte-indexed tables: applying it is
// four lookups.
type crcShiftTable [4][256]uint32

// table returns m's lookup tables.
func (m *crcShift) table() *crcShiftTable {
	t := new(crcShiftTable)
	for b := range 4 {
		for v := range 256 {
			t[b][v] = m.apply(uint32(v) << (8 * b))
		}
	}
	return t
}

// combine returns the CRC of a||b from a's CRC and b's, b being the length
// the operator was made for.
func (t *crcShiftTable) combine(crcA, crcB uint32) uint32 {
	return t[0][byte(crcA)] ^ t[1][byte(crcA>>8)] ^ t[2][byte(crcA>>16)] ^ t[3][crcA>>24] ^ crcB
}

// frameCRC continues the log's checksum chain over a frame's first 20
// header bytes and its sealed page image (see appendFrames), reading the
// page only for its 4-byte trailer (the body's CRC salted with page
// number pg, see pageSalt): body is the table of newCRCShift(len(page)-4).
func frameCRC(prev uint32, hdr, page []byte, pg uint32, body *crcShiftTable) uint32 {
	c := crc32.Update(prev, castagnoli, hdr)
	n := len(page) - trailerSize
	c = body.combine(c, binary.BigEndian.Uint32(page[n:])^pageSalt(pg))
	return crc32.Update(c, castagnoli, page[n:])
}

// shiftTables holds the frame checksum shift table of each page size met,
// built once per process: a table costs 4 KiB and 1,024 shift
// applications, which every new store's first commit would pay again
// (a test opening a database per test opens thousands).
var shiftTables sync.Map // page size → *crcShiftTable

// shiftTableFor returns the shift table over a page body of page size ps.
func shiftTableFor(ps int) *crcShiftTable {
	if t, ok := shiftTables.Load(ps); ok {
		return t.(*crcShiftTable)
	}
	m := newCRCShift(ps - trailerSize)
	t, _ := shiftTables.LoadOrStore(ps, m.table())
	return t.(*crcShiftTable)
}
