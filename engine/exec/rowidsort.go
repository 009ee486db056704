package exec

import (
	"cmp"
	"slices"
)

// sortPending orders rows by rowid. Rowids in [0, 2^50) (all but
// explicitly huge or negative ones) are packed with their window position
// into one uint64 each and radix-sorted: a batch of random rowids sorts in
// a few linear passes, with no comparison callback.
func sortPending(rows []pendingRow, scratch *[2][]uint64) {
	if slices.IsSortedFunc(rows, cmpPending) {
		return
	}
	p := scratch[0][:0]
	for _, r := range rows {
		if r.rowid < 0 || r.rowid >= 1<<(64-posBits) {
			slices.SortFunc(rows, cmpPending)
			return
		}
		p = append(p, uint64(r.rowid)<<posBits|uint64(r.pos))
	}
	scratch[0] = p
	if len(scratch[1]) < len(p) {
		scratch[1] = make([]uint64, cap(p))
	}
	for i, x := range radixSort(p, scratch[1][:len(p)]) {
		rows[i] = pendingRow{rowid: int64(x >> posBits), pos: int(x & (1<<posBits - 1))}
	}
}

// posBits holds a window position (< maxWindow*BatchSize).
const posBits = 14

// The packed position must fit in posBits.
var _ = [1<<posBits - maxWindow*BatchSize]struct{}{}

func cmpPending(a, b pendingRow) int { return cmp.Compare(a.rowid, b.rowid) }

// radixSort sorts a (using tmp, of a's length) by bytes from the lowest,
// stopping after the highest byte any value uses, and returns the sorted
// slice: a or tmp.
func radixSort(a, tmp []uint64) []uint64 {
	var all uint64
	for _, x := range a {
		all |= x
	}
	src, dst := a, tmp
	for shift := uint(0); shift < 64 && all>>shift != 0; shift += 8 {
		var pos [256]int
		for _, x := range src {
			pos[byte(x>>shift)]++
		}
		sum := 0
		for i, c := range pos {
			pos[i] = sum
			sum += c
		}
		for _, x := range src {
			b := byte(x >> shift)
			dst[pos[b]] = x
			pos[b]++
		}
		src, dst = dst, src
	}
	return src
}
