package factorized

import (
	"testing"

	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/stretchr/testify/require"
)

// The hot paths allocate nothing once warm: building and reading a
// one-row result, probing a hash table, updating an aggregate group.
func TestTable_Accessors_DoNotAllocate(t *testing.T) {
	p := NewPool(PoolOptions{})
	tb := NewTable(p, MustSchema(Value(), Int64(), Float64(), Bool(), Bytes(4)))
	long := []byte("a value long enough for the overflow buffer")
	query := func() {
		r := tb.Append()
		r.SetValue(0, KindText, 0, long)
		r.SetInt64(1, 1)
		r.SetFloat64(2, 2)
		r.SetBool(3, true)
		r.SetBytes(4, long[:4])
		_, _, _ = tb.Value(0, 0)
		_ = tb.Text(0, 0)
		_ = tb.Int64(0, 1) + int64(tb.Float64(0, 2))
		_ = tb.Bool(0, 3) && tb.IsNull(0, 4)
		tb.Release()
	}
	query()
	require.Zero(t, testing.AllocsPerRun(100, query))

	h, err := NewHashTable(p, MustSchema(Int64()))
	require.NoError(t, err)
	keys := make([][]byte, 1000)
	for i := range keys {
		keys[i] = keycodec.AppendInt(nil, int64(i))
		h.Insert(keys[i]).SetInt64(0, int64(i))
	}
	var sum int64
	probe := func() {
		for _, k := range keys {
			m := h.Probe(k)
			for r, ok := m.Next(); ok; r, ok = m.Next() {
				sum += r.Int64(0)
			}
			r, _ := h.FindOrInsert(k)
			r.SetInt64(0, r.Int64(0)+1)
		}
	}
	require.Zero(t, testing.AllocsPerRun(10, probe))
	require.NotZero(t, sum)
}

// A small hash table costs one allocation once its pool is warm: the
// tuple schema over a payload is made once, and the table, its tuple
// table and its one slot block's headers are one object.
func TestHashTable_Small_OneAllocation(t *testing.T) {
	p := NewPool(PoolOptions{})
	payload := MustSchema(Int64())
	keys := make([][]byte, 300) // past minSlots/2: the slots grow once
	for i := range keys {
		keys[i] = keycodec.AppendInt(nil, int64(i))
	}
	groups := 0
	use := func() {
		h, err := NewHashTable(p, payload)
		if err != nil {
			panic(err)
		}
		for _, k := range keys {
			h.FindOrInsert(k)
		}
		groups = h.Groups()
		h.Release()
	}
	use()
	require.Equal(t, 1.0, testing.AllocsPerRun(20, use))
	require.Equal(t, len(keys), groups)
}
