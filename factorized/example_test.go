package factorized_test

import (
	"fmt"

	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/factorized"
)

// A query result: one TypeValue column per output column, one tuple per
// row, read back in order; the table of a cached plan is released when the
// rows are closed, so an idle plan holds no block.
func ExampleTable() {
	pool := factorized.NewPool(factorized.PoolOptions{}) // one per database
	result := factorized.NewTable(pool, factorized.MustSchema(factorized.Value(), factorized.Value()))

	r := result.Append()
	r.SetValue(0, factorized.KindInt, 1, nil)
	r.SetText(1, "one")
	r = result.Append()
	r.SetValue(0, factorized.KindInt, 2, nil)
	r.SetNull(1)

	for i, row := range result.All() {
		_, n, _ := row.Value(0)
		kind, _, text := row.Value(1)
		fmt.Println(i, n, kind == factorized.KindNull, string(text)) // string() copies
	}
	result.Release()
	// Output:
	// 0 1 false one
	// 1 2 true
}

// A hash-join build side: insert every build row under its encoded key,
// then probe with each probe row's key and iterate the matches.
func ExampleHashTable_Insert() {
	pool := factorized.NewPool(factorized.PoolOptions{})
	build, _ := factorized.NewHashTable(pool, factorized.MustSchema(factorized.Value()))
	var key []byte
	for i, name := range []string{"ann", "bob", "ann2"} {
		key = keycodec.AppendInt(key[:0], int64(i%2)) // join column value
		build.Insert(key).SetText(0, name)
	}
	key = keycodec.AppendReal(key[:0], 0.0) // 0.0 = 0 in SQL
	m := build.Probe(key)
	n := 0
	for _, ok := m.Next(); ok; _, ok = m.Next() {
		n++
	}
	fmt.Println(n, "matches")
	build.Release()
	// Output: 2 matches
}

// Hash aggregation: one tuple per group, found or appended zeroed, updated
// in place; the groups are then read in insertion order.
func ExampleHashTable_FindOrInsert() {
	pool := factorized.NewPool(factorized.PoolOptions{})
	// Payload: group column, count(*), sum(x).
	agg, _ := factorized.NewHashTable(pool, factorized.MustSchema(factorized.Value(), factorized.Int64(), factorized.Int64()))
	var key []byte
	for _, in := range []struct {
		g string
		x int64
	}{{"a", 1}, {"b", 10}, {"a", 2}} {
		key = keycodec.AppendText(key[:0], in.g)
		r, found := agg.FindOrInsert(key)
		if !found {
			r.SetText(0, in.g)
		}
		r.SetInt64(1, r.Int64(1)+1)
		r.SetInt64(2, r.Int64(2)+in.x)
	}
	for _, r := range agg.Table().All() {
		fmt.Println(r.Text(0), r.Int64(1), r.Int64(2))
	}
	agg.Release()
	// Output:
	// a 2 3
	// b 1 10
}

// ORDER BY x DESC over materialised rows: encode each row's key, sort,
// read the rows in order.
func ExampleSorter() {
	pool := factorized.NewPool(factorized.PoolOptions{})
	rows := factorized.NewTable(pool, factorized.MustSchema(factorized.Int64()))
	for _, x := range []int64{3, 1, 2} {
		rows.Append().SetInt64(0, x)
	}
	s := factorized.NewSorter(pool)
	var key []byte
	for i, r := range rows.All() {
		key = keycodec.AppendInt(key[:0], r.Int64(0))
		keycodec.Invert(key) // DESC
		s.Add(i, key)
	}
	s.Sort()
	for i := range s.Len() {
		fmt.Print(rows.Int64(s.Row(i), 0), " ")
	}
	fmt.Println()
	// Output: 3 2 1
}

// ORDER BY x LIMIT 2: only candidates that make the cut are stored, each in
// the slot TopN gives (a new row, or the evicted candidate's row).
func ExampleTopN() {
	pool := factorized.NewPool(factorized.PoolOptions{})
	top := factorized.NewTopN(pool, 2)
	kept := factorized.NewTable(pool, factorized.MustSchema(factorized.Int64()))
	var key []byte
	for _, x := range []int64{5, 3, 9, 1, 4} {
		key = keycodec.AppendInt(key[:0], x)
		slot, ok := top.Offer(key)
		if !ok {
			continue
		}
		if slot == kept.Len() {
			kept.Append()
		}
		kept.SetInt64(slot, 0, x)
	}
	top.Sort()
	for i := range top.Len() {
		fmt.Print(kept.Int64(top.Slot(i), 0), " ")
	}
	fmt.Println()
	// Output: 1 3
}
