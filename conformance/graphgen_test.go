package conformance

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// graphShortSeed and graphShortDBs size the property graph oracle's run
// in the normal suite; LADYBUG_STRESS=1 runs LADYBUG_GRAPH_DBS (default
// 2000) graphs from LADYBUG_GRAPH_SEED (default: the clock).
const (
	graphShortSeed  = 23
	graphShortDBs   = 40
	graphQueriesPer = 12
)

// graphRun holds the three answers of one query: the rewrite on SQLite
// (the oracle), the rewrite on ladybug, and GRAPH_TABLE on ladybug.
type graphRun struct {
	lb, sq   *Target
	graphOK  bool // ladybug accepted CREATE PROPERTY GRAPH
	queries  int
	compared int // GRAPH_TABLE answers compared
	// unsupported counts the GRAPH_TABLE queries ladybug refuses with a
	// "not supported" error (a pattern feature not built yet).
	unsupported      int
	firstUnsupported string
}

func (g *graphRun) load(t *testing.T, db *GraphDB, indexed bool) {
	t.Helper()
	g.close()
	g.lb, g.sq = OpenTarget(EngineLadybug), OpenTarget(EngineSQLite)
	for _, s := range db.Setup(indexed) {
		for _, tg := range []*Target{g.sq, g.lb} {
			if _, err := tg.Exec(s); err != nil {
				t.Fatalf("%s setup %q: %v", tg.Name, s, err)
			}
		}
	}
	_, err := g.lb.Exec(graphDDL)
	g.graphOK = err == nil
	if err != nil && !strings.Contains(err.Error(), "syntax error") && !strings.Contains(err.Error(), "not supported") {
		t.Fatalf("ladybug: %s: %v", graphDDL, err)
	}
}

func (g *graphRun) close() {
	for _, tg := range []*Target{g.lb, g.sq} {
		if tg != nil {
			tg.Close()
		}
	}
}

// check runs q: the rewrite must give SQLite's answer on ladybug, and so
// must GRAPH_TABLE once ladybug has it. It returns the failures.
func (g *graphRun) check(q *GraphQuery) []string {
	rw := q.RewriteSQL()
	if rw == "" {
		return nil
	}
	g.queries++
	want, err := g.sq.Query(rw)
	if err != nil {
		return []string{fmt.Sprintf("oracle: %v\n    %s", err, rw)}
	}
	var fails []string
	if got, err := g.lb.Query(rw); err != nil {
		fails = append(fails, fmt.Sprintf("ladybug rewrite: %v\n    %s", err, rw))
	} else if msg := compareRows(want, got, false, canonValue); msg != "" {
		fails = append(fails, fmt.Sprintf("ladybug rewrite: %s\n    %s", msg, rw))
	}
	if g.graphOK {
		gt := q.GraphTableSQL()
		got, err := g.lb.Query(gt)
		switch {
		case err != nil && strings.Contains(err.Error(), "not supported"):
			g.unsupported++
			if g.firstUnsupported == "" {
				g.firstUnsupported = FirstLine(err) + ": " + gt
			}
		case err != nil:
			g.compared++
			fails = append(fails, fmt.Sprintf("GRAPH_TABLE: %v\n    %s\n    rewrite: %s", err, gt, rw))
		default:
			g.compared++
		}
		if err != nil {
			return fails
		}
		if msg := compareRows(want, got, false, canonValue); msg != "" {
			fails = append(fails, fmt.Sprintf("GRAPH_TABLE: %s\n    %s\n    rewrite: %s", msg, gt, rw))
		}
	}
	return fails
}

// TestGraphGen_MatchesOracle runs random MATCH patterns over random
// property graphs: each query's plain-SQL rewrite on ladybug and its
// GRAPH_TABLE form on ladybug must both give the rewrite's answer on
// SQLite.
func TestGraphGen_MatchesOracle(t *testing.T) {
	seed, dbs := uint64(graphShortSeed), graphShortDBs
	if raceEnabled {
		dbs /= 4
	}
	if os.Getenv("LADYBUG_STRESS") == "1" {
		seed, dbs = uint64(time.Now().UnixNano()), 2000
		if v, err := strconv.ParseUint(os.Getenv("LADYBUG_GRAPH_SEED"), 10, 64); err == nil {
			seed = v
		}
		if v, err := strconv.Atoi(os.Getenv("LADYBUG_GRAPH_DBS")); err == nil {
			dbs = v
		}
	}
	r := rand.New(rand.NewPCG(seed, 0))
	g := &graphRun{}
	defer g.close()
	failures := 0
	for i := range dbs {
		db := NewGraphDB(r)
		g.load(t, db, i%2 == 1)
		for range graphQueriesPer {
			q := NewGraphQuery(r)
			for _, f := range g.check(q) {
				failures++
				if failures <= 10 {
					t.Errorf("seed %d graph %d (%s): %s", seed, i, strings.Join(db.Setup(i%2 == 1)[4:], "; "), f)
				}
			}
		}
	}
	t.Logf("seed %d: %d graphs, %d queries; GRAPH_TABLE compared on %d, not supported on %d; %d failures", seed, dbs, g.queries, g.compared, g.unsupported, failures)
	if g.firstUnsupported != "" {
		t.Logf("first not supported: %s", g.firstUnsupported)
	}
	if g.queries < dbs*graphQueriesPer/2 {
		t.Errorf("only %d of %d queries had a consistent rewrite: the generator draws too many empty patterns", g.queries, dbs*graphQueriesPer)
	}
}

// TestGraphGen_RewriteShapes pins the rewrite of each pattern shape, so a
// generator change that stops producing one shows.
func TestGraphGen_RewriteShapes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	shapes := map[string]bool{}
	for range 2000 {
		q := NewGraphQuery(r)
		gt := q.GraphTableSQL()
		for _, s := range []string{"ANY SHORTEST", "ALL SHORTEST", "}(", "]->(", "<-[", "]-(", "|", "&", "!", "%", " WHERE ", "path_length(pv)"} {
			if strings.Contains(gt, s) {
				shapes[s] = true
			}
		}
		if rw := q.RewriteSQL(); q.Quant && !strings.HasPrefix(rw, "WITH RECURSIVE") {
			t.Fatalf("quantified pattern without a recursive CTE: %s", rw)
		}
	}
	if len(shapes) != 12 {
		t.Errorf("shapes drawn: %v", shapes)
	}
}
