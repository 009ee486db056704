// Package factorized holds ladybug's intermediate results: block-based
// tables of fixed-width tuples used for result collection, hash-join build
// sides, hash aggregation and sort. It imports no other ladybug package.
//
// # Lazy zeroing
//
// Blocks are BlockSize (256 KiB) and come from a per-database Pool whose free
// list is LIFO: a recycled block comes back holding its previous owner's
// bytes. A block is handed out without zeroing. Each block keeps a cursor
// (bytes claimed), a zeroed frontier (bytes from the cursor to the frontier
// read as zero) and a high-water mark (bytes ever written since hand-out):
//
//   - Claim(n) zeroes from the frontier to the claim's end rounded up to
//     ZeroStep (4 KiB), capped at the block, so claimed bytes read as zero;
//   - CopyIn (merge, overflow) writes without zeroing and moves the frontier
//     past what it wrote, so a later Claim cannot wipe copied tuples;
//   - Truncate (a shrink) pulls the frontier back to the cursor: the bytes
//     given up hold data and are zeroed again when claimed again;
//   - Reset zeroes only the high-water mark.
//
// A one-row query therefore clears at most 4 KiB per table instead of a
// whole block. Blocks whose zero bytes mean "empty" (hash slots) take the
// zero-up-front path, Pool.GetZeroed. Pool.ZeroedBytes counts every byte
// cleared; PoolOptions.EagerZero restores whole-block zeroing as a baseline.
//
// # Byte layout
//
// A Schema lays out a tuple as the columns' slots in order, without padding,
// then a null bitmap of ceil(columns/8) bytes (bit c%8 of byte c/8 set means
// column c is NULL); a schema with no columns has 1-byte tuples. Slots:
//
//	TypeInt64    8 bytes, little-endian two's complement
//	TypeFloat64  8 bytes, little-endian IEEE 754 bits
//	TypeBool     1 byte, 0 or 1
//	TypeBytes    Column.Width raw bytes
//	TypeValue    8-byte payload + 1 kind byte (9 bytes)
//
// A TypeValue kind byte holds the storage class in its low nibble (KindNull 0,
// KindInt 1, KindReal 2, KindText 3, KindBlob 4, the engine's numbering). The
// payload is the int64 or the float64 bits; for text and blob of at most 8
// bytes the high nibble is 1+length and the bytes are inline in the payload;
// longer ones have a high nibble of 0 and the payload is an overflow
// reference chunk<<38 | offset<<19 | length (length 0: a dedicated chunk
// holding one value of 64 KiB or more). A zeroed value cell reads as NULL.
//
// Blocks hold BlockSize/width whole tuples; every block but a table's last is
// full, so tuple i is in block i/(BlockSize/width).
//
// The overflow buffer holds nothing until the first long value and never
// zeroes: it only hands out bytes it has just written.
//
// # Caveats
//
// Views (Row, Row.Bytes, the bytes of Row.Value, Row.Text) alias blocks that
// return to the pool, and to another owner, on Truncate, Reset or Release:
// copy strings and bytes before they outlive the table's current contents.
// A Table is not safe for concurrent use; a Pool is. Accessors take indexes
// the caller has checked (out of range panics, like a slice index) and do not
// check column types, so they stay allocation-free and branch-light.
package factorized
