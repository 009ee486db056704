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

// radixSort sorts a (using tmp, of a's length) by the bits above posBits
// (the rowids; the positions below need no order, as a window holds each
// rowid once) and returns the sorted slice: a or tmp. It is a
// least-significant-digit sort on 11-bit digits that skips every digit
// all values share, so the rowids of one range (close together, below
// 2^22) sort in one or two linear passes.
func radixSort(a, tmp []uint64) []uint64 {
	const digit = 11
	all, same := uint64(0), ^uint64(0)
	for _, x := range a {
		all |= x
		same &= x
	}
	differ := (all ^ same) >> posBits << posBits // bits not every value shares
	src, dst := a, tmp
	for shift := uint(posBits); shift < 64 && differ>>shift != 0; shift += digit {
		if (differ>>shift)&(1<<digit-1) == 0 {
			continue
		}
		var pos [1 << digit]int32
		for _, x := range src {
			pos[(x>>shift)&(1<<digit-1)]++
		}
		var sum int32
		for i, c := range pos {
			pos[i] = sum
			sum += c
		}
		for _, x := range src {
			d := (x >> shift) & (1<<digit - 1)
			dst[pos[d]] = x
			pos[d]++
		}
		src, dst = dst, src
	}
	return src
}
