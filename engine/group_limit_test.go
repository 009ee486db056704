package engine

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// TestGroupLimit_Query_StopsScanEarly checks with EXPLAIN ANALYZE that a
// GROUP BY … LIMIT over groups in index order reads only the first
// groups' entries (a batch's worth), not the whole index, and that a
// hashing GROUP BY without a LIMIT still reads every row.
func TestGroupLimit_Query_StopsScanEarly(t *testing.T) {
	_, s := explainDB(t)
	for _, sql := range []string{
		"CREATE TABLE t(id INTEGER PRIMARY KEY, g INTEGER, v REAL)",
		"CREATE INDEX t_g ON t (g)",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO t SELECT i, i % 500, i / 3.0 FROM n",
	} {
		explainExec(t, s, sql)
	}
	for _, c := range []struct {
		sql     string
		maxRead int
	}{
		{"EXPLAIN ANALYZE SELECT g, sum(v) FROM t GROUP BY g LIMIT 3", 2048},
		{"EXPLAIN ANALYZE SELECT g, count(*) FROM t GROUP BY g LIMIT 2 OFFSET 1", 2048},
		{"EXPLAIN ANALYZE SELECT g, sum(v) FROM t GROUP BY g HAVING count(*) > 1 LIMIT 3", 2048},
		{"EXPLAIN ANALYZE SELECT g, sum(v) FROM t GROUP BY g", 20000},
	} {
		read := scanRowsRead(t, explainQuery(t, s, c.sql))
		if read > c.maxRead || (c.maxRead == 20000 && read != 20000) {
			t.Errorf("%s: the scan read %d rows, want at most %d", c.sql, read, c.maxRead)
		}
	}
}

// scanRowsRead is the actual row count EXPLAIN ANALYZE reports for the
// plan's scan.
func scanRowsRead(t *testing.T, rows [][]types.Value) int {
	t.Helper()
	re := regexp.MustCompile(`(?:IndexScan|TableScan).* actual rows=(\d+)`)
	var all []string
	for _, r := range rows {
		line := r[3].Text()
		all = append(all, line)
		if m := re.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	t.Fatalf("no scan in the plan:\n%s", strings.Join(all, "\n"))
	return 0
}
