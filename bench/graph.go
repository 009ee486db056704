package main

import (
	"fmt"
	"math/rand/v2"
)

// The graph workloads: a social graph of 100k persons, each knowing 10
// others drawn at random (1M knows edges; self-loops and parallel edges
// by chance), indexed both ways as knows(src, dst) and knows(dst, src).
// Friends within 2 and 3 hops of 20 persons (count of distinct persons),
// and the length of a shortest path between 3 pairs of persons 4 hops
// apart (searched up to 6 hops; smaller scales take the farthest pairs
// within 4 hops).
//
// The /cte cases run the hand-written recursive CTE on every driver. The
// /match cases run the SQL/PGQ query (GRAPH_TABLE … MATCH over the
// property graph "social") on ladybug and the same CTE on the SQLite
// drivers, so a /match row's ratio is ladybug's graph query against
// SQLite's CTE, and the /cte row shows the CTE on ladybug.

const (
	graphDegree   = 10 // knows edges per person
	graphStarts   = 20 // start persons of the friends-within-k cases
	graphPairs    = 3  // person pairs of the shortest-path case
	graphPairDist = 4  // their distance
	graphMaxHops  = 6  // the shortest-path search bound
)

// fofCTE counts the distinct persons within k hops of ?1, not ?1 itself.
func fofCTE(k int) string {
	return fmt.Sprintf("WITH RECURSIVE fof(id, d) AS (SELECT ?1, 0 UNION SELECT k.dst, fof.d + 1 FROM fof JOIN knows k ON k.src = fof.id WHERE fof.d < %d) "+
		"SELECT count(DISTINCT id) FROM fof WHERE id <> ?1", k)
}

// fofMatch is fofCTE in SQL/PGQ: one shortest walk per person reached.
func fofMatch(k int) string {
	return fmt.Sprintf("SELECT count(*) FROM GRAPH_TABLE (social MATCH ANY SHORTEST (a IS person WHERE a.id = ?1)-[IS knows]->{1,%d}(b IS person) "+
		"COLUMNS (b.id AS id)) WHERE id <> ?1", k)
}

// shortestCTE is the length of a shortest path from ?1 to ?2 of at most
// graphMaxHops edges (NULL when there is none).
var shortestCTE = fmt.Sprintf("WITH RECURSIVE r(id, d) AS (SELECT ?1, 0 UNION SELECT k.dst, r.d + 1 FROM r JOIN knows k ON k.src = r.id WHERE r.d < %d) "+
	"SELECT min(d) FROM r WHERE id = ?2", graphMaxHops)

var shortestMatch = fmt.Sprintf("SELECT min(len) FROM GRAPH_TABLE (social MATCH p = ANY SHORTEST (a IS person WHERE a.id = ?1)-[IS knows]->{1,%d}(b IS person WHERE b.id = ?2) "+
	"COLUMNS (path_length(p) AS len))", graphMaxHops)

const socialGraphDDL = "CREATE PROPERTY GRAPH social VERTEX TABLES (person KEY (id)) " +
	"EDGE TABLES (knows KEY (id) SOURCE KEY (src) REFERENCES person (id) DESTINATION KEY (dst) REFERENCES person (id))"

// socialGraph is the generated graph, kept in Go to compute the answers.
type socialGraph struct {
	n   int
	adj [][]int32 // out-neighbours of person i+1, as ids
}

func newSocialGraph(n int) *socialGraph {
	r := rand.New(rand.NewPCG(23, 16))
	g := &socialGraph{n: n, adj: make([][]int32, n)}
	for i := range g.adj {
		for range graphDegree {
			g.adj[i] = append(g.adj[i], int32(1+r.IntN(n)))
		}
	}
	return g
}

// dists is the BFS distance from start of every person up to max hops (-1
// beyond).
func (g *socialGraph) dists(start, max int) []int {
	d := make([]int, g.n+1)
	for i := range d {
		d[i] = -1
	}
	d[start] = 0
	front := []int{start}
	for depth := 1; depth <= max && len(front) > 0; depth++ {
		var next []int
		for _, v := range front {
			for _, w := range g.adj[v-1] {
				if d[w] < 0 {
					d[w] = depth
					next = append(next, int(w))
				}
			}
		}
		front = next
	}
	return d
}

// within counts the persons at 1..k hops from start, start excluded.
func (g *socialGraph) within(start, k int) int64 {
	var n int64
	for v, d := range g.dists(start, k) {
		if d > 0 && v != start {
			n++
		}
	}
	return n
}

