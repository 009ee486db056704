// Package keycodec holds ladybug's byte keys: the one encoding of each
// kind of key, shared by the storage layer that orders keys, the types
// layer that builds them from SQL values, and the executor's sort, group
// and hash keys. It imports only the standard library.
//
// Two codecs, one per purpose:
//
//   - Rowid keys (rowid.go): a table tree's key is its rowid as 8 bytes,
//     big-endian with the sign bit flipped, so bytes.Compare order is
//     integer order. An index key ends with the same 8 bytes.
//   - Value keys (value.go, decode.go): SQL values as bytes whose memcmp
//     order is SQLite's order (NULL < numbers < TEXT < BLOB, integers and
//     reals compared by value) and whose byte equality is SQL equality (3
//     and 3.0 encode alike, -0.0 as 0.0). Each value is self-delimiting,
//     so the encodings of several columns concatenate into a composite key,
//     optionally followed by a rowid suffix. Index keys on disk, ORDER BY
//     sort keys and GROUP BY, DISTINCT and hash-join keys all use it.
//
// Value key layout (ascending):
//
//	NULL    0x05 (0x45 placed after every other value: AppendNull's last)
//	number  0x15, 8 bytes of order-preserving float bits, then the exact
//	        integer remainder: 0x80 (none), or 0x7F / 0x81 and 2 bytes
//	text    0x25, escaped bytes, 0x00 0x01
//	blob    0x35, escaped bytes, 0x00 0x01
//
// Escaping writes 0x00 as 0x00 0xFF, so the terminator 0x00 0x01 sorts
// below any continuation and a shorter string sorts first. Invert
// complements one column's bytes, which reverses its order (DESC) and
// keeps it self-delimiting. NaN, which SQLite never stores, sorts before
// every other number.
//
// Both layouts are the database file's index and table key format:
// changing a byte changes the file format (key_test.go pins them).
package keycodec
