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
	next   []int32 // next build row with the same key, -1 at the end
}

// keepDecodedBuild bounds the decoded build values (and keepIntKeys the
// integer-key index entries) a join keeps room for between executions.
const (
	keepDecodedBuild = 1 << 16
	keepIntKeys      = 1 << 16
)

// reset readies the index for a build, keeping a moderate one's room.
func (x *intKeyIndex) reset() {
	if cap(x.keys) > keepIntKeys || cap(x.next) > keepIntKeys {
		*x = intKeyIndex{}
	}
	x.allInt = true
	x.keys, x.null, x.next = x.keys[:0], x.null[:0], x.next[:0]
	clear(x.head)
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
	if x.head == nil {
		x.head = make(map[int64]int32, len(x.keys))
	}
	if cap(x.next) >= len(x.keys) {
		x.next = x.next[:len(x.keys)]
	} else {
		x.next = make([]int32, len(x.keys))
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
	r, ok := x.head[k]
	if !ok {
		return cands
	}
	for ; r >= 0; r = x.next[r] {
		cands = append(cands, r)
	}
	return cands
}
