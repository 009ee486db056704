package exec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGraphInts_MatchesMap numbers random integer keys (clustered,
// negative, extreme) through graphInts and a Go map, across growth and
// resets, and compares every lookup.
func TestGraphInts_MatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var tab graphInts
	for round := range 3 {
		tab.reset()
		want := map[int64]int32{}
		for i := range 20_000 {
			var k int64
			switch r.IntN(4) {
			case 0:
				k = int64(r.IntN(5000)) // clustered: many repeats
			case 1:
				k = -int64(r.IntN(5000)) << 20
			case 2:
				k = []int64{math.MinInt64, math.MaxInt64, 0, -1}[r.IntN(4)]
			default:
				k = int64(r.Uint64())
			}
			got, ok := tab.get(k)
			w, wok := want[k]
			if ok != wok || got != w {
				t.Fatalf("round %d step %d key %d: got (%d, %v), want (%d, %v)", round, i, k, got, ok, w, wok)
			}
			if !ok {
				v := int32(len(want))
				want[k] = v
				tab.put(k, v)
			}
		}
		if tab.n != len(want) {
			t.Fatalf("round %d: %d keys held, want %d", round, tab.n, len(want))
		}
	}
}
