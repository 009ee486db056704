package storage

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// interpNode builds a leaf or a branch holding keys (sorted, distinct), in
// a page big enough for them.
func interpNode(t *testing.T, keys [][]byte, leaf bool) node {
	t.Helper()
	n := make(node, 32768)
	typ := byte(typeBranch)
	if leaf {
		typ = typeLeaf
	}
	initNode(n, typ)
	scratch := make([]byte, len(n))
	for i, k := range keys {
		var cell []byte
		if leaf {
			cell = append([]byte{byte(len(k)), 1 << 1}, k...)
			cell = append(cell, 'v')
		} else {
			cell = binary.BigEndian.AppendUint32(nil, uint32(i+2))
			cell = append(append(cell, byte(len(k))), k...)
		}
		if !n.insertCell(i, cell, scratch) {
			t.Fatalf("cell %d does not fit", i)
		}
	}
	return n
}

// TestNode_InterpSearch_MatchesBinarySearch checks the interpolated leaf
// and branch searches against sort.Search over rowid keys spread densely,
// sparsely and in clusters, with and without keys of other lengths.
func TestNode_InterpSearch_MatchesBinarySearch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	spreads := map[string]func(i int) uint64{
		"dense":   func(i int) uint64 { return uint64(1000 + i) },
		"sparse":  func(i int) uint64 { return r.Uint64() },
		"cluster": func(i int) uint64 { return uint64(i%5)<<40 | uint64(i) },
		"tiny":    func(i int) uint64 { return uint64(i) },
	}
	for name, spread := range spreads {
		for _, count := range []int{1, 7, 8, 9, 50, 300} {
			for _, mixed := range []bool{false, true} {
				var keys [][]byte
				seen := map[string]bool{}
				for i := 0; i < count; i++ {
					k := binary.BigEndian.AppendUint64(nil, spread(i))
					if mixed && i%7 == 3 {
						k = append(k[:4+i%4:4+i%4], byte(i)) // other lengths sort among the 8-byte keys
					}
					if !seen[string(k)] {
						seen[string(k)] = true
						keys = append(keys, k)
					}
				}
				slices.SortFunc(keys, bytes.Compare)
				checkInterp(t, name, keys, r)
			}
		}
	}
}

func checkInterp(t *testing.T, name string, keys [][]byte, r *rand.Rand) {
	t.Helper()
	leafN, branchN := interpNode(t, keys, true), interpNode(t, keys, false)
	probes := [][]byte{make([]byte, 8), bytes.Repeat([]byte{0xff}, 8)}
	for i := 0; i < 200; i++ {
		k := keys[r.IntN(len(keys))]
		probes = append(probes, k)
		if len(k) == 8 {
			v := binary.BigEndian.Uint64(k)
			probes = append(probes, binary.BigEndian.AppendUint64(nil, v+1), binary.BigEndian.AppendUint64(nil, v-1))
		}
		probes = append(probes, binary.BigEndian.AppendUint64(nil, r.Uint64()))
	}
	for _, p := range probes {
		lower := sort.Search(len(keys), func(i int) bool { return bytes.Compare(keys[i], p) >= 0 })
		upper := sort.Search(len(keys), func(i int) bool { return bytes.Compare(keys[i], p) > 0 })
		i, found := leafN.search(p)
		if i != lower || found != (lower < len(keys) && bytes.Equal(keys[lower], p)) {
			t.Fatalf("%s, %d keys: leaf search(%x) = %d, %v; want %d", name, len(keys), p, i, found, lower)
		}
		if got := branchN.childIndex(p); got != upper {
			t.Fatalf("%s, %d keys: childIndex(%x) = %d; want %d", name, len(keys), p, got, upper)
		}
		// The bounded searches give the same answers whatever the bounds:
		// the true ones, loose ones, wrong ones and none.
		for _, b := range interpBounds(keys, r) {
			i, found := leafN.searchIn(p, b[0], b[1])
			if i != lower || found != (lower < len(keys) && bytes.Equal(keys[lower], p)) {
				t.Fatalf("%s, %d keys: searchIn(%x, %x, %x) = %d, %v; want %d", name, len(keys), p, b[0], b[1], i, found, lower)
			}
			if got := branchN.childIndexIn(p, b[0], b[1]); got != upper {
				t.Fatalf("%s, %d keys: childIndexIn(%x, %x, %x) = %d; want %d", name, len(keys), p, b[0], b[1], got, upper)
			}
		}
	}
}

// interpBounds returns pairs of search bounds for a node holding keys.
func interpBounds(keys [][]byte, r *rand.Rand) [][2][]byte {
	u := func(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }
	first, last := keys[0], keys[len(keys)-1]
	out := [][2][]byte{{nil, nil}, {first, nil}, {nil, last}, {u(0), u(^uint64(0))},
		{u(r.Uint64()), u(r.Uint64())}, {last, first}}
	if len(first) == 8 && len(last) == 8 {
		out = append(out, [2][]byte{first, u(binary.BigEndian.Uint64(last) + 1)})
	}
	return out
}
