// realtext records SQLite's CAST(real AS TEXT) for fixed and random float64
// values, for engine/types. Usage: realtext > file.tsv
package main

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand"

	_ "modernc.org/sqlite"
)

func main() {
	db, _ := sql.Open("sqlite", ":memory:")
	r := rand.New(rand.NewSource(7))
	fmt.Println("# SQLite 3.54.1 CAST(real AS TEXT): float64 bits in hex<TAB>text")
	fixed := []float64{0.1, 1.0 / 3, 0.1 + 0.2, 100, 1e15, 1e16, 1e17, 123456789012345678, 1.5e-7, 1e-4, 1e-5, 49.47, 12761.400000000001, 1e300 * 10, 5e-324, math.MaxFloat64, 2.5, -2.5, 9223372036854775807, 0.3333333333333333, 1e21, 1e22, 123.456, 99.99999999999999, 0.9999999999999999}
	for i := 0; i < 600; i++ {
		var f float64
		if i < len(fixed) {
			f = fixed[i]
		} else {
			switch i % 4 {
			case 0:
				f = math.Float64frombits(r.Uint64())
			case 1:
				f = r.Float64() * math.Pow(10, float64(r.Intn(40)-20))
			case 2:
				f = float64(r.Intn(100000)) / 1000
			case 3:
				f = float64(r.Intn(1000000)) / 100 * math.Pow(10, float64(r.Intn(10)))
			}
		}
		if math.IsNaN(f) {
			continue
		}
		var s string
		db.QueryRow("SELECT CAST(? AS TEXT)", f).Scan(&s)
		fmt.Printf("%016x\t%s\n", math.Float64bits(f), s)
	}
}
