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

// TestReadWords_AsMatchesAndWord packs runs of random records of a few
// shapes into one buffer, as a leaf holds them, and checks that ReadWords
// reads exactly the leading records that match one of the hot layouts,
// each with the first that Matches, every word equal to Word's and the
// layout's Reals beside it, and stops at the first record that matches
// none or whose span lies past the buffer.
func TestReadWords_AsMatchesAndWord(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	second := 0
	for _, cols := range [][]int{{0}, {1, 2}, {0, 3, 5}, {1, 2, 3, 4, 5, 6, 7, 8}, {0, 12}} {
		p := NewColumnPicker(cols)
		shapes := make([][]Value, 4)
		for i := range shapes {
			shapes[i] = make([]Value, cols[len(cols)-1]+1+r.IntN(3))
			for c := range shapes[i] {
				shapes[i][c] = randomNumber(r)
			}
		}
		nums, vals := make([]int64, len(cols)), make([]Value, len(cols))
		read := 0
		for round := 0; round < 300; round++ {
			var page []byte
			var spans []uint32
			var recs [][]byte
			count, from := 1+r.IntN(40), shapes
			if round%10 == 0 {
				// More records than ReadWords classifies at once, of two
				// numeric shapes (one integer a byte wide, then two).
				count, from = 300+r.IntN(300), numericShapes(cols)
			}
			for range count {
				row := from[r.IntN(len(from))]
				if c := r.IntN(len(row)); len(from) == len(shapes) && r.IntN(4) == 0 {
					row[c] = randomNumber(r)
				}
				rec := AppendRecord(nil, row)
				if len(rec) > 0xFF {
					continue
				}
				if _, _, err := p.PickNumbers(rec, nums, vals); err != nil {
					t.Fatal(err)
				}
				page = append(page, byte(r.IntN(256))) // a byte between records
				spans = append(spans, uint32(len(page))<<8|uint32(len(rec)))
				page = append(page, rec...)
				recs = append(recs, rec)
			}
			cut := len(page)
			if r.IntN(5) == 0 && len(recs) > 1 { // the last record runs past the buffer
				cut--
			}
			var hot [3]WordLayout
			for k := range hot {
				p.HotWords(&hot[k], k)
			}
			const stride = 9
			dst := make([]int64, stride*len(spans))
			reals := make([]uint64, len(spans))
			n := ReadWords(hot[:], page[:cut], spans, dst, stride, reals)
			want := 0
			for ; want < len(recs) && (want < len(recs)-1 || cut == len(page)); want++ {
				k := 0
				for k < len(hot) && !hot[k].Matches(recs[want]) {
					k++
				}
				if k == len(hot) {
					break
				}
				if want >= n {
					continue
				}
				l := &hot[k]
				if k > 0 {
					second++
				}
				if reals[want] != l.Reals() {
					t.Fatalf("cols %v round %d: record %d reals %b, want %b", cols, round, want, reals[want], l.Reals())
				}
				for j := range l.Len() {
					if g, w := dst[want*stride+j], l.Word(recs[want], j); g != w {
						t.Fatalf("cols %v round %d: record %d word %d = %d, want %d", cols, round, want, j, g, w)
					}
				}
			}
			if n != want {
				t.Fatalf("cols %v round %d: ReadWords read %d records, want %d", cols, round, n, want)
			}
			read += n
		}
		if read < 300 {
			t.Errorf("cols %v: ReadWords read %d records in all, fewer than one long run", cols, read)
		}
	}
	if second == 0 {
		t.Error("no record was read with a layout other than the first")
	}
}

// numericShapes are two rows of INTEGERs and REALs covering cols, six
// bytes or more wide (so that even column 0 is read as a word), the last
// column six bytes wide in the first row and eight in the second.
func numericShapes(cols []int) [][]Value {
	out := make([][]Value, 2)
	for i := range out {
		last := cols[len(cols)-1]
		out[i] = make([]Value, last+1)
		for c := range out[i] {
			out[i][c] = NewInt(1<<40 + int64(c))
			if c%3 == 2 {
				out[i][c] = NewReal(float64(c) + 0.5)
			}
		}
		out[i][last] = NewInt(int64(1)<<(40+10*i) + 3) // six bytes, then eight
	}
	return out
}
