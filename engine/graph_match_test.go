package engine

import (
	"sort"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/stretchr/testify/require"
)

// graphFixture is a graph with a cycle (1→2→3→1), parallel edges (1→2
// twice), a self-loop (4→4), an edge with a NULL key (5→NULL), a vertex
// table with several labels and a label over two tables (person: student
// and teacher), an edge between two vertex tables (teaches) and a
// property that is an expression (double_age).
const graphFixture = `
PRAGMA foreign_keys = OFF;
CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT, age INTEGER);
CREATE TABLE knows(a INTEGER REFERENCES person, b INTEGER REFERENCES person, since INTEGER);
INSERT INTO person VALUES (1, 'ann', 30), (2, 'bob', 40), (3, 'cat', 25), (4, 'dan', 35), (5, 'eve', NULL), (6, 'fay', 50);
INSERT INTO knows VALUES (1, 2, 2001), (2, 3, 2002), (3, 1, 2003), (3, 4, 2004), (4, 4, 2005), (1, 2, 2006), (5, NULL, 2007), (6, 5, 2008);
CREATE TABLE teacher(tid INTEGER PRIMARY KEY, tname TEXT, subject TEXT);
CREATE TABLE teaches(t INTEGER REFERENCES teacher, p INTEGER REFERENCES person, hours INTEGER);
INSERT INTO teacher VALUES (10, 'tom', 'math'), (11, 'uma', 'art');
INSERT INTO teaches VALUES (10, 1, 3), (10, 2, 4), (11, 2, 5), (11, 11, 0);
CREATE PROPERTY GRAPH social
  VERTEX TABLES (
    person LABEL person PROPERTIES (id, name, age, age * 2 AS double_age) LABEL human NO PROPERTIES,
    teacher LABEL person PROPERTIES (tid AS id, tname AS name) LABEL teacher PROPERTIES (subject))
  EDGE TABLES (
    knows SOURCE KEY (a) REFERENCES person (id) DESTINATION KEY (b) REFERENCES person (id),
    teaches SOURCE teacher DESTINATION person)`

