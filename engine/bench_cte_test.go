package engine

import "testing"

// BenchmarkRecursiveCTE_Counter counts to 10000: one filter/projection
// step, which the executor runs over many queued rows at once.
func BenchmarkRecursiveCTE_Counter(b *testing.B) {
	_, s := benchDB(b, 0)
	benchQuery(b, s, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000) SELECT sum(x) FROM c", nil)
}

// BenchmarkRecursiveCTE_Join walks 1000 chained rows through a join: the
// step runs once per queued row, as SQLite runs it.
func BenchmarkRecursiveCTE_Join(b *testing.B) {
	_, s := benchDB(b, 1000)
	benchQuery(b, s, "WITH RECURSIVE c(id) AS (SELECT 1 UNION ALL SELECT t.id FROM t JOIN c ON t.id = c.id + 1) SELECT count(*) FROM c", nil)
}

// BenchmarkRecursiveCTE_Ordered counts to 10000 through the priority
// queue an ORDER BY gives.
func BenchmarkRecursiveCTE_Ordered(b *testing.B) {
	_, s := benchDB(b, 0)
	benchQuery(b, s, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000 ORDER BY 1 DESC) SELECT sum(x) FROM c", nil)
}
