package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
)

// An empty input stops a join before the other inputs are built,
// whichever side of the join tree it lands on: the three-way joins (hash,
// nested-loop and cross joins) below join two 5000-row tables (five
// batches each) with an empty one, and no
// scan of the big tables reads more than its first batch (before, a join
// read its left side's first batch, which built the whole hash join below
// it, before finding its right side empty).
func TestJoin_EmptyInput_OtherSidesNotRead(t *testing.T) {
	s := openMem(t).NewSession()
	runSQL(t, s, "CREATE TABLE big(k INTEGER, v INTEGER)")
	runSQL(t, s, "CREATE TABLE e(k INTEGER, v INTEGER)")
	runSQL(t, s, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO big SELECT i, i % 7 FROM n")
	for _, q := range []string{
		"SELECT count(*) FROM big a, big b, e WHERE a.k = b.k AND b.v = e.v",
		"SELECT count(*) FROM e, big a, big b WHERE a.k = b.k AND b.v = e.v",
		"SELECT count(*) FROM big a JOIN big b ON a.k = b.v JOIN e ON e.k = a.k",
		// e linked to no other input: a cross join reads it first.
		"SELECT count(*) FROM big a, big b, e WHERE a.k = b.k",
		"SELECT count(*) FROM big a, big b, e WHERE a.k < b.k + 1 AND a.v = 3",
	} {
		require.Equal(t, []int64{0}, queryInts(t, s, q), q)
		var plan []string
		eachRow(t, s, "EXPLAIN ANALYZE "+q, func(row []types.Value) {
			plan = append(plan, row[len(row)-1].String())
		})
		text := strings.Join(plan, "\n")
		scans := 0
		for _, line := range plan {
			if strings.Contains(line, "TableScan big") {
				scans++
				require.Regexp(t, `batches=[01] `, line, "%s\n%s", q, text)
			}
		}
		require.Equal(t, 2, scans, text)
	}
	// The answers with rows in every table are the joins' own.
	runSQL(t, s, "INSERT INTO e VALUES (1, 1), (2, 2)")
	for q, want := range map[string]int64{
		"SELECT count(*) FROM big a, big b, e WHERE a.k = b.k AND b.v = e.v":     2 * 715,
		"SELECT count(*) FROM big a JOIN big b ON a.k = b.v JOIN e ON e.k = a.k": 2 * 715,
		"SELECT count(*) FROM big a, big b, e":                                   5000 * 5000 * 2,
	} {
		require.Equal(t, []int64{want}, queryInts(t, s, q), fmt.Sprint(q))
	}
}
