package engine

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

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

// BenchmarkRecursiveCTE_Shortest is the bench harness's graph_shortest/cte
// query on its graph shape: 100,000 persons each knowing 10 others drawn at
// random, knows(src, dst) indexed on src; a UNION (distinct) breadth-first
// walk up to 6 hops, so about 10^5 queued rows each running the join step.
func BenchmarkRecursiveCTE_Shortest(b *testing.B) {
	const n, degree = 100_000, 10
	_, s := benchDB(b, 0)
	benchRun(b, s, "CREATE TABLE knows (id INTEGER PRIMARY KEY, src INTEGER NOT NULL, dst INTEGER NOT NULL)")
	benchRun(b, s, "BEGIN")
	r := rand.New(rand.NewPCG(23, 16))
	ctx := context.Background()
	ins, err := s.Prepare(ctx, "INSERT INTO knows (src, dst) VALUES (?, ?)")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n*degree; i++ {
		if _, err := ins.Exec(ctx, positional([]types.Value{types.NewInt(int64(i/degree + 1)), types.NewInt(int64(1 + r.IntN(n)))})); err != nil {
			b.Fatal(err)
		}
	}
	benchRun(b, s, "COMMIT")
	benchRun(b, s, "CREATE INDEX knows_src ON knows(src, dst)")
	benchRun(b, s, "ANALYZE")
	benchQuery(b, s, "WITH RECURSIVE r(id, d) AS (SELECT ?1, 0 UNION SELECT k.dst, r.d + 1 FROM r JOIN knows k ON k.src = r.id WHERE r.d < 6) "+
		"SELECT min(d) FROM r WHERE id = ?2", func(int) []Arg {
		return []Arg{{Ordinal: 1, Value: types.NewInt(1)}, {Ordinal: 2, Value: types.NewInt(n)}}
	})
}
