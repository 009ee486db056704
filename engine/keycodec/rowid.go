package keycodec

import "encoding/binary"

// RowidLen is the length of a rowid key and of an index key's rowid suffix.
const RowidLen = 8

// RowidBits is the rowid key of rowid read as a big-endian integer: its
// unsigned order is rowid order.
func RowidBits(rowid int64) uint64 { return uint64(rowid) ^ (1 << 63) }

// RowidKey returns the 8-byte key of rowid.
func RowidKey(rowid int64) []byte { return AppendRowid(make([]byte, 0, RowidLen), rowid) }

// AppendRowid appends the key of rowid to dst: a table tree's key, or an
// index key's rowid suffix.
func AppendRowid(dst []byte, rowid int64) []byte {
	return binary.BigEndian.AppendUint64(dst, RowidBits(rowid))
}

// DecodeRowid returns the rowid of an 8-byte rowid key (0 for a key of
// another length).
func DecodeRowid(k []byte) int64 {
	if len(k) != RowidLen {
		return 0
	}
	return int64(binary.BigEndian.Uint64(k) ^ (1 << 63))
}

// TrailingRowid returns the rowid suffix at the end of an index key
// (a whole rowid key is its own suffix), or ErrCorrupt when key is shorter.
func TrailingRowid(key []byte) (int64, error) {
	if len(key) < RowidLen {
		return 0, ErrCorrupt
	}
	return int64(binary.BigEndian.Uint64(key[len(key)-RowidLen:]) ^ (1 << 63)), nil
}
