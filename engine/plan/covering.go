package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
)

// CoveringIndex reports whether an index scan can answer from the index
// entries alone, never reading the table: every column the query reads is
// an index key column whose stored value the key reproduces. The key
// folds NOCASE and RTRIM text, so only BINARY key columns qualify; the
// rowid is the key's suffix. A scan with no column list (Needed nil, as
// under UPDATE and DELETE) reads the table.
func CoveringIndex(s *Scan) bool {
	if s.Index == nil || s.Needed == nil || s.Table.Virtual || s.Table.WithoutRowid {
		return false
	}
	for c, need := range s.Needed {
		if need && !keyHolds(s.Index.Index, s.Table, c) {
			return false
		}
	}
	return true
}

// keyHolds reports whether column c is a key column of ix whose value
// decodes back from the key.
func keyHolds(ix *catalog.Index, t *catalog.Table, c int) bool {
	if c == t.RowidCol {
		return true
	}
	for _, ic := range ix.Columns {
		if ic.Col == c && normColl(ic.Collate) == "BINARY" && t.Columns[c].Generated == "" {
			return true
		}
	}
	return false
}

// KeyDecodable reports whether a value decoded from an index key is the
// value a column of affinity aff stores: a key does not tell an integral
// REAL from an INTEGER, so a REAL column's integers are reals (see
// KeyValue), while a column that may hold either (no affinity) or the
// REAL -2^63 beside the INTEGER -2^63 (a numeric one) needs the row.
func KeyDecodable(v types.Value, aff types.Affinity) bool {
	if v.Kind() != types.KindInt {
		return true
	}
	switch aff {
	case types.AffinityReal, types.AffinityText:
		return true
	case types.AffinityNumeric, types.AffinityInteger:
		return v.Int() != -1<<63
	}
	return false
}

// KeyValue converts a value decoded from an index key to the value a
// column of affinity aff holds (REAL columns store integral numbers as
// REAL). Call it only when KeyDecodable holds.
func KeyValue(v types.Value, aff types.Affinity) types.Value {
	if aff == types.AffinityReal && v.Kind() == types.KindInt {
		return types.NewReal(float64(v.Int()))
	}
	return v
}
