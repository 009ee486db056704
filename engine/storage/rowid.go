package storage

import "encoding/binary"

// RowidKey returns the 8-byte key of a rowid: big-endian with the sign bit
// flipped, so bytes.Compare order equals integer order.
func RowidKey(rowid int64) []byte { return AppendRowidKey(make([]byte, 0, 8), rowid) }

// AppendRowidKey appends the key of rowid to dst.
func AppendRowidKey(dst []byte, rowid int64) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(rowid)^(1<<63))
}

// DecodeRowidKey returns the rowid of an 8-byte rowid key (0 for a key of
// another length).
func DecodeRowidKey(k []byte) int64 {
	if len(k) != 8 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(k) ^ (1 << 63))
}
