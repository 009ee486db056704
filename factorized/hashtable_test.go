package factorized

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

func keyOf(i int) []byte {
	if i%3 == 0 { // some long keys, stored in the overflow buffer
		return fmt.Appendf(nil, "a long key number %d, past the inline limit", i)
	}
	return binary.BigEndian.AppendUint64(nil, uint64(i))
}

func TestHashTable_Insert_ProbeFindsAllDuplicates(t *testing.T) {
	seed := rand.Uint64()
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)
	h, err := NewHashTable(dirtyPool(t, 8), MustSchema(Int64()))
	require.NoError(t, err)
	model := map[string][]int64{}
	for i := range 30000 {
		k := keyOf(rng.IntN(5000))
		h.Insert(k).SetInt64(0, int64(i))
		model[string(k)] = append(model[string(k)], int64(i))
	}
	require.Equal(t, len(model), h.Groups())
	require.Equal(t, 30000, h.Len())
	for k, want := range model {
		var got []int64
		m := h.Probe([]byte(k))
		for r, ok := m.Next(); ok; r, ok = m.Next() {
			got = append(got, r.Int64(0))
		}
		slices.Sort(got)
		require.Equal(t, want, got, "key %q", k)
	}
	m := h.Probe([]byte("absent"))
	_, ok := m.Next()
	require.False(t, ok)

	k := keyOf(7)
	m = h.Probe(k)
	n := 0
	for row, ok := m.NextIndex(); ok; row, ok = m.NextIndex() {
		require.Contains(t, model[string(k)], h.Table().Int64(row, 0))
		n++
	}
	require.Equal(t, len(model[string(k)]), n)
}

func TestHashTable_FindOrInsert_OneTuplePerGroup(t *testing.T) {
	p := dirtyPool(t, 8)
	h, err := NewHashTable(p, MustSchema(Int64(), Value()))
	require.NoError(t, err)
	groups := stress(10000, 200000) // more slots than one block holds
	for round := range 3 {
		for g := range groups {
			r, found := h.FindOrInsert(keyOf(g))
			require.Equal(t, round > 0, found)
			if !found {
				r.SetText(1, string(keyOf(g)))
			}
			r.SetInt64(0, r.Int64(0)+int64(g))
		}
	}
	require.Equal(t, groups, h.Len())
	require.Greater(t, len(h.slots), 1)
	for i, r := range h.Table().All() {
		k := h.Key(i)
		require.Equal(t, string(k), r.Text(1))
		row, ok := h.Find(k)
		require.True(t, ok)
		require.Equal(t, i, row)
	}
	for g := range groups {
		row, ok := h.Find(keyOf(g))
		require.True(t, ok)
		require.Equal(t, int64(3*g), h.Table().Int64(row, 0))
	}
}

func TestHashTable_SlotsAreZeroOnRecycledBlocks(t *testing.T) {
	h, err := NewHashTable(dirtyPool(t, 2), MustSchema())
	require.NoError(t, err)
	h.Insert([]byte("k"))
	occupied := 0
	for _, v := range h.views {
		for off := 0; off < len(v); off += slotSize {
			if le.Uint64(v[off+8:]) != 0 {
				occupied++
			} else {
				require.Zero(t, le.Uint64(v[off:]), "an empty slot reads zero")
			}
		}
	}
	require.Equal(t, 1, occupied)
	_, ok := h.Find([]byte("j"))
	require.False(t, ok)
}

func TestHashTable_Reset_ForgetsKeys(t *testing.T) {
	p := NewPool(PoolOptions{})
	h, err := NewHashTable(p, MustSchema(Int64()))
	require.NoError(t, err)
	for i := range 100 {
		h.Insert(keyOf(i))
	}
	h.Reset()
	require.Zero(t, h.Groups())
	_, ok := h.Find(keyOf(5))
	require.False(t, ok)
	r, found := h.FindOrInsert(keyOf(5))
	require.False(t, found)
	require.Zero(t, r.Int64(0))
	require.Equal(t, 1, h.Len())
	h.Release()
	require.Zero(t, h.SizeBytes())
	m := h.Probe(nil)
	_, ok = m.Next()
	require.False(t, ok)
	h.Insert(nil)
	_, ok = h.Find([]byte{})
	require.True(t, ok, "the empty key is a key")
}

// TestHashTable_SharesExtendedSchema checks that hash tables over one
// payload schema share the layout with the key and link columns (it is
// built once, not per table: an operator builds a table per run), and
// that the payload's own columns keep their offsets in it.
func TestHashTable_SharesExtendedSchema(t *testing.T) {
	payload := MustSchema(Int64(), Bytes(24))
	p := dirtyPool(t, 8)
	h1, err := NewHashTable(p, payload)
	require.NoError(t, err)
	h2, err := NewHashTable(p, payload)
	require.NoError(t, err)
	require.Same(t, h1.Table().Schema(), h2.Table().Schema())
	s := h1.Table().Schema()
	require.Equal(t, payload.NumColumns()+2, s.NumColumns())
	for i := range payload.NumColumns() {
		require.Equal(t, payload.Offset(i), s.Offset(i))
	}
	other, err := NewHashTable(p, MustSchema(Int64()))
	require.NoError(t, err)
	require.NotSame(t, s, other.Table().Schema())
	require.Equal(t, 3, other.Table().Schema().NumColumns())
}
