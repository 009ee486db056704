package txn

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRadixSort_RandomInputs_MatchSlicesSort sorts short and long inputs,
// full-range values, values differing only in their low bytes, and
// duplicates, against slices.Sort; each item keeps its index.
func TestRadixSort_RandomInputs_MatchSlicesSort(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 3))
	for _, n := range []int{0, 1, 2, 63, 64, 65, 1000, 20_000} {
		for _, mask := range []uint64{^uint64(0), 0xFFFF, 0xFF00FF, 7} {
			keys := make([]uint64, n)
			v := make([]sortItem, n)
			for i := range v {
				keys[i] = 1<<63 | r.Uint64()&mask
				v[i] = sortItem{key: keys[i], idx: int32(i)}
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			radixSort(v)
			got := make([]uint64, n)
			for i, x := range v {
				got[i] = x.key
				require.Equal(t, keys[x.idx], x.key, "item %d lost its index", i)
			}
			require.Equal(t, want, got, "n %d mask %x", n, mask)
		}
	}
}
