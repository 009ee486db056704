package types

import "encoding/binary"

// DecodeRow decodes, in one pass over rec's header, the columns marked in
// needed (nil = all) into dst[c][row] for c < len(dst), stopping after the
// last needed column; needed columns past the record's end are NULL. Text
// and blob values alias rec. Malformed bytes give ErrCorruptRecord, never a
// panic. It is the scan's hot path: no slice of offsets is built.
func DecodeRow(rec []byte, needed []bool, dst [][]Value, row int) error {
	p, end, err := recordHeader(rec)
	if err != nil {
		return err
	}
	off := uint64(end)
	c := 0
	for ; c < len(dst) && p < end; c++ {
		t, n := binary.Uvarint(rec[p:end])
		if n <= 0 {
			return ErrCorruptRecord
		}
		p += n
		size, ok := serialSize(t)
		if !ok || size > uint64(len(rec))-off {
			return ErrCorruptRecord
		}
		if needed == nil || needed[c] {
			dst[c][row] = decodePayload(t, rec[off:])
		}
		off += size
	}
	for ; c < len(dst); c++ {
		if needed == nil || needed[c] {
			dst[c][row] = Null
		}
	}
	return nil
}
