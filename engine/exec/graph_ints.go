package exec

// graphInts numbers the vertices of one-column integer keys: an
// open-addressing table (linear probing, power-of-two size, at most half
// full) of keys and vertex numbers, with no allocation per vertex and
// nothing to free but two slices, kept for the next execution.
type graphInts struct {
	keys  []int64
	verts []int32 // vertex number + 1; 0 marks an empty slot
	n     int
	shift uint // 64 - log2(len(keys))
}

// graphIntsMin is the table's initial size in slots.
const graphIntsMin = 64

// reset empties the table, keeping its room.
func (t *graphInts) reset() {
	clear(t.verts)
	t.n = 0
}

// slot is the first slot to probe for k (Fibonacci hashing).
func (t *graphInts) slot(k int64) int {
	return int((uint64(k) * 0x9E3779B97F4A7C15) >> t.shift)
}

// get returns the vertex numbered for k.
func (t *graphInts) get(k int64) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := len(t.keys) - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		switch v := t.verts[i]; {
		case v == 0:
			return 0, false
		case t.keys[i] == k:
			return v - 1, true
		}
	}
}

// put records vertex v for k, which get does not find.
func (t *graphInts) put(k int64, v int32) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	mask := len(t.keys) - 1
	i := t.slot(k)
	for t.verts[i] != 0 {
		i = (i + 1) & mask
	}
	t.keys[i], t.verts[i] = k, v+1
	t.n++
}

// grow doubles the table (or makes the first one) and re-inserts.
func (t *graphInts) grow() {
	keys, verts := t.keys, t.verts
	size := max(graphIntsMin, 2*len(keys))
	t.keys, t.verts, t.n = make([]int64, size), make([]int32, size), 0
	t.shift = 64
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
	for i, v := range verts {
		if v != 0 {
			t.put(keys[i], v-1)
		}
	}
}

// bytes is the table's size, for memory_limit.
func (t *graphInts) bytes() int64 { return int64(cap(t.keys))*8 + int64(cap(t.verts))*4 }
