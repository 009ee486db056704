package txn

// radixSort sorts v ascending: a least-significant-digit radix sort on
// bytes that skips every byte position all values share. Rowid keys of
// one table differ only in their low bytes, so a commit's tombstones sort
// in two or three linear passes instead of n·log n comparisons.
func radixSort(v []uint64) {
	if len(v) < 64 {
		insertionSort(v)
		return
	}
	var counts [8][256]int
	for _, x := range v {
		for d := range 8 {
			counts[d][byte(x>>(8*d))]++
		}
	}
	src, dst := v, make([]uint64, len(v))
	for d := range 8 {
		c := &counts[d]
		if c[byte(src[0]>>(8*d))] == len(src) {
			continue // every value has this byte
		}
		pos := 0
		for b := range c {
			c[b], pos = pos, pos+c[b]
		}
		for _, x := range src {
			b := byte(x >> (8 * d))
			dst[c[b]] = x
			c[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &v[0] {
		copy(v, src)
	}
}

// insertionSort sorts a short v ascending.
func insertionSort(v []uint64) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}
