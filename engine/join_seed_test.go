package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// seedGraphDB makes persons 1..n and ten knows edges per person, indexed
// on (src, dst), without ANALYZE numbers, and returns the edges.
func seedGraphDB(t testing.TB, s *Session, n int) [][2]int {
	runSQL(t, s, "CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT)")
	runSQL(t, s, "CREATE TABLE knows(src INTEGER, dst INTEGER)")
	runSQL(t, s, "CREATE INDEX knows_src_dst ON knows(src, dst)")
	runSQL(t, s, fmt.Sprintf("WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < %d) "+
		"INSERT INTO person SELECT i, 'p' || i FROM c", n))
	runSQL(t, s, fmt.Sprintf("WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM c WHERE i < %d) "+
		"INSERT INTO knows SELECT i / 10 + 1, (i * 7919) %% %d + 1 FROM c", 10*n-1, n))
	edges := make([][2]int, 0, 10*n)
	for i := range 10 * n {
		edges = append(edges, [2]int{i/10 + 1, (i*7919)%n + 1})
	}
	return edges
}

// A two-hop join from one seeded row (a.id = 1, a rowid) runs as index
// lookups all the way: 1 row, 10 edges by the (src, dst) index, 10
// persons by rowid, 100 edges, 100 persons, rather than hash joins over
// whole scans of the second edge table and the persons. The estimate of
// the seeded side's join with the edges must count the rows of one index
// key (not the whole edge table) for the chain to look cheapest. The
// GRAPH_TABLE form lowers to the same joins.
func TestJoinOrder_SeededTwoHop_IndexLookups(t *testing.T) {
	s := openMem(t).NewSession()
	edges := seedGraphDB(t, s, 2000)
	out := map[int][]int{}
	for _, e := range edges {
		out[e[0]] = append(out[e[0]], e[1])
	}
	var want, wantSum int64
	for _, m := range out[1] {
		for _, b := range out[m] {
			want++
			wantSum += int64(b)
		}
	}
	q := "SELECT count(*), sum(b.id) FROM person a JOIN knows k1 ON k1.src = a.id JOIN person m ON m.id = k1.dst " +
		"JOIN knows k2 ON k2.src = m.id JOIN person b ON b.id = k2.dst WHERE a.id = 1"
	require.Equal(t, []int64{want, wantSum}, queryInts(t, s, q))
	require.Equal(t, twoHopPlan("k1", "k2"), explainLines(t, s, q))

	runSQL(t, s, "CREATE PROPERTY GRAPH g VERTEX TABLES (person) EDGE TABLES "+
		"(knows SOURCE KEY (src) REFERENCES person DESTINATION KEY (dst) REFERENCES person)")
	gq := "SELECT count(*), sum(bid) FROM GRAPH_TABLE (g MATCH (a WHERE a.id = 1)-[e1]->(m)-[e2]->(b) COLUMNS (b.id AS bid))"
	require.Equal(t, []int64{want, wantSum}, queryInts(t, s, gq))
	require.Equal(t, twoHopPlan("e1", "e2"), explainLines(t, s, gq))
}

// twoHopPlan is the plan of the seeded two-hop join whose edge tables
// are named e1 and e2: lookups only.
func twoHopPlan(e1, e2 string) []string {
	return []string{
		"'INDEX INNER JOIN (~100 rows)'",
		"'INDEX INNER JOIN (~100 rows)'",
		"'INDEX INNER JOIN (~10 rows)'",
		"'INDEX INNER JOIN (~10 rows)'",
		"'SEARCH person AS a USING INTEGER PRIMARY KEY (rowid=?)'",
		"'SEARCH knows AS " + e1 + " USING COVERING INDEX knows_src_dst (src=?)'",
		"'SEARCH person AS m USING INTEGER PRIMARY KEY (rowid=?)'",
		"'SEARCH knows AS " + e2 + " USING COVERING INDEX knows_src_dst (src=?)'",
		"'SEARCH person AS b USING INTEGER PRIMARY KEY (rowid=?)'",
	}
}

// The two-hop join from one seeded person at 20k persons and 200k edges
// (see TestJoinOrder_SeededTwoHop_IndexLookups): 220 lookups, where hash
// joins read the whole edge and person tables.
func BenchmarkStmt_Query_SeededTwoHop(b *testing.B) {
	db, err := Open(Options{Memory: true})
	require.NoError(b, err)
	b.Cleanup(func() { db.Close() })
	s := db.NewSession()
	seedGraphDB(b, s, 20_000)
	benchQuery(b, s, "SELECT count(*) FROM person a JOIN knows k1 ON k1.src = a.id JOIN person m ON m.id = k1.dst "+
		"JOIN knows k2 ON k2.src = m.id JOIN person b ON b.id = k2.dst WHERE a.id = 1", nil)
}
