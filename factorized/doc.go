// Package factorized holds ladybug's intermediate results: block-based
// tables of fixed-width tuples for what a pipeline breaker must keep —
// sort input, hash-join build sides, hash-aggregate groups, DISTINCT and
// set-operation hash sets, CTE working tables and window partitions. Query
// results are not collected here: engine/exec streams batches to Rows, and
// SELECT 1 touches no table. It imports no other ladybug package.
//
// # Using it from the engine
//
// One Pool per database (engine.DB), shared by every query:
//
//	pool: factorized.NewPool(factorized.PoolOptions{})
//
// Rows an operator keeps (engine/exec/rowstore.go adapts types.Value): a
// schema of one Value column per kept column, made once and shared
// (MustSchema), a Table per operator run (NewTable, or embed one and Init
// it), one Append per row, cells set with SetValue/SetText/SetNull, rows
// read in order with All or Row(i), and Release when the operator closes,
// so a cached program holds no block while idle:
//
//	var t factorized.Table                        // inside the operator
//	t.Init(pool, schema)                          // once per run
//	t.Append().SetValue(0, factorized.KindInt, 1, nil)
//	kind, bits, b := t.Value(0, 0)                // read back: convert to types.Value
//	t.Release()                                   // operator Close
//
// Warm, that sequence allocates nothing and zeroes 4 KiB (Reset instead of
// Release zeroes only the bytes used, but keeps a 256 KiB block per table).
// Kinds are numbered like engine/types.Kind (types.Kind(kind)); bits is the
// int64 or math.Float64bits; b aliases the block for text and blob, so
// values that outlive the row are copied, or the view is used only until
// the table changes.
//
// Keys are opaque bytes here: sorted by memcmp, hashed and compared for
// equality. The engine encodes them with engine/keycodec's value keys, the
// index-key format (exec's appendKey over types.AppendKeyNulls), whose
// memcmp order is SQLite's and whose equality is SQL equality (3 = 3.0):
// columns concatenate into a composite key, keycodec.Invert turns one
// column's bytes into DESC. Reuse one []byte per operator (key = key[:0]).
//
// Hash-join build side (engine/exec/join.go): the right rows in a Table,
// and NewHashTable(pool, one Int64 column) from each row's key to the row's
// index: Insert(key) per build row, skipping NULL keys (they never match in
// SQL), and SetInt64(0, index) on the tuple it returns. Probe(key) returns
// a Matches iterator, Next until ok is false. RIGHT and FULL joins keep a
// []bool of matched right rows beside the table.
//
// Hash aggregation (engine/exec/aggregate.go): NewHashTable with one Int64
// column, the group's number; FindOrInsert(key) returns the group's tuple,
// found false for a new (zeroed) group, which gets the next number. The
// group-by values go to a Table row per group (group creation order), and
// the aggregates' states live in exec's own slices, indexed by group
// number. Input sorted by the group keys uses no hash table.
//
// Sort: materialise the input rows in a Table, then Sorter.Add(row, key)
// per row, Sort, and read Row(i) for i < Len(). SortRows sorts with a
// comparator instead, when keys cannot be encoded (slower). ORDER BY … LIMIT
// n (OFFSET m: n+m) uses TopN: Offer(key) says whether the row makes the cut
// and which slot of a table of at most n rows to write it to; Sort, then
// Slot(i) for i < Len().
//
// Memory: Table.SizeBytes and HashTable.SizeBytes report what is held, for a
// per-query memory limit. Every structure has Reset (keep capacity) and
// Release (return blocks to the pool).
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
// A block freshly allocated from the Go heap is zero already, so its
// frontier starts at the end. A one-row query therefore clears at most 4 KiB
// per table instead of a whole block. Blocks whose zero bytes mean "empty" (hash slots) take the
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
// A HashTable's tuples are its payload columns, then a 24-byte key cell
// (tag byte: 0 no key, 1+length with up to 23 key bytes after it, 0xFF with
// an overflow reference at bytes 8..15) and an Int64 link (1 + index of the
// group's next tuple, 0 at the end). Its slots are 16 bytes, the key's
// 64-bit hash then 1 + the index of the group's first tuple; an all-zero slot
// is empty. Sort entries are 16 bytes: the key's first 8 bytes big-endian,
// zero-padded, and the arrival index.
//
// Built with -tags invariants, every block operation checks its bookkeeping
// (cursor ≤ frontier ≤ block, and zero bytes past the cursor).
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