// graphPairs are GRAPH_TABLE queries, each with the same question in
// plain SQL (joins, UNION ALL, recursive CTEs).
var graphPairs = []struct{ name, graph, sql string }{
	{"directed edge",
		"SELECT * FROM GRAPH_TABLE (social MATCH (x IS person)-[k IS knows]->(y IS person) COLUMNS (x.name AS src, y.name AS dst, k.since))",
		"SELECT x.name, y.name, k.since FROM person x JOIN knows k ON k.a = x.id JOIN person y ON k.b = y.id"},
	{"left edge",
		"SELECT * FROM GRAPH_TABLE (social MATCH (x)<-[k IS knows]-(y) COLUMNS (x.id AS x, y.id AS y))",
		"SELECT k.b, k.a FROM knows k JOIN person x ON k.b = x.id JOIN person y ON k.a = y.id"},
	{"abbreviated edge",
		"SELECT * FROM GRAPH_TABLE (social MATCH (x IS human)->(y IS human) COLUMNS (x.id AS x, y.id AS y))",
		"SELECT k.a, k.b FROM knows k JOIN person x ON k.a = x.id JOIN person y ON k.b = y.id"},
	{"any-direction edge counts a self-loop once",
		"SELECT * FROM GRAPH_TABLE (social MATCH (x IS human)-[k]-(y IS human) COLUMNS (x.id AS x, y.id AS y, k.since AS s))",
		`SELECT x.id, y.id, k.since FROM person x, knows k, person y WHERE k.a = x.id AND k.b = y.id
		 UNION ALL SELECT x.id, y.id, k.since FROM person x, knows k, person y WHERE k.b = x.id AND k.a = y.id AND k.a <> k.b`},
	{"two hops with filters",
		"SELECT * FROM GRAPH_TABLE (social MATCH (x WHERE x.name = 'ann')-[IS knows]->(y)-[e IS knows WHERE e.since > 2001]->(z) COLUMNS (y.name AS y, z.name AS z))",
		"SELECT y.name, z.name FROM person x, knows k1, person y, knows k2, person z WHERE x.name = 'ann' AND k1.a = x.id AND k1.b = y.id AND k2.a = y.id AND k2.b = z.id AND k2.since > 2001"},
	{"cycle through one variable",
		"SELECT * FROM GRAPH_TABLE (social MATCH (x IS human)->(y IS human)->(z IS human)->(x) COLUMNS (x.id AS x, y.id AS y, z.id AS z))",
		"SELECT x.id, y.id, z.id FROM person x, knows k1, person y, knows k2, person z, knows k3 WHERE k1.a = x.id AND k1.b = y.id AND k2.a = y.id AND k2.b = z.id AND k3.a = z.id AND k3.b = x.id"},
	{"two path patterns sharing a variable and a MATCH WHERE",
		"SELECT * FROM GRAPH_TABLE (social MATCH (x IS human)-[IS knows]->(y IS human), (t IS teacher)-[IS teaches]->(y) WHERE x.age < y.age COLUMNS (x.name AS x, y.name AS y, t.subject AS subj))",
		"SELECT x.name, y.name, t.subject FROM person x, knows k, person y, teacher t, teaches s WHERE k.a = x.id AND k.b = y.id AND s.t = t.tid AND s.p = y.id AND x.age < y.age"},
	{"a label over two tables, a property one table lacks",
		"SELECT * FROM GRAPH_TABLE (social MATCH (p IS person) COLUMNS (p.id AS id, p.name AS name, p.subject AS subject))",
		"SELECT id, name, NULL FROM person UNION ALL SELECT tid, tname, subject FROM teacher"},
	{"label expressions",
		"SELECT * FROM GRAPH_TABLE (social MATCH (p IS (person | teacher) & !human) COLUMNS (p.name AS name))",
		"SELECT tname FROM teacher"},
	{"wildcard label and v.*",
		"SELECT * FROM GRAPH_TABLE (social MATCH (p IS %) WHERE p.id > 4 COLUMNS (p.*))",
		"SELECT id, name, age, age * 2, NULL FROM person WHERE id > 4 UNION ALL SELECT tid, tname, NULL, NULL, subject FROM teacher"},
	{"an edge between two vertex tables, any direction",
		"SELECT * FROM GRAPH_TABLE (social MATCH (a)-[IS teaches]-(b) COLUMNS (a.name AS a, b.name AS b))",
		`SELECT t.tname, p.name FROM teacher t, teaches s, person p WHERE s.t = t.tid AND s.p = p.id
		 UNION ALL SELECT p.name, t.tname FROM teacher t, teaches s, person p WHERE s.t = t.tid AND s.p = p.id`},
	{"a property expression",
		"SELECT * FROM GRAPH_TABLE (social MATCH (p IS human WHERE p.double_age > 60) COLUMNS (p.name AS n, p.double_age AS d))",
		"SELECT name, age * 2 FROM person WHERE age * 2 > 60"},
	{"TRAIL leaves out a repeated edge",
		"SELECT * FROM GRAPH_TABLE (social MATCH TRAIL (x IS human)-[e]->(y)-[f]->(z) COLUMNS (x.id AS x, z.id AS z))",
		"SELECT e.a, f.b FROM knows e, knows f, person x, person y, person z WHERE e.b = f.a AND x.id = e.a AND y.id = e.b AND z.id = f.b AND e.rowid <> f.rowid"},
	{"ACYCLIC leaves out a repeated vertex",
		"SELECT * FROM GRAPH_TABLE (social MATCH ACYCLIC (x IS human)-[e]->(y)-[f]->(z) COLUMNS (x.id AS x, z.id AS z))",
		"SELECT e.a, f.b FROM knows e, knows f, person y WHERE e.b = f.a AND y.id = e.b AND e.a <> e.b AND e.a <> f.b AND f.a <> f.b AND f.b IN (SELECT id FROM person)"},
	{"bounded quantified edge (walks)",
		"SELECT * FROM GRAPH_TABLE (social MATCH (x IS human WHERE x.id = 1)-[e IS knows]->{1,4}(y) COLUMNS (y.id AS y))",
		`WITH RECURSIVE w(d, n) AS (SELECT b, 1 FROM knows WHERE a = 1 UNION ALL SELECT k.b, w.n + 1 FROM w JOIN knows k ON k.a = w.d WHERE w.n < 4)
		 SELECT d FROM w WHERE d IN (SELECT id FROM person)`},
	{"quantified edge from zero hops, any direction, with an edge filter",
		"SELECT * FROM GRAPH_TABLE (social MATCH (x IS human WHERE x.id = 6)-[e IS knows WHERE e.since > 2001]-{0,2}(y) COLUMNS (y.id AS y))",
		`WITH RECURSIVE h(s, d) AS (SELECT a, b FROM knows WHERE since > 2001 AND b IS NOT NULL UNION ALL SELECT b, a FROM knows WHERE since > 2001 AND a <> b),
		 w(d, n) AS (SELECT 6, 0 UNION ALL SELECT h.d, w.n + 1 FROM w JOIN h ON h.s = w.d WHERE w.n < 2)
		 SELECT d FROM w`},
	{"quantified parenthesised path",
		"SELECT * FROM GRAPH_TABLE (social MATCH (x IS human WHERE x.id = 1) ((a)-[k]->(b) WHERE k.since < 2004){2}(y) COLUMNS (x.id AS x, y.id AS y))",
		"SELECT k1.a, k2.b FROM knows k1, knows k2 WHERE k1.a = 1 AND k1.b = k2.a AND k1.since < 2004 AND k2.since < 2004"},
	{"ANY SHORTEST: one row per reachable vertex",
		"SELECT * FROM GRAPH_TABLE (social MATCH ANY SHORTEST (x IS human WHERE x.id = 1)-[IS knows]->+(y) COLUMNS (y.id AS y))",
		`WITH RECURSIVE r(d, n) AS (SELECT b, 1 FROM knows WHERE a = 1 UNION SELECT k.b, r.n + 1 FROM r JOIN knows k ON k.a = r.d WHERE r.n < 6)
		 SELECT DISTINCT d FROM r`},
	{"ALL SHORTEST: a row per shortest path",
		"SELECT * FROM GRAPH_TABLE (social MATCH ALL SHORTEST (x IS human WHERE x.id = 1)-[IS knows]->*(y IS human WHERE y.id = 4) COLUMNS (y.id AS y))",
		// 1→2 twice (parallel edges), then 2→3→4: two shortest paths of length 3.
		"SELECT 4 UNION ALL SELECT 4"},
	{"path_length of a quantified path",
		"SELECT * FROM GRAPH_TABLE (social MATCH p = (x IS human WHERE x.id = 1)-[IS knows]->{1,3}(y IS human) COLUMNS (y.id AS y, path_length(p) AS len))",
		`WITH RECURSIVE w(d, n) AS (SELECT b, 1 FROM knows WHERE a = 1 UNION ALL SELECT k.b, w.n + 1 FROM w JOIN knows k ON k.a = w.d WHERE w.n < 3)
		 SELECT d, n FROM w WHERE d IN (SELECT id FROM person)`},
	{"path_length of a fixed path and of a parenthesised part",
		"SELECT * FROM GRAPH_TABLE (social MATCH p = (x IS human WHERE x.id = 2)->(y) ((a)->(b)){1,2}(z) COLUMNS (z.id AS z, path_length(p) AS len))",
		`SELECT k2.b, 2 FROM knows k1, knows k2 WHERE k1.a = 2 AND k2.a = k1.b
		 UNION ALL SELECT k3.b, 3 FROM knows k1, knows k2, knows k3 WHERE k1.a = 2 AND k2.a = k1.b AND k3.a = k2.b`},
	{"ANY SHORTEST to a target given as text",
		"SELECT * FROM GRAPH_TABLE (social MATCH p = ANY SHORTEST (x IS human WHERE x.id = 1)-[IS knows]->+(y IS human WHERE y.id = '4') COLUMNS (y.id AS y, path_length(p) AS len))",
		"SELECT 4, 3"},
	{"vertices and edges of a fixed path",
		"SELECT * FROM GRAPH_TABLE (social MATCH p = (x IS human WHERE x.id = 1)-[e IS knows]->(y IS human)<-[f IS knows]-(z IS human) COLUMNS (vertices(p) AS vs, edges(p) AS es))",
		"SELECT json_array(k.a, k.b, l.a), json_array(k.rowid, l.rowid) FROM knows k, knows l WHERE k.a = 1 AND l.b = k.b"},
	{"vertices and edges of a quantified path",
		"SELECT * FROM GRAPH_TABLE (social MATCH p = (x IS human WHERE x.id = 1)-[IS knows]->{2}(y IS human) COLUMNS (vertices(p) AS vs, edges(p) AS es, path_length(p) AS n))",
		"SELECT json_array(k.a, k.b, l.b), json_array(k.rowid, l.rowid), 2 FROM knows k, knows l WHERE k.a = 1 AND l.a = k.b"},
	{"vertices of an ANY SHORTEST path to a target",
		"SELECT * FROM GRAPH_TABLE (social MATCH p = ANY SHORTEST (x IS human WHERE x.id = 1)-[IS knows]-+(y IS human WHERE y.id = 4) COLUMNS (vertices(p) AS vs))",
		"SELECT '[1,3,4]'"},
	{"in a join, with a parameter-free outer filter",
		"SELECT g.n, p.age FROM GRAPH_TABLE (social MATCH (a IS teacher)-[IS teaches]->(b) COLUMNS (b.name AS n, b.id AS id)) AS g JOIN person p ON p.id = g.id WHERE p.age > 35",
		"SELECT p.name, p.age FROM teaches s JOIN person p ON p.id = s.p WHERE p.age > 35"},
	{"in a subquery and a CTE",
		"WITH f AS (SELECT * FROM GRAPH_TABLE (social MATCH (a IS human)->(b IS human) COLUMNS (a.id AS a, b.id AS b))) SELECT name FROM person WHERE id IN (SELECT b FROM f WHERE a = 3)",
		"SELECT name FROM person WHERE id IN (2 - 0 + 1 - 2, 4)"},
	{"a CTE named like a graph's table does not hide it",
		"WITH person(id) AS (SELECT 99) SELECT * FROM GRAPH_TABLE (social MATCH (p IS human WHERE p.id = 1) COLUMNS (p.name AS n))",
		"SELECT 'ann'"},
}

func TestGraphTable_MatchesPlainSQL(t *testing.T) {
	s := openMem(t).NewSession()
	mustExecScript(t, s, graphFixture)
	for _, p := range graphPairs {
		t.Run(p.name, func(t *testing.T) {
			got, want := sortedRows(t, s, p.graph), sortedRows(t, s, p.sql)
			require.NotEmpty(t, want, "the plain SQL has no rows: the pair tests nothing")
			require.Equal(t, want, got, p.graph)
		})
	}
}

// mustExecScript runs the statements of script one by one.
func mustExecScript(t *testing.T, s *Session, script string) {
	t.Helper()
	for _, st := range strings.Split(script, ";") {
		if strings.TrimSpace(st) != "" {
			mustExec(t, s, st)
		}
	}
}

// sortedRows returns the rows of sql as text, sorted.
func sortedRows(t *testing.T, s *Session, sql string, args ...types.Value) []string {
	t.Helper()
	var out []string
	eachRow(t, s, sql, func(row []types.Value) {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = v.String()
		}
		out = append(out, strings.Join(cells, "|"))
	}, args...)
	sort.Strings(out)
	return out
}
