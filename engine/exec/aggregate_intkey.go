package exec

import "github.com/ladybugsql/ladybug/engine/types"

// intGroups finds the groups of a single-key GROUP BY while every key seen
// is an INTEGER (a rowid, a foreign key), skipping the key encoding and
// the byte-key hash table: keys from 0 up to a bound proportional to the
// groups found index a dense slice, others an int64 map. The first key of
// another kind moves the groups into the hash table, whose encoding
// decides how such keys compare (1 and 1.0 are one group there), and
// neither is used again for the run. Sorted (streaming) aggregates need
// none of it.
type intGroups struct {
	// dense[k] is 1 + the group of key k; a key below len(dense) is never
	// in m (growing dense moves such keys over).
	dense []int32
	m     map[int64]int32
	off   bool
}

// Dense bounds: the slice may cover keys up to denseMin, or up to
// denseFactor entries per group found.
const (
	denseMin    = 1 << 16
	denseFactor = 16
)

// intKeyed reports whether this run's groups are found through intGroups.
func (a *aggregateOp) intKeyed() bool {
	return !a.ig.off && !a.sorted && len(a.groups) == 1
}

// assignIntGroups finds the group of each live row while keys are
// INTEGERs and returns how many rows it handled: at a key of another kind
// it moves the groups into the hash table and leaves the rest of the
// batch to it.
func (a *aggregateOp) assignIntGroups(b *Batch, gidx []int) int {
	col := a.gkeys[0]
	n := b.Len()
	for k := 0; k < n; k++ {
		i := b.Phys(k)
		v := &col[i]
		if v.Kind() != types.KindInt {
			a.spillIntGroups()
			return k
		}
		gidx[i] = a.intGroup(v.Int(), i)
	}
	return n
}

// intGroup returns key x's group, creating it from row i when new.
func (a *aggregateOp) intGroup(x int64, i int) int {
	ig := &a.ig
	if uint64(x) < uint64(len(ig.dense)) {
		if g := ig.dense[x]; g != 0 {
			return int(g - 1)
		}
	} else if x >= 0 && x < max(denseMin, denseFactor*int64(a.ngroups+1)) {
		ig.grow(x)
	} else {
		if g, ok := ig.m[x]; ok {
			return int(g)
		}
		if ig.m == nil {
			ig.m = map[int64]int32{}
		}
		ig.m[x] = int32(a.ngroups)
		a.newGroup(i)
		return a.ngroups - 1
	}
	ig.dense[x] = int32(a.ngroups + 1)
	a.newGroup(i)
	return a.ngroups - 1
}

// grow extends dense to cover key x, moving map keys it now covers.
func (ig *intGroups) grow(x int64) {
	n := max(2*len(ig.dense), 1024)
	for int64(n) <= x {
		n *= 2
	}
	if n <= cap(ig.dense) {
		ig.dense = ig.dense[:n]
	} else {
		d := make([]int32, n)
		copy(d, ig.dense)
		ig.dense = d
	}
	for k, g := range ig.m {
		if uint64(k) < uint64(n) {
			ig.dense[k] = g + 1
			delete(ig.m, k)
		}
	}
}

// spillIntGroups moves the groups found so far into the hash table.
func (a *aggregateOp) spillIntGroups() {
	ig := &a.ig
	ig.off = true
	put := func(k int64, g int32) {
		a.key = appendKey(a.key[:0], types.NewInt(k), a.gcolls[0], false, true)
		r, _ := a.ht.FindOrInsert(a.key)
		r.SetInt64(0, int64(g))
	}
	for k, g := range ig.dense {
		if g != 0 {
			put(int64(k), g-1)
		}
	}
	for k, g := range ig.m {
		put(k, g)
	}
	ig.m = nil
	clear(ig.dense)
	ig.dense = ig.dense[:0]
}

// bytes approximates the index's memory.
func (ig *intGroups) bytes() int64 { return int64(cap(ig.dense))*4 + int64(len(ig.m))*16 }

// reset empties the index for the next run, keeping a moderate dense
// slice's room.
func (ig *intGroups) reset() {
	if cap(ig.dense) > denseMin {
		ig.dense = nil
	}
	clear(ig.dense)
	ig.dense = ig.dense[:0]
	ig.m, ig.off = nil, false
}
