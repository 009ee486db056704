package types

import (
	"math/rand/v2"
	"testing"
)

// TestColumnPicker_PickNumbers_MatchesPick reads random records of a few
// repeating shapes with PickNumbers and with the hot WordLayouts, and
// checks each answer against Pick's values: numbers as words with their
// REAL bits, anything else as values.
func TestColumnPicker_PickNumbers_MatchesPick(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, cols := range [][]int{{0}, {1, 2}, {0, 3, 5}, {2, 4, 6, 7, 8, 9, 10, 11, 12}} {
		p, ref := NewColumnPicker(cols), NewColumnPicker(cols)
		shapes := make([][]Value, 5)
		for i := range shapes {
			shapes[i] = make([]Value, cols[len(cols)-1]+1+r.IntN(3))
			for c := range shapes[i] {
				shapes[i][c] = randomNumber(r)
			}
		}
		want := make([]Value, len(cols))
		nums, vals := make([]int64, len(cols)), make([]Value, len(cols))
		var hot [2]WordLayout
		words := 0
		for n := 0; n < 4000; n++ {
			row := shapes[r.IntN(len(shapes))]
			if c := r.IntN(len(row)); r.IntN(3) == 0 {
				row[c] = randomNumber(r)
			}
			rec := AppendRecord(nil, row)
			if err := ref.Pick(rec, want); err != nil {
				t.Fatal(err)
			}
			for k := range hot {
				if l := &hot[k]; l.Matches(rec) {
					words++
					checkWords(t, cols, want, l.Len(), l.Reals(), func(j int) int64 { return l.Word(rec, j) })
				}
			}
			reals, num, err := p.PickNumbers(rec, nums, vals)
			if err != nil {
				t.Fatal(err)
			}
			if num {
				checkWords(t, cols, want, len(cols), reals, func(j int) int64 { return nums[j] })
			} else {
				for j := range cols {
					if g, w := vals[j], want[j]; g.Kind() != w.Kind() || g.Int() != w.Int() || g.Str() != w.Str() {
						t.Fatalf("cols %v: value %d = %v, want %v", cols, j, g, w)
					}
				}
			}
			p.HotWords(&hot[0], 0)
			p.HotWords(&hot[1], 1)
		}
		if len(cols) <= maxWordCols && words == 0 {
			t.Errorf("cols %v: no record read through a WordLayout", cols)
		}
	}
}

// randomNumber is mostly an INTEGER or REAL of varying width, now and
// then a NULL or text.
func randomNumber(r *rand.Rand) Value {
	switch r.IntN(12) {
	case 0:
		return Null
	case 1:
		return NewText("7")
	case 2, 3:
		return NewReal(r.NormFloat64())
	}
	return randomPickValue(r)
}

// checkWords compares n words, REAL where reals says, with Pick's values.
func checkWords(t *testing.T, cols []int, want []Value, n int, reals uint64, word func(int) int64) {
	t.Helper()
	if n != len(cols) {
		t.Fatalf("cols %v: %d words", cols, n)
	}
	for j, w := range want {
		k := KindInt
		if reals>>j&1 == 1 {
			k = KindReal
		}
		if g := word(j); k != w.Kind() || g != w.Int() {
			t.Fatalf("cols %v: word %d = %d (%v), want %v", cols, j, g, k, w)
		}
	}
}
