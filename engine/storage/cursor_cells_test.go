package storage

import (
	"bytes"
	"testing"
)

// TestCursor_Cells_MatchesNext walks a tree of short entries and overflow
// values reading in-place runs where the cursor allows and AppendRun
// where it does not, and checks it sees exactly the tree's entries.
func TestCursor_Cells_MatchesNext(t *testing.T) {
	rt, root, want := runTree(t)
	for _, max := range []int{1, 3, 1024} {
		c := rt.Tree(root).Cursor()
		var got []Entry
		var run []Entry
		inPlace := 0
		for ok := c.First(); ok; ok = c.Next() {
			if r, ok := c.Cells(max); ok {
				if r.Len() == 0 || r.Len() > max {
					t.Fatalf("max %d: run of %d", max, r.Len())
				}
				for i := 0; i < r.Len(); i++ {
					got = append(got, Entry{bytes.Clone(r.Key(i)), bytes.Clone(r.Value(i))})
				}
				inPlace += r.Len()
				if !bytes.Equal(c.Key(), r.Key(r.Len()-1)) {
					t.Fatalf("max %d: cursor not on the run's last cell", max)
				}
				continue
			}
			run = c.AppendRun(run[:0], max)
			for _, e := range run {
				got = append(got, Entry{bytes.Clone(e.Key), bytes.Clone(e.Value)})
			}
		}
		if err := c.Err(); err != nil {
			t.Fatal(err)
		}
		c.Close()
		sameEntries(t, got, want)
		if inPlace < len(want)*9/10 {
			t.Fatalf("max %d: %d of %d entries in place", max, inPlace, len(want))
		}
	}
}
