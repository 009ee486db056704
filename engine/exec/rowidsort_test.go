package exec

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSortPending_RandomAndHugeRowids_SortsByRowid(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var scratch [2][]uint64
	for _, span := range []int64{10, 1 << 20, 1 << 40, -1} {
		rows := make([]pendingRow, 1000)
		for i := range rows {
			id := r.Int64N(1 << 50)
			if span > 0 {
				id %= span
			} else if i%7 == 0 {
				id = -id // negative rowids take the comparison sort
			}
			rows[i] = pendingRow{rowid: id, pos: i}
		}
		want := slices.Clone(rows)
		slices.SortStableFunc(want, cmpPending)
		sortPending(rows, &scratch)
		for i := range rows {
			if rows[i].rowid != want[i].rowid {
				t.Fatalf("span %d: row %d has rowid %d, want %d", span, i, rows[i].rowid, want[i].rowid)
			}
		}
		seen := map[int]bool{}
		for _, p := range rows {
			seen[p.pos] = true
		}
		if len(seen) != len(rows) {
			t.Fatalf("span %d: positions lost", span)
		}
	}
}
