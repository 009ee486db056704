package txn

// sortItem is a key to sort by (key) and what it stands for (idx).
type sortItem struct {
	key uint64
	idx int32
}

// radixSort sorts v by key ascending: a least-significant-digit radix sort
// on bytes that skips every byte position all keys share. Rowid keys of
// one table differ only in their low bytes, so a commit's tombstones sort
// in two or three linear passes instead of n·log n comparisons.
func radixSort(v []sortItem) {
	if len(v) < 64 {
		insertionSort(v)
		return
	}
	var counts [8][256]int
	for _, x := range v {
		for d := range 8 {
			counts[d][byte(x.key>>(8*d))]++
		}
	}
	src, dst := v, make([]sortItem, len(v))
	for d := range 8 {
		c := &counts[d]
		if c[byte(src[0].key>>(8*d))] == len(src) {
			continue // every key has this byte
		}
		pos := 0
		for b := range c {
			c[b], pos = pos, pos+c[b]
		}
		for _, x := range src {
			b := byte(x.key >> (8 * d))
			dst[c[b]] = x
			c[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &v[0] {
		copy(v, src)
	}
}

// insertionSort sorts a short v by key ascending.
func insertionSort(v []sortItem) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j].key < v[j-1].key; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}
