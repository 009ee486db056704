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
// duplicates, against slices.Sort.
func TestRadixSort_RandomInputs_MatchSlicesSort(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 3))
	for _, n := range []int{0, 1, 2, 63, 64, 65, 1000, 20_000} {
		for _, mask := range []uint64{^uint64(0), 0xFFFF, 0xFF00FF, 7} {
			v := make([]uint64, n)
			for i := range v {
				v[i] = 1<<63 | r.Uint64()&mask
			}
			want := slices.Clone(v)
			slices.Sort(want)
			radixSort(v)
			require.Equal(t, want, v, "n %d mask %x", n, mask)
		}
	}
}
