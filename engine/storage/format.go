package storage

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// Page types, stored in byte 0 of every page but the header page.
const (
	typeHeader   = 1
	typeBranch   = 2
	typeLeaf     = 3
	typeOverflow = 4
	typeFreelist = 5
)

const (
	// formatVersion 2: each page's checksum covers its page number (see
	// pageSum). Version 1 files, whose checksums do not, are refused.
	formatVersion = 2
	headerMagic   = "LADYBUG\x00"
	metaSlots     = 16
	trailerSize   = 4 // page checksum at the end of every page
)

// Header page (page 0) layout; see doc.go.
const (
	hdrMagic     = 0  // 8 bytes
	hdrVersion   = 8  // u32
	hdrPageSize  = 12 // u32
	hdrSeq       = 16 // u64 commit sequence number
	hdrPageCount = 24 // u32
	hdrFreeHead  = 28 // u32 first freelist trunk page
	hdrFreeCount = 32 // u32 free pages, trunks included
	hdrRegistry  = 36 // u32 root of the tree registry
	hdrMeta      = 64 // 16 × u64
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// header is the decoded header page: the state a commit publishes.
type header struct {
	pageSize  int
	seq       uint64
	pageCount uint32
	freeHead  uint32
	freeCount uint32
	registry  uint32
	meta      [metaSlots]uint64
}

func (h *header) encode(buf []byte) {
	clear(buf)
	copy(buf[hdrMagic:], headerMagic)
	binary.BigEndian.PutUint32(buf[hdrVersion:], formatVersion)
	binary.BigEndian.PutUint32(buf[hdrPageSize:], uint32(h.pageSize))
	binary.BigEndian.PutUint64(buf[hdrSeq:], h.seq)
	binary.BigEndian.PutUint32(buf[hdrPageCount:], h.pageCount)
	binary.BigEndian.PutUint32(buf[hdrFreeHead:], h.freeHead)
	binary.BigEndian.PutUint32(buf[hdrFreeCount:], h.freeCount)
	binary.BigEndian.PutUint32(buf[hdrRegistry:], h.registry)
	for i, v := range h.meta {
		binary.BigEndian.PutUint64(buf[hdrMeta+8*i:], v)
	}
	sealPage(buf, 0)
}

// decodeHeader parses a header page, checking magic, version, page size
// and checksum.
func decodeHeader(buf []byte) (header, error) {
	var h header
	if len(buf) < minPageSize || string(buf[:8]) != headerMagic {
		return h, fmt.Errorf("%w: not a ladybug database (bad magic)", ErrCorrupt)
	}
	if v := binary.BigEndian.Uint32(buf[hdrVersion:]); v > formatVersion {
		return h, fmt.Errorf("%w: unsupported format version %d", ErrCorrupt, v)
	} else if v < formatVersion {
		return h, fmt.Errorf("%w: the file is in format version %d, written by an older ladybug; this one reads version %d only (its page checksums cover the page number): .dump it with the older ladybug and load the dump", ErrCorrupt, v, formatVersion)
	}
	h.pageSize = int(binary.BigEndian.Uint32(buf[hdrPageSize:]))
	if !validPageSize(h.pageSize) || h.pageSize > len(buf) {
		return h, fmt.Errorf("%w: bad page size %d", ErrCorrupt, h.pageSize)
	}
	if !pageOK(buf[:h.pageSize], 0) {
		return h, fmt.Errorf("%w: header page checksum mismatch", ErrCorrupt)
	}
	h.seq = binary.BigEndian.Uint64(buf[hdrSeq:])
	h.pageCount = binary.BigEndian.Uint32(buf[hdrPageCount:])
	h.freeHead = binary.BigEndian.Uint32(buf[hdrFreeHead:])
	h.freeCount = binary.BigEndian.Uint32(buf[hdrFreeCount:])
	h.registry = binary.BigEndian.Uint32(buf[hdrRegistry:])
	for i := range h.meta {
		h.meta[i] = binary.BigEndian.Uint64(buf[hdrMeta+8*i:])
	}
	if h.pageCount < 2 || h.registry == 0 || h.registry >= h.pageCount {
		return h, fmt.Errorf("%w: bad header (page count %d, registry %d)", ErrCorrupt, h.pageCount, h.registry)
	}
	return h, nil
}

// sealPage writes the checksum of p, page number pg, into its trailer.
func sealPage(p []byte, pg uint32) {
	n := len(p) - trailerSize
	binary.BigEndian.PutUint32(p[n:], crc32.Checksum(p[:n], castagnoli)^pageSalt(pg))
}

// pageOK verifies the checksum of p read as page pg: a page written at
// another position (a misdirected write, a stale log frame for another
// page) fails it, as damaged contents do.
func pageOK(p []byte, pg uint32) bool {
	n := len(p) - trailerSize
	return binary.BigEndian.Uint32(p[n:]) == crc32.Checksum(p[:n], castagnoli)^pageSalt(pg)
}

// pageSalt is what a page's number contributes to its checksum: the
// CRC-32C of its body is XORed with it. Multiplying by an odd constant is
// a bijection of uint32, so two page numbers never share a salt; a salt,
// not a CRC seed, keeps the body's CRC recoverable from the trailer (the
// log's checksum chain reuses it, see frameCRC).
func pageSalt(pg uint32) uint32 { return pg * 0x9e3779b1 }
