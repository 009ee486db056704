package ladybug_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// shapes generate hostile statements of a size n: long chains, deep
// nests, wide rows and long lists, the inputs that once overflowed the
// stack or ran for minutes.
var shapes = []func(rng *rand.Rand, n int) string{
	func(rng *rand.Rand, n int) string { // a chain of mixed binary operators
		ops := []string{"+", "-", "*", " AND ", " OR ", "||", " = ", " < ", "&", "<<"}
		var b strings.Builder
		b.WriteString("SELECT 1")
		for i := 0; i < n; i++ {
			b.WriteString(ops[rng.Intn(len(ops))])
			b.WriteString([]string{"1", "a", "'x'", "abs(1)", "(1)", "?", "NULL"}[rng.Intn(7)])
		}
		return b.String() + " FROM t"
	},
	func(_ *rand.Rand, n int) string { // nested parentheses
		return "SELECT " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n)
	},
	func(_ *rand.Rand, n int) string { // nested prefix operators
		return "SELECT " + strings.Repeat("- ", n) + "1"
	},
	func(_ *rand.Rand, n int) string { // nested CASE
		return "SELECT " + strings.Repeat("CASE WHEN 1 THEN ", n) + "1" + strings.Repeat(" END", n)
	},
	func(_ *rand.Rand, n int) string { // nested scalar subqueries
		return "SELECT " + strings.Repeat("(SELECT ", n) + "1" + strings.Repeat(")", n)
	},
	func(_ *rand.Rand, n int) string { // nested FROM subqueries
		return strings.Repeat("SELECT * FROM (", n) + "SELECT 1" + strings.Repeat(")", n)
	},
	func(_ *rand.Rand, n int) string { // a compound SELECT
		return joined("SELECT 1", " UNION ", n+1)
	},
	func(_ *rand.Rand, n int) string { // a join
		return "SELECT count(*) FROM " + joined("t", ",", n+1)
	},
	func(_ *rand.Rand, n int) string { // a wide result
		return "SELECT " + joined("a", ",", n+1) + " FROM t"
	},
	func(_ *rand.Rand, n int) string { // a wide table
		var b strings.Builder
		for i := 0; i <= n; i++ {
			fmt.Fprintf(&b, ",c%d", i)
		}
		return "CREATE TEMP TABLE w" + fmt.Sprint(n) + "(" + b.String()[1:] + ")"
	},
	func(_ *rand.Rand, n int) string { // an IN list
		return "SELECT a IN (" + joined("1", ",", n+1) + ") FROM t"
	},
	func(_ *rand.Rand, n int) string { // a chain of CTEs (30 bytes each: 100,000 make 3 MB)
		return cteChain(min(n, 100_000) + 1)
	},
	func(_ *rand.Rand, n int) string { // a function with many arguments
		return "SELECT max(" + joined("1", ",", n+1) + ")"
	},
	func(rng *rand.Rand, n int) string { // a wildcard-heavy LIKE
		var p strings.Builder
		for i := 0; i < n; i++ {
			p.WriteString([]string{"%", "a", "_", "%a"}[rng.Intn(4)])
		}
		return fmt.Sprintf("SELECT printf('%%.*c', %d, 'a') LIKE '%sb'", n, p.String())
	},
	func(_ *rand.Rand, n int) string { // a long VALUES
		return "SELECT count(*) FROM (VALUES " + joined("(1)", ",", n+1) + ")"
	},
}

// runShape runs one generated statement with a deadline; any error is
// fine, a crash or a hang is not.
func runShape(t testing.TB, db *sql.DB, sql string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, sql)
	if err != nil {
		return
	}
	for rows.Next() {
	}
	require.NoError(t, rows.Close())
}

func openShapesDB(t testing.TB) *sql.DB {
	db := openLimitsDBAt(t, ":memory:?memory_limit=64MiB")
	_, err := db.Exec("INSERT INTO t VALUES (1, 2)")
	require.NoError(t, err)
	return db
}

// TestLimits_GeneratedShapesNeverCrash runs every shape around the limits
// (and far past them with LADYBUG_STRESS=1): each returns a result or an
// error, none takes the process down or runs past its deadline.
func TestLimits_GeneratedShapesNeverCrash(t *testing.T) {
	db := openShapesDB(t)
	defer db.Close()
	sizes := []int{0, 1, 63, 64, 199, 200, 499, 500, 999, 1000, 1001, 2000, 2001, 20_000}
	rounds := 1
	if os.Getenv("LADYBUG_STRESS") == "1" {
		sizes = append(sizes, 100_000, 1_000_000)
		rounds = 20
	}
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewSource(seed))
	t.Logf("seed %d", seed)
	for r := 0; r < rounds; r++ {
		for k, shape := range shapes {
			for _, n := range sizes {
				if r > 0 {
					n = rng.Intn(n + 1)
				}
				start := time.Now()
				runShape(t, db, shape(rng, n))
				require.Less(t, time.Since(start), time.Minute, "shape %d size %d", k, n)
			}
		}
	}
}

// FuzzLimits_Shapes: go test -fuzz=FuzzLimits_Shapes -fuzztime=5m .
func FuzzLimits_Shapes(f *testing.F) {
	for k := range shapes {
		f.Add(uint8(k), uint32(1001), int64(k))
	}
	db := openShapesDB(f)
	defer db.Close()
	f.Fuzz(func(t *testing.T, kind uint8, n uint32, seed int64) {
		shape := shapes[int(kind)%len(shapes)]
		runShape(t, db, shape(rand.New(rand.NewSource(seed)), int(n%200_000)))
	})
}
