package exec

import "github.com/ladybugsql/ladybug/engine/types"

// intGroups finds the groups of a single-key GROUP BY through an int64 map
// while every key seen is an INTEGER (a rowid, a foreign key), skipping
// the key encoding and the byte-key hash table. The first key of another
// kind moves the map's groups into the hash table, whose encoding decides
// how such keys compare (1 and 1.0 are one group there), and the map is
// not used again for the run. Sorted (streaming) aggregates need neither.
type intGroups struct {
	m   map[int64]int32
	off bool
}

// findIntGroup returns the group of row i's key and true, or false when the row
// must go through the hash table.
func (a *aggregateOp) findIntGroup(i int) (int, bool) {
	x := &a.ig
	if x.off || a.sorted || len(a.groups) != 1 {
		return 0, false
	}
	v := a.gbufs[0][i]
	if v.Kind() != types.KindInt {
		a.spillIntGroups()
		return 0, false
	}
	if x.m == nil {
		x.m = map[int64]int32{}
	}
	if g, ok := x.m[v.Int()]; ok {
		return int(g), true
	}
	g := a.ngroups
	a.newGroup(i)
	x.m[v.Int()] = int32(g)
	return g, true
}

// spillIntGroups moves the map's groups into the hash table.
func (a *aggregateOp) spillIntGroups() {
	x := &a.ig
	x.off = true
	for k, g := range x.m {
		a.key = appendKey(a.key[:0], types.NewInt(k), a.gcolls[0], false, true)
		r, _ := a.ht.FindOrInsert(a.key)
		r.SetInt64(0, int64(g))
	}
	x.m = nil
}
