package engine

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// graphBenchPersons is the social graph's size: persons, each knowing 10
// others (bench/ runs the 100k persons and 1M edges against
// SQLite; this is the operator's own, quicker, benchmark).
// LADYBUG_GRAPH_PERSONS=100000 runs it at the size.
func graphBenchPersons() int64 {
	if n, err := strconv.Atoi(os.Getenv("LADYBUG_GRAPH_PERSONS")); err == nil && n > 2 {
		return int64(n)
	}
	return 20_000
}

// socialGraph makes person(id) and knows(id, src, dst) with 10 pseudo-random
// out-edges a person, indexed both ways, and s(tag, v, t) holding one start
// row: person 1, target person 2.
func socialGraph(b *testing.B) *Session {
	db, err := Open(Options{Memory: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	s := db.NewSession()
	for _, q := range []string{
		"CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT)",
		"CREATE TABLE knows (id INTEGER PRIMARY KEY, src INTEGER, dst INTEGER)",
		"CREATE TABLE s (tag INTEGER PRIMARY KEY, v INTEGER, t INTEGER)",
		"INSERT INTO person SELECT value, 'p' || value FROM generate_series(1, ?1)",
		"INSERT INTO knows(src, dst) SELECT p.value, (p.value * 2654435761 + k.value * 40503 + k.value * k.value * 977) % ?1 + 1 FROM generate_series(1, ?1) p, generate_series(1, 10) k",
		"CREATE INDEX knows_src ON knows(src, dst)",
		"CREATE INDEX knows_dst ON knows(dst, src)",
		"INSERT INTO s VALUES (1, 1, 2)",
		"CREATE PROPERTY GRAPH social VERTEX TABLES (person KEY (id)) EDGE TABLES (knows KEY (id) " +
			"SOURCE KEY (src) REFERENCES person (id) DESTINATION KEY (dst) REFERENCES person (id))",
	} {
		var args []types.Value
		if strings.Contains(q, "?1") {
			args = append(args, types.NewInt(graphBenchPersons()))
		}
		gexec(b, s, q, args...)
	}
	return s
}

// benchPlan runs root once per op, reusing its operators as a prepared
// statement's program is reused.
func benchPlan(b *testing.B, s *Session, root plan.Node) {
	ctx := context.Background()
	op, err := exec.Build(root)
	if err != nil {
		b.Fatal(err)
	}
	var n int
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op") }()
	for range b.N {
		n = 0
		if err := runOp(ctx, s, op, len(root.Columns()), func([]types.Value) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "rows")
}

// countDistinctEnd is count(DISTINCT end) over a GraphExpand.
func countDistinctEnd(g plan.Node) plan.Node {
	end := len(g.(*plan.GraphExpand).Input.Columns())
	return &plan.Aggregate{Input: g, Aggs: []plan.AggCall{{Name: "count", Args: []plan.Expr{&plan.ColRef{Idx: end}}, Distinct: true}},
		Cols: []plan.Column{{Name: "n"}}}
}

// BenchmarkGraph_FriendsWithin3Hops counts the persons within 3 hops of
// person 1: GraphExpand (walks counted per vertex, edges looked up per
// reached vertex) against the recursive CTE a user writes, on ladybug.
func BenchmarkGraph_FriendsWithin3Hops(b *testing.B) {
	s := socialGraph(b)
	b.Run("expand", func(b *testing.B) {
		g := expandPlan(b, s, expandSpec{start: "SELECT * FROM s", edges: "SELECT * FROM knows", min: 1, max: 3})
		benchPlan(b, s, countDistinctEnd(g))
	})
	b.Run("expand-any-shortest", func(b *testing.B) {
		g := expandPlan(b, s, expandSpec{start: "SELECT * FROM s", edges: "SELECT * FROM knows", min: 1, max: 3, mode: plan.GraphAnyShortest})
		benchPlan(b, s, g)
	})
	for _, k := range []int{2, 3} {
		b.Run("match-"+strconv.Itoa(k), func(b *testing.B) {
			benchQuery(b, s, "SELECT count(*) FROM GRAPH_TABLE (social MATCH ANY SHORTEST (a IS person WHERE a.id = 1)-[IS knows]->{1,"+
				strconv.Itoa(k)+"}(b IS person) COLUMNS (b.id AS id)) WHERE id <> 1", nil)
		})
	}
	b.Run("cte", func(b *testing.B) {
		benchQuery(b, s, "WITH RECURSIVE r(id, d) AS (SELECT 1, 0 UNION ALL SELECT k.dst, r.d + 1 FROM r JOIN knows k ON k.src = r.id WHERE r.d < 3) SELECT count(DISTINCT id) FROM r WHERE d >= 1", nil)
	})
}

// BenchmarkGraph_ShortestPath finds the length of a shortest path from
// person 1 to person 2: GraphExpand ANY SHORTEST to a target against the
// recursive CTE of (vertex, depth) pairs.
func BenchmarkGraph_ShortestPath(b *testing.B) {
	s := socialGraph(b)
	b.Run("expand", func(b *testing.B) {
		g := expandPlan(b, s, expandSpec{start: "SELECT * FROM s", edges: "SELECT * FROM knows", min: 1, max: 8, mode: plan.GraphAnyShortest, target: true})
		benchPlan(b, s, g)
	})
	b.Run("cte", func(b *testing.B) {
		benchQuery(b, s, "WITH RECURSIVE r(id, d) AS (SELECT 1, 0 UNION SELECT k.dst, r.d + 1 FROM r JOIN knows k ON k.src = r.id WHERE r.d < 8) SELECT min(d) FROM r WHERE id = 2", nil)
	})
}
