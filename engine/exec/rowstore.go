package exec

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/factorized"
)

// This file adapts types.Value to factorized tuples and memcmp keys.

// valueSchema is a schema of n TypeValue columns; schemas are immutable,
// so the small ones are made once and shared (a hash join or GROUP BY
// run asks for one per execution).
func valueSchema(n int) *factorized.Schema {
	if n < len(valueSchemas) {
		return valueSchemas[n]
	}
	return newValueSchema(n)
}

var valueSchemas = func() (s [17]*factorized.Schema) {
	for n := range s {
		s[n] = newValueSchema(n)
	}
	return s
}()

// int64Schema is the one-INT64 payload schema of group and join hash
// tables.
var int64Schema = factorized.MustSchema(factorized.Int64())

// noPayload is the schema of a hash table that holds keys only (a set):
// one shared value, so its tables share their layout too (NewHashTable).
var noPayload = factorized.MustSchema()

// keptHash is a hash table an operator keeps across its runs: Close
// releases the table's blocks to the pool and the next run reuses the
// emptied table instead of building a new one (a correlated subquery's
// operators run once per outer row).
type keptHash struct {
	ht   *factorized.HashTable
	pool *factorized.Pool
}

// take returns the kept table, empty, when it draws on p, else a new one
// with payload's columns, kept from now on.
func (k *keptHash) take(p *factorized.Pool, payload *factorized.Schema) (*factorized.HashTable, error) {
	if k.ht != nil && k.pool == p {
		k.ht.Release() // no-op after the Close that normally precedes a run
		return k.ht, nil
	}
	ht, err := factorized.NewHashTable(p, payload)
	if err != nil {
		return nil, err
	}
	k.ht, k.pool = ht, p
	return ht, nil
}

func newValueSchema(n int) *factorized.Schema {
	cols := make([]factorized.Column, n)
	for i := range cols {
		cols[i] = factorized.Value()
	}
	return factorized.MustSchema(cols...)
}

func factParts(v types.Value) (uint8, uint64, []byte) {
	switch v.Kind() {
	case types.KindInt:
		return factorized.KindInt, uint64(v.Int()), nil
	case types.KindReal:
		return factorized.KindReal, math.Float64bits(v.Real()), nil
	case types.KindText:
		return factorized.KindText, 0, v.Bytes()
	case types.KindBlob:
		return factorized.KindBlob, 0, v.Bytes()
	}
	return factorized.KindNull, 0, nil
}

// factValue reads column c of r; text and blob values alias the table's
// blocks.
func factValue(r factorized.Row, c int) types.Value {
	kind, bits, b := r.Value(c)
	switch kind {
	case factorized.KindInt:
		return types.NewInt(int64(bits))
	case factorized.KindReal:
		return types.NewReal(math.Float64frombits(bits))
	case factorized.KindText:
		return types.NewText(unsafeString(b))
	case factorized.KindBlob:
		return types.NewBlob(b)
	}
	return types.Null
}

func setFact(r factorized.Row, c int, v types.Value) {
	if v.IsNull() {
		r.SetNull(c)
		return
	}
	k, bits, b := factParts(v)
	r.SetValue(c, k, bits, b)
}

// appendBatchRow copies physical row i of b (columns [0, n)) into t.
func appendBatchRow(t *factorized.Table, b *Batch, i, n int) factorized.Row {
	r := t.Append()
	for c := 0; c < n; c++ {
		setFact(r, c, b.Cols[c][i])
	}
	return r
}

// readRows copies rows [from, from+n) of t, in the order given by idx when
// non-nil, into out.
func readRow(t *factorized.Table, row int, out *Batch) {
	r := t.Row(row)
	for c := range out.Cols {
		out.Cols[c][out.N] = factValue(r, c)
	}
	out.N++
}

// appendKey appends the memcmp key of v (engine/keycodec's value key, as
// in an index) under the collation named coll; desc inverts it and
// nullsFirst places NULL.
func appendKey(dst []byte, v types.Value, coll string, desc, nullsFirst bool) []byte {
	return types.AppendKeyNulls(dst, v, desc, nullsFirst, keyColl(coll))
}

// keyColl is the collation of a plan's (upper-case) collation name, kept
// small so appendKey inlines into the operators' key loops.
func keyColl(name string) types.Collation {
	switch name {
	case "NOCASE":
		return types.CollNoCase
	case "RTRIM":
		return types.CollRTrim
	}
	return types.CollBinary
}

// sortKeyer builds the composite key of ORDER BY terms for each row.
type sortKeyer struct {
	keys  []plan.SortKey
	evals []evaluator
	bufs  [][]types.Value
	// evalv and bufv are evals' and bufs' memory for a key of at most two
	// terms: a keyer is then one allocation.
	evalv [2]evaluator
	bufv  [2][]types.Value
}

func (cp *compiler) newSortKeyer(keys []plan.SortKey) (*sortKeyer, error) {
	sk := &sortKeyer{keys: keys}
	if len(keys) <= len(sk.evalv) {
		sk.evals, sk.bufs = sk.evalv[:0:len(keys)], sk.bufv[:0:len(keys)]
	}
	for _, k := range keys {
		ev, err := cp.compile(k.Expr)
		if err != nil {
			return nil, err
		}
		sk.evals = append(sk.evals, ev)
		sk.bufs = append(sk.bufs, scratch())
	}
	return sk, nil
}

// eval computes the key terms for the batch.
func (sk *sortKeyer) eval(c *Ctx, b *Batch) error {
	for i, ev := range sk.evals {
		if err := ev(c, b, fit(&sk.bufs[i], b)); err != nil {
			return err
		}
	}
	return nil
}

// key appends the key of physical row i (after eval).
func (sk *sortKeyer) key(dst []byte, i int) []byte {
	for k, t := range sk.keys {
		dst = appendKey(dst, sk.bufs[k][i], t.Collate, t.Desc, t.NullsFirst)
	}
	return dst
}
