// diffsortorder compares types.Compare (and the index key order) with
// SQLite's ORDER BY over random mixed values, per collation.
package main

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"sort"

	"github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
	"github.com/ladybugsql/ladybug/engine/types"
)

func main() {
	db := oracle.Open()
	r := rand.New(rand.NewSource(3))
	pool := []any{nil, int64(0), int64(-1), int64(1 << 53), int64(1<<53 + 1), int64(math.MaxInt64), int64(math.MinInt64), 0.0, 9007199254740992.0, 9.223372036854775807e18, -9.223372036854775808e18,
		1.5, -2.5, 1e300, math.Inf(1), math.Inf(-1), "", "a", "A", "a ", "a  ", "B", "b", "_", "ab", "é", "É", "\x00", "a\x00b", []byte{}, []byte{0}, []byte("a"), []byte("A"), "10", "9"}
	bad := 0
	for it := 0; it < 3000; it++ {
		n := 2 + r.Intn(8)
		vals := make([]any, n)
		for i := range vals {
			vals[i] = pool[r.Intn(len(pool))]
		}
		for _, coll := range []types.Collation{types.CollBinary, types.CollNoCase, types.CollRTrim} {
			db.Exec("DROP TABLE IF EXISTS s")
			db.Exec("CREATE TABLE s(k INTEGER PRIMARY KEY, x)")
			for i, v := range vals {
				db.Exec("INSERT INTO s VALUES(?, ?)", i, v)
			}
			rows, err := db.Query("SELECT k FROM s ORDER BY x COLLATE " + coll.String() + ", k")
			if err != nil {
				panic(err)
			}
			var want []int
			for rows.Next() {
				var k int
				rows.Scan(&k)
				want = append(want, k)
			}
			rows.Close()
			idx := make([]int, n)
			for i := range idx {
				idx[i] = i
			}
			sort.SliceStable(idx, func(a, b int) bool {
				return types.Compare(oracle.Value(vals[idx[a]]), oracle.Value(vals[idx[b]]), coll) < 0
			})
			keys := make([]int, n)
			copy(keys, idx)
			sort.SliceStable(keys, func(a, b int) bool {
				ka := types.AppendKey(nil, oracle.Value(vals[keys[a]]), false, coll)
				kb := types.AppendKey(nil, oracle.Value(vals[keys[b]]), false, coll)
				return bytes.Compare(ka, kb) < 0
			})
			if fmt.Sprint(idx) != fmt.Sprint(want) || fmt.Sprint(keys) != fmt.Sprint(want) {
				bad++
				if bad < 10 {
					fmt.Printf("%v %q: ours %v keys %v sqlite %v\n", coll, vals, idx, keys, want)
				}
			}
		}
	}
	fmt.Println("mismatches:", bad)
}
