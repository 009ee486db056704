package plan

import (
	"math"
	"testing"

	"github.com/ladybugsql/ladybug/engine/catalog"
)

// A size class's rows are within a factor of 10^(1/4) of every count in
// it, the classes grow with the count, an empty table shares the one-row
// class, and the largest counts stay in range.
func TestClassOf_RowsWithinQuarterDecade(t *testing.T) {
	prev := SizeClass(0)
	for _, n := range []int64{0, 1, 2, 3, 5, 6, 17, 18, 99, 100, 101, 999, 3162, 5000, 1 << 20, 1e9, 1e15, math.MaxInt64} {
		c := ClassOf(n)
		if c < prev || c < 1 || c > maxSizeClass {
			t.Fatalf("ClassOf(%d) = %d after %d", n, c, prev)
		}
		prev = c
		if n > 1 && n < 1e17 {
			if r := c.Rows() / float64(n); r > 1.7783 || r < 1/1.7783 {
				t.Errorf("ClassOf(%d).Rows() = %v", n, c.Rows())
			}
		}
	}
	if ClassOf(0) != ClassOf(1) || ClassOf(1).Rows() != 1 || SizeClass(0).Rows() != 0 {
		t.Errorf("classes of 0 and 1 rows: %d %d, rows %v", ClassOf(0), ClassOf(1), ClassOf(1).Rows())
	}
}

type fixedSizer map[string]int64

func (f fixedSizer) ApproxRows(t *catalog.Table) (int64, bool) {
	n, ok := f[t.Name]
	return n, ok
}

// SizesHold fails exactly when a table left its class; a table the sizer
// cannot size now keeps the plan.
func TestSizesHold_ClassChange(t *testing.T) {
	a, b := &catalog.Table{Name: "a"}, &catalog.Table{Name: "b"}
	sizes := []TableSize{{Table: a, Class: ClassOf(100)}, {Table: b, Class: ClassOf(5)}}
	for _, c := range []struct {
		now  fixedSizer
		want bool
	}{
		{fixedSizer{"a": 100, "b": 5}, true},
		{fixedSizer{"a": 120, "b": 5}, true},
		{fixedSizer{"a": 100}, true},
		{fixedSizer{"a": 1000, "b": 5}, false},
		{fixedSizer{"a": 100, "b": 0}, false},
	} {
		if got := SizesHold(c.now, sizes); got != c.want {
			t.Errorf("SizesHold(%v) = %v, want %v", c.now, got, c.want)
		}
	}
}
