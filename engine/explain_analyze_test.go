package engine

import (
	"regexp"
	"strings"
	"testing"
)

func TestExplainAnalyze_Query_ReportsActualRowsPerOperator(t *testing.T) {
	_, s := explainDB(t)
	for _, sql := range []string{
		"CREATE TABLE t(id INTEGER PRIMARY KEY, g INTEGER, v INTEGER)",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO t SELECT i, i % 7, i FROM n",
	} {
		explainExec(t, s, sql)
	}
	rows := explainQuery(t, s, "EXPLAIN ANALYZE SELECT g, sum(v) FROM t WHERE v > 1000 GROUP BY g ORDER BY g LIMIT 3")
	var lines []string
	time := regexp.MustCompile(` time=\S+`)
	for _, r := range rows {
		lines = append(lines, time.ReplaceAllString(r[3].Text(), ""))
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{
		"Limit (est ~3 rows) actual rows=3 batches=1",
		"HashAggregate 1 group key(s), 1 aggregate(s)",
		"actual rows=7 batches=1",
		// The table is not analysed: its estimate is its size class's,
		// 10^3.5 rows for 3,000 (see plan.SizeClass), a quarter of that
		// past the filter.
		"Filter 1 conjunct(s) (est ~790 rows) actual rows=2000",
		"TableScan t (est ~3162 rows) actual rows=3000",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("EXPLAIN ANALYZE lacks %q:\n%s", want, got)
		}
	}
	if len(rows) < 5 || rows[1][1].Int() != rows[0][0].Int() {
		t.Errorf("EXPLAIN ANALYZE rows are not a tree under the root:\n%s", got)
	}
}