// load creates and fills person and knows, their indexes, and on ladybug
// the property graph (an engine without CREATE PROPERTY GRAPH fails its
// /match cells, not the setup).
func (g *socialGraph) load(e *Env) error {
	if err := execAll(e.DB,
		"CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
		"CREATE TABLE knows (id INTEGER PRIMARY KEY, src INTEGER NOT NULL, dst INTEGER NOT NULL)"); err != nil {
		return err
	}
	if err := load(e.DB, "INSERT INTO person (id, name) VALUES (?, ?)", g.n, func(i int) []any {
		return []any{i, fmt.Sprintf("person%d", i)}
	}); err != nil {
		return err
	}
	if err := load(e.DB, "INSERT INTO knows (id, src, dst) VALUES (?, ?, ?)", g.n*graphDegree, func(i int) []any {
		p := (i - 1) / graphDegree
		return []any{i, p + 1, g.adj[p][(i-1)%graphDegree]}
	}); err != nil {
		return err
	}
	if err := execAll(e.DB, "CREATE INDEX knows_src ON knows(src, dst)", "CREATE INDEX knows_dst ON knows(dst, src)", "ANALYZE"); err != nil {
		return err
	}
	if e.spec.name == "ladybug" {
		_, _ = e.DB.Exec(socialGraphDDL)
	}
	return nil
}

// graphQuery is the SQL a case runs on this driver: match on ladybug for
// the /match cases, the CTE otherwise.
func graphQuery(e *Env, match bool, cte, pgq string) string {
	if match && e.spec.name == "ladybug" {
		return pgq
	}
	return cte
}

func graphCases() []*Case {
	var g *socialGraph
	var starts []int
	var pairs [][2]int
	var pairDist []int64
	setup := func(e *Env) error {
		n := e.P.scaled(100_000, 1_000)
		g = newSocialGraph(n)
		starts = starts[:0]
		for j := range graphStarts {
			starts = append(starts, 1+j*(n/graphStarts))
		}
		pairs, pairDist = pairs[:0], pairDist[:0]
		for s := 1; len(pairs) < graphPairs && s <= n; s += max(1, n/7) {
			// The highest id as far as possible up to graphPairDist hops
			// (exactly that far on the full-size graph).
			d := g.dists(s, graphPairDist)
			best := 0
			for v := n; v >= 1; v-- {
				if d[v] > 0 && (best == 0 || d[v] > d[best]) {
					best = v
				}
			}
			if best > 0 {
				pairs, pairDist = append(pairs, [2]int{s, best}), append(pairDist, int64(d[best]))
			}
		}
		if len(pairs) == 0 {
			return fmt.Errorf("graph: no two persons connected")
		}
		return g.load(e)
	}
	fof := func(k int, match bool) func(e *Env) error {
		return func(e *Env) error {
			q := graphQuery(e, match, fofCTE(k), fofMatch(k))
			got := make([]int64, len(starts))
			err := e.Measure(len(starts), func() error {
				for i, s := range starts {
					if err := e.DB.QueryRow(q, s).Scan(&got[i]); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
			var sum, want int64
			for i, s := range starts {
				sum += got[i]
				want += g.within(s, k)
			}
			return e.Check(fmt.Sprintf("persons within %d hops, summed over %d starts", k, len(starts)), sum, want)
		}
	}
	shortest := func(match bool) func(e *Env) error {
		return func(e *Env) error {
			q := graphQuery(e, match, shortestCTE, shortestMatch)
			got := make([]int64, len(pairs))
			err := e.Measure(len(pairs), func() error {
				for i, p := range pairs {
					if err := e.DB.QueryRow(q, p[0], p[1]).Scan(&got[i]); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
			var sum, want int64
			for i, d := range got {
				sum, want = sum+d, want+pairDist[i]
			}
			return e.Check("shortest path lengths, summed", sum, want)
		}
	}
	var out []*Case
	for _, v := range []struct {
		name  string
		match bool
	}{{"cte", false}, {"match", true}} {
		out = append(out,
			&Case{Name: "graph_fof2/" + v.name, Workload: "graph_fof2", Unit: "query", Setup: setup, Run: fof(2, v.match)},
			&Case{Name: "graph_fof3/" + v.name, Workload: "graph_fof3", Unit: "query", Setup: setup, Run: fof(3, v.match)},
			&Case{Name: "graph_shortest/" + v.name, Workload: "graph_shortest", Unit: "query", Setup: setup, Run: shortest(v.match)},
		)
	}
	return out
}
