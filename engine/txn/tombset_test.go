package txn

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// tombOp is one undoable operation of the tombSet model.
type tombOp struct {
	add bool
	key int
	old tombState // cancel: the state before
}

// TestTombSet_RandomOps_MatchModel drives a tombSet with mostly ascending
// keys (the run path) and some out of order (the map path), cancels,
// undoes and verifies, against a map.
func TestTombSet_RandomOps_MatchModel(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 11))
	var s tombSet
	model := map[int]tombState{}
	var ops []tombOp
	next := 0
	str := func(b []byte) string { return string(b) }
	for step := 0; step < 3000; step++ {
		switch p := r.IntN(100); {
		case p < 50: // add, usually the next ascending key
			k := next
			if r.IntN(4) == 0 {
				k = r.IntN(next + 1)
			}
			next = max(next, k+1)
			st := tombState(1 + r.IntN(2))
			if model[k] != tsNone {
				require.False(t, s.add(key(k), st), "add of live key %d", k)
				continue
			}
			require.True(t, s.add(key(k), st), "add of key %d", k)
			model[k] = st
			ops = append(ops, tombOp{add: true, key: k})
		case p < 65: // cancel a live key (a Put)
			k := r.IntN(next + 1)
			if model[k] == tsNone {
				continue
			}
			old, _ := s.set(key(k), tsNone, str)
			require.Equal(t, model[k], old)
			ops = append(ops, tombOp{key: k, old: old})
			delete(model, k)
		case p < 85 && len(ops) > 0: // undo the newest few operations
			for n := 1 + r.IntN(5); n > 0 && len(ops) > 0; n-- {
				op := ops[len(ops)-1]
				ops = ops[:len(ops)-1]
				if op.add {
					s.pop(1)
					delete(model, op.key)
				} else {
					s.set(key(op.key), op.old, str)
					model[op.key] = op.old
				}
			}
		case p < 88: // verify: even keys exist
			require.NoError(t, s.verify(func(k []byte) (bool, error) { return k[7]%2 == 0, nil }))
			for k, st := range model {
				if st == tsUnverified {
					if k%2 == 0 {
						model[k] = tsVerified
					} else {
						delete(model, k)
					}
				}
			}
		}
		if step%20 == 0 {
			checkTombSet(t, &s, model, next)
		}
	}
	checkTombSet(t, &s, model, next)
}

func checkTombSet(t *testing.T, s *tombSet, model map[int]tombState, upto int) {
	t.Helper()
	live, unverified := 0, 0
	for k := 0; k <= upto; k++ {
		require.Equal(t, model[k], s.get(key(k)), "key %d", k)
		if model[k] != tsNone {
			live++
		}
		if model[k] == tsUnverified {
			unverified++
		}
	}
	require.Equal(t, live, s.live)
	require.Equal(t, unverified, s.unverified)
	var want [][]byte
	for _, k := range slices.Sorted(maps.Keys(model)) {
		if model[k] != tsNone {
			want = append(want, key(k))
		}
	}
	got := s.sorted()
	if len(want) == 0 {
		require.Empty(t, got)
		return
	}
	require.Equal(t, want, got)
}

// TestTombSet_Sorted_MixedLengthsOutOfOrder adds keys of several lengths
// out of order (the map path, sorted as bytes) and 8-byte keys out of
// order (sorted as integers): sorted returns each set in byte order.
func TestTombSet_Sorted_MixedLengthsOutOfOrder(t *testing.T) {
	var mixed tombSet
	for _, k := range []string{"m", "zz", "a", "mm", "b\x00", "b", "ab"} {
		mixed.add([]byte(k), tsVerified)
	}
	var got []string
	for _, k := range mixed.sorted() {
		got = append(got, string(k))
	}
	require.Equal(t, []string{"a", "ab", "b", "b\x00", "m", "mm", "zz"}, got)

	var rowids tombSet
	for _, k := range []int{500, 3, 1 << 40, 70000, 2, 256, 255} {
		rowids.add(key(k), tsVerified)
	}
	var want [][]byte
	for _, k := range []int{2, 3, 255, 256, 500, 70000, 1 << 40} {
		want = append(want, key(k))
	}
	require.Equal(t, want, rowids.sorted())
}

// TestKeyTable_Sorted_RandomKeys_MatchSlicesSort sorts random sets of keys
// out of order: rowid keys, keys sharing a long prefix (index entries),
// keys that are prefixes of others, and keys tied on the 8 bytes after
// their common prefix; some are cancelled first.
func TestKeyTable_Sorted_RandomKeys_MatchSlicesSort(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 5))
	gens := map[string]func() []byte{
		"rowid":  func() []byte { return key(r.IntN(1 << 20)) },
		"prefix": func() []byte { return append([]byte("\x03\x17name-0000"), byte('0'+r.IntN(10)), byte('0'+r.IntN(10))) },
		"tied": func() []byte {
			return append([]byte("same-prefix-xxxxxxxx"), []byte(fmt.Sprint(r.IntN(100000)))...)
		},
		"short": func() []byte {
			b := make([]byte, r.IntN(4))
			for i := range b {
				b[i] = byte(r.IntN(3))
			}
			return b
		},
	}
	for name, gen := range gens {
		for _, n := range []int{1, 10, 70, 3000} {
			var s tombSet
			s.add(key(1<<62), tsVerified) // the run's first key: the rest go to other
			model := map[string]bool{}
			for range n {
				k := gen()
				if string(k) >= string(key(1<<62)) {
					continue
				}
				if s.add(k, tsVerified) {
					model[string(k)] = true
				}
				if r.IntN(10) == 0 {
					s.set(k, tsNone, func(b []byte) string { return string(b) })
					delete(model, string(k))
				}
			}
			want := append(slices.Sorted(maps.Keys(model)), string(key(1<<62)))
			var got []string
			for _, k := range s.sorted() {
				got = append(got, string(k))
			}
			require.Equal(t, want, got, "%s n %d", name, n)
		}
	}
}
