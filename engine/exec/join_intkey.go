package exec

import "github.com/ladybugsql/ladybug/engine/types"

// intKeyIndex finds a hash join's build rows by a single integer key
// without encoding it: when every non-NULL build key is an INTEGER, an
// INTEGER probe value matches exactly the rows with that key (other probe
// kinds still go through the hash table, whose encoding decides how they
// compare). Chains keep build order, as the hash table's candidates do.
type intKeyIndex struct {
	keys   []int64 // per build row, collected while building
	null   []bool
	allInt bool
	head   map[int64]int32
	// dense, when set, replaces head for keys in [lo, lo+len(dense)):
	// the first build row of key lo+i, -1 for none (keys of a narrow
	// range, as rowids and foreign keys mostly are).
	dense []int32
	lo    int64
	next  []int32 // next build row with the same key, -1 at the end
}

// keepDecodedBuild bounds the decoded build values (and keepIntKeys the
// integer-key index entries) a join keeps room for between executions.
const (
	keepDecodedBuild = 1 << 16
	keepIntKeys      = 1 << 14
)

// reset readies the index for a build, keeping a moderate one's room.
func (x *intKeyIndex) reset() {
	if cap(x.keys) > keepIntKeys || cap(x.next) > keepIntKeys || cap(x.dense) > denseSpan*keepIntKeys+denseSlack {
		*x = intKeyIndex{}
	}
	x.allInt = true
	x.keys, x.null, x.next, x.dense = x.keys[:0], x.null[:0], x.next[:0], x.dense[:0]
	clear(x.head)
}

// denseSpan is how many slots per build row a dense head slice may use
// (plus denseSlack), beyond which the map is smaller.
const (
	denseSpan  = 4
	denseSlack = 1024
)

// useDense sizes dense for the keys' range when it is narrow enough.
func (x *intKeyIndex) useDense() bool {
	lo, hi, seen := int64(0), int64(0), false
	for r, k := range x.keys {
		if x.null[r] {
			continue
		}
		if !seen || k < lo {
			lo = k
		}
		if !seen || k > hi {
			hi = k
		}
		seen = true
	}
	if !seen || hi-lo < 0 || hi-lo >= int64(denseSpan*len(x.keys)+denseSlack) {
		return false
	}
	n := int(hi-lo) + 1
	if cap(x.dense) >= n {
		x.dense = x.dense[:n]
	} else {
		x.dense = make([]int32, n)
	}
	for i := range x.dense {
		x.dense[i] = -1
	}
	x.lo = lo
	return true
}

// add records build row key v; false once a key is not an INTEGER.
func (x *intKeyIndex) add(v types.Value) {
	if !x.allInt {
		return
	}
	switch v.Kind() {
	case types.KindInt:
		x.keys, x.null = append(x.keys, v.Int()), append(x.null, false)
	case types.KindNull:
		x.keys, x.null = append(x.keys, 0), append(x.null, true)
	default:
		x.allInt, x.keys, x.null = false, x.keys[:0], x.null[:0]
	}
}

// finish builds the chains; false when the index does not apply.
func (x *intKeyIndex) finish() bool {
	if !x.allInt {
		return false
	}
	if cap(x.next) >= len(x.keys) {
		x.next = x.next[:len(x.keys)]
	} else {
		x.next = make([]int32, len(x.keys))
	}
	if x.useDense() {
		for r := len(x.keys) - 1; r >= 0; r-- {
			x.next[r] = -1
			if !x.null[r] {
				h := &x.dense[x.keys[r]-x.lo]
				x.next[r], *h = *h, int32(r)
			}
		}
		x.keys, x.null = x.keys[:0], x.null[:0]
		return true
	}
	if x.head == nil {
		x.head = make(map[int64]int32, len(x.keys))
	}
	for r := len(x.keys) - 1; r >= 0; r-- {
		x.next[r] = -1
		if x.null[r] {
			continue
		}
		if h, ok := x.head[x.keys[r]]; ok {
			x.next[r] = h
		}
		x.head[x.keys[r]] = int32(r)
	}
	x.keys, x.null = x.keys[:0], x.null[:0]
	return true
}

// appendRows appends the build rows with key k to cands.
func (x *intKeyIndex) appendRows(cands []int32, k int64) []int32 {
	var r int32
	if len(x.dense) > 0 {
		i := uint64(k - x.lo) // a wrapped difference is out of range too
		if i >= uint64(len(x.dense)) {
			return cands
		}
		r = x.dense[i]
	} else {
		var ok bool
		if r, ok = x.head[k]; !ok {
			return cands
		}
	}
	for ; r >= 0; r = x.next[r] {
		cands = append(cands, r)
	}
	return cands
}
