package factorized

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

type keyed struct {
	key []byte
	seq int
}

// randomKeys returns keys from a small alphabet of lengths 0..20, so equal
// keys, shared prefixes and keys that are prefixes of others all occur.
func randomKeys(rng *rand.Rand, n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		k := make([]byte, rng.IntN(21))
		for j := range k {
			k[j] = byte(rng.IntN(3))
		}
		keys[i] = k
	}
	return keys
}

func stableSorted(keys [][]byte) []keyed {
	ks := make([]keyed, len(keys))
	for i, k := range keys {
		ks[i] = keyed{k, i}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return bytes.Compare(a.key, b.key) })
	return ks
}

func TestSorter_Sort_MatchesStableMemcmpSort(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	keys := randomKeys(rand.New(rand.NewPCG(seed, 2)), 5000)
	s := NewSorter(NewPool(PoolOptions{}))
	for round := range 2 {
		for i, k := range keys {
			s.Add(i, k)
		}
		s.Sort()
		want := stableSorted(keys)
		require.Equal(t, len(keys), s.Len())
		for i := range want {
			require.Equal(t, want[i].seq, s.Row(i), "round %d position %d", round, i)
		}
		s.Reset()
		require.Zero(t, s.Len())
	}
}

func TestSortRows_Comparator_IsStable(t *testing.T) {
	tb := NewTable(nil, MustSchema(Int64(), Int64()))
	for i := range 1000 {
		r := tb.Append()
		r.SetInt64(0, int64(i%7))
		r.SetInt64(1, int64(i))
	}
	order := SortRows(tb, nil, func(a, b Row) int { return cmp.Compare(a.Int64(0), b.Int64(0)) })
	require.Len(t, order, 1000)
	for i := 1; i < len(order); i++ {
		a, b := tb.Row(order[i-1]), tb.Row(order[i])
		require.True(t, a.Int64(0) < b.Int64(0) || a.Int64(0) == b.Int64(0) && a.Int64(1) < b.Int64(1), "position %d", i)
	}
}

// runTopN offers keys to a TopN of n, storing each accepted candidate's
// arrival number in a table row at its slot, and returns them in order.
func runTopN(t *testing.T, p *Pool, n int, keys [][]byte) []int {
	t.Helper()
	h := NewTopN(p, n)
	tb := NewTable(p, MustSchema(Int64()))
	for i, k := range keys {
		slot, ok := h.Offer(k)
		if !ok {
			continue
		}
		if slot == tb.Len() {
			tb.Append()
		}
		require.Less(t, slot, tb.Len())
		tb.SetInt64(slot, 0, int64(i))
	}
	h.Sort()
	got := make([]int, h.Len())
	for i := range got {
		got[i] = int(tb.Int64(h.Slot(i), 0))
	}
	_, ok := h.Offer(nil)
	require.False(t, ok, "no offers after Sort")
	return got
}

func TestTopN_Offer_MatchesSortThenLimit(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	keys := randomKeys(rand.New(rand.NewPCG(seed, 3)), 3000)
	want := stableSorted(keys)
	p := NewPool(PoolOptions{})
	for _, n := range []int{0, 1, 2, 7, 100, 2999, 3000, 5000} {
		got := runTopN(t, p, n, keys)
		m := min(n, len(keys))
		require.Len(t, got, m, "n %d", n)
		for i := range m {
			require.Equal(t, want[i].seq, got[i], "n %d position %d", n, i)
		}
	}
}

func TestTopN_Offer_DescendingLongKeysStayBounded(t *testing.T) {
	p := NewPool(PoolOptions{})
	total := stress(12000, 200000)
	keys := make([][]byte, total)
	for i := range keys {
		keys[i] = fmt.Appendf(nil, "a fairly long sort key %08d with padding to make it big", total-i)
	}
	h := NewTopN(p, 10)
	for _, k := range keys {
		_, ok := h.Offer(k)
		require.True(t, ok, "each key is smaller than all before it")
	}
	require.LessOrEqual(t, len(h.keys.ovf.chunks), 2, "evicted keys are compacted away")
	got := runTopN(t, p, 10, keys)
	for i := range got {
		require.Equal(t, total-1-i, got[i])
	}
}
