package types

import "encoding/binary"

// DecodeRow decodes, in one pass over rec's header, the columns marked in
// needed (nil = all) into dst[c][row] for c < len(dst); needed columns past
// the record's end are NULL. Text and blob values alias rec. Malformed
// bytes give ErrCorruptRecord, never a panic.
func DecodeRow(rec []byte, needed []bool, dst [][]Value, row int) error {
	_, err := DecodeRowMask(rec, needed, dst, row)
	return err
}

// DecodeRowMask is DecodeRow that also reports which decoded columns hold
// TEXT or BLOB: bit c for column c < 63, and bit 63 for any column at or
// past 63, so a caller copying bytes out of rec visits only those. It is
// the scan's hot path: one-byte header varints (every serial type of a
// value shorter than 58 bytes) and integer payloads are read inline, and
// no slice of offsets is built.
func DecodeRowMask(rec []byte, needed []bool, dst [][]Value, row int) (uint64, error) {
	if len(rec) == 0 {
		return 0, ErrCorruptRecord
	}
	p, end := 1, 1+int(rec[0])
	if rec[0] >= 0x80 {
		var err error
		if p, end, err = recordHeader(rec); err != nil {
			return 0, err
		}
	} else if end > len(rec) {
		return 0, ErrCorruptRecord
	}
	off := uint64(end)
	var texts uint64
	c := 0
	for ; c < len(dst) && p < end; c++ {
		t := uint64(rec[p])
		var size uint64
		if t < 0x80 {
			p++
			if size = uint64(shortSerialSize[t]); size == badSerial {
				return 0, ErrCorruptRecord
			}
		} else {
			var n int
			if t, n = binary.Uvarint(rec[p:end]); n <= 0 {
				return 0, ErrCorruptRecord
			}
			p += n
			var ok bool
			if size, ok = serialSize(t); !ok {
				return 0, ErrCorruptRecord
			}
		}
		if size > uint64(len(rec))-off {
			return 0, ErrCorruptRecord
		}
		if needed == nil || needed[c] {
			b := rec[off : off+size]
			if t >= stBlob0 {
				dst[c][row] = Value{s: unsafeString(b), k: KindBlob - Kind(t&1)}
				texts |= 1 << min(c, 63)
			} else if t == stNull {
				dst[c][row] = Null
			} else {
				dst[c][row] = decodeNumber(t, b)
			}
		}
		off += size
	}
	for ; c < len(dst); c++ {
		if needed == nil || needed[c] {
			dst[c][row] = Null
		}
	}
	return texts, nil
}

// badSerial marks the unused serial types 10 and 11 in shortSerialSize.
const badSerial = 0xFF

// shortSerialSize[t] is serialSize(t) for the one-byte serial types.
var shortSerialSize = func() (tab [0x80]uint8) {
	for t := range tab {
		n, ok := serialSize(uint64(t))
		tab[t] = uint8(n)
		if !ok {
			tab[t] = badSerial
		}
	}
	return tab
}()

// decodeNumber decodes an integer or real of serial type 0 < t < 12
// from b, which holds exactly serialSize(t) bytes.
func decodeNumber(t uint64, b []byte) Value {
	switch t {
	case 1:
		return Value{i: int64(int8(b[0])), k: KindInt}
	case 2:
		return Value{i: int64(int16(binary.BigEndian.Uint16(b))), k: KindInt}
	case 4:
		return Value{i: int64(int32(binary.BigEndian.Uint32(b))), k: KindInt}
	case 6:
		return Value{i: int64(binary.BigEndian.Uint64(b)), k: KindInt}
	case stReal:
		return Value{i: int64(binary.BigEndian.Uint64(b)), k: KindReal}
	case stZero:
		return Value{k: KindInt}
	case stOne:
		return Value{i: 1, k: KindInt}
	}
	var u uint64 // 3- and 6-byte integers
	for _, x := range b {
		u = u<<8 | uint64(x)
	}
	shift := 64 - 8*uint(len(b))
	return Value{i: int64(u<<shift) >> shift, k: KindInt}
}
