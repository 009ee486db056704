package exec

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/funcs"
)

// countRun counts the non-NULL values of column j of the n rows rd read
// last: a row read as words has no NULL.
func (a *numAcc) countRun(rd *aggReader, j, n int) {
	if rd.same != tagValues && rd.same != tagMixed {
		a.count += int64(n)
		return
	}
	w := rd.width
	for i, t := range rd.tags[:n] {
		if t != tagValues || !rd.vals[i*w+j].IsNull() {
			a.count++
		}
	}
}

// sumRun folds column j of the n rows rd read last into a sum, total or
// avg, in row order, as sumStrided would fold their values: a run whose
// rows are all integers (or all reals) in column j in one tight loop,
// else row by row.
func (a *numAcc) sumRun(rd *aggReader, j, n int) {
	w, bit := rd.width, uint64(1)<<j
	if t := rd.same; t != tagValues && t != tagMixed {
		if t&bit == 0 {
			a.sumInts(rd.nums[:n*w], j, w)
		} else {
			a.sumReals(rd.nums[:n*w], j, w)
		}
		return
	}
	if rd.same == tagValues {
		a.sumStrided(rd.vals[:n*w], j, w)
		return
	}
	for i, t := range rd.tags[:n] {
		switch {
		case t == tagValues:
			a.sumStrided(rd.vals[i*w:i*w+w], j, w)
		case t&bit == 0:
			a.count++
			a.addInt(rd.nums[i*w+j])
		default:
			a.count++
			a.addReal(math.Float64frombits(uint64(rd.nums[i*w+j])))
		}
	}
}

// sumInts adds the integers nums[from], nums[from+w], …: exactly in a
// local until the sum would overflow, then through addInt.
func (a *numAcc) sumInts(nums []int64, from, w int) {
	i := from
	if !a.real {
		s := a.isum
		for ; i < len(nums); i += w {
			x := nums[i]
			t := s + x
			if (t^s)&(t^x) < 0 { // overflow: both operands' signs differ from the sum's
				break
			}
			s = t
		}
		a.count += int64((i - from) / w)
		a.isum = s
	}
	for ; i < len(nums); i += w {
		a.count++
		a.addInt(nums[i])
	}
}

// sumReals adds the REALs whose bits are nums[from], nums[from+w], … to
// the compensated sum, as addReal does one at a time.
func (a *numAcc) sumReals(nums []int64, from, w int) {
	if from >= len(nums) {
		return
	}
	if !a.real {
		a.real = true
		a.fsum, a.ferr = funcs.KBNInit(a.isum)
	}
	a.ovf = false
	s, e := a.fsum, a.ferr
	k := 0
	for i := from; i < len(nums); i += w {
		funcs.KBNStep(&s, &e, math.Float64frombits(uint64(nums[i])))
		k++
	}
	a.fsum, a.ferr = s, e
	a.count += int64(k)
}
