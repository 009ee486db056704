// Package types holds ladybug's SQL values and the rules SQLite gives them:
// storage classes, affinity, comparison and collation, arithmetic and
// conversion, plus the two byte formats storage keeps values in. It imports
// no other ladybug package.
//
// Values. A Value is 32 bytes, never boxed, one of NULL, INTEGER, REAL, TEXT,
// BLOB. TEXT and BLOB values may alias someone else's memory (a record, a
// page, a key); Clone before keeping one past the buffer's life.
//
// Semantics follow SQLite 3.54 exactly and are pinned by tables recorded
// from it (testdata/oracle_*.tsv):
//   - Affinity (affinity.go): AffinityOf for declared type names, Apply on
//     store, CompareAffinity + ApplyCompare before a comparison.
//   - Comparison (compare.go, collation.go): NULL < numbers < TEXT < BLOB,
//     INTEGER vs REAL exact; collations BINARY, NOCASE (ASCII only), RTRIM.
//   - Three-valued logic (logic.go): Truth, And, Or, Not, TruthOf.
//   - Arithmetic (arith.go): integer overflow turns into REAL, division by
//     zero and NaN give NULL, % truncates to integers, shifts saturate.
//   - Conversion (number.go, cast.go, format.go): text to number by numeric
//     prefix, CAST, and REAL to text byte-for-byte as SQLite prints it
//     (fpconv.go carries SQLite's own decimal conversion for that).
//   - Go classes (class.go, time.go): BOOLEAN/DATE/DATETIME/TIMESTAMP columns
//     and the text form times are stored in.
//
// Formats. AppendRecord/DecodeColumn/RecordReader (record.go) are the row
// format: a varint header of SQLite-style serial types, then payloads.
// AppendKey/DecodeKey (key.go) put values and collations to
// engine/keycodec's value keys, the index-key format (an index key ends
// with keycodec.AppendRowid's suffix), whose memcmp order equals Compare; in
// particular two values are Equal exactly when their keys are byte-equal
// (5 and 5.0, 'A' and 'a' under NOCASE), so key bytes also serve as sort
// keys and as hash keys for GROUP BY, DISTINCT and hash joins. Decoders never panic on bad bytes; they
// return ErrCorruptRecord or ErrCorruptKey.
//
// Caveats. NOCASE and RTRIM keys hold folded text and do not decode to the
// original; an integral REAL decodes from a key as INTEGER (they are equal
// values). NaN never comes out of arithmetic; a NaN given to NewReal sorts
// before all numbers.
package types
