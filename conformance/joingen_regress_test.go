package conformance

import (
	"fmt"
	"strings"
	"testing"
)

// joinRegressTable creates joingen's table tN with rows rows whose values
// follow fixed formulas (the same on both engines), salted by n.
func joinRegressTable(n, rows int) []string {
	create := fmt.Sprintf("CREATE TABLE t%d(a%d INTEGER, b%d INTEGER, c%d INTEGER, d%d INTEGER, e%d INTEGER, x%d VARCHAR(30))",
		n, n, n, n, n, n, n)
	if rows == 0 {
		return []string{create}
	}
	return []string{
		create,
		fmt.Sprintf(`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < %d)
			INSERT INTO t%d SELECT (i * %d) %% 1000, (i * 37 + %d) %% 100, i %% 10,
			CASE WHEN i %% 10 = 3 THEN NULL ELSE (i * 53 + %d) %% 300 END, (i * 11) %% 50,
			CASE WHEN i %% 8 = 0 THEN NULL ELSE 'x' || (i %% 100) END FROM s`, rows, n, 7+2*n, n, n),
	}
}

// joinRegressCases are shrunk shapes the join generator found slow (seed
// 7), each with the plan shape that makes it fast: its EXPLAIN QUERY PLAN
// details must contain every want string (with the count given) and none
// of the not strings; and the scans named by unread must read no row
// (EXPLAIN ANALYZE's actual rows).
var joinRegressCases = []struct {
	name   string
	tables map[int]int // table number -> rows
	query  string
	want   map[string]int
	not    []string
	// hashPair, when set, names two scans that must be the inputs of one
	// hash join; a name ending in "JOIN" stands for any join whose detail
	// starts with it.
	hashPair [2]string
	// unread names scans ("t4 AS q6") that must read no row.
	unread []string
	// leftPair, when set, names the left and right inputs of one LEFT
	// JOIN, in that order.
	leftPair [2]string
	// leftOver, when set, names a scan that must be in the left input of
	// the LEFT JOIN whose right input is the second scan.
	leftOver [2]string
	// above, when set, names a join (a detail prefix) that must have the
	// join or scan named second below it.
	above [2]string
}{{
	// seed 7 query 21: an OR of equalities between two inputs of a comma
	// join ran as a nested loop over all their pairs.
	name:   "or_of_equalities_in_where",
	tables: map[int]int{5: 12, 10: 100},
	query: `SELECT count(q3.a10), sum(q1.e10) FROM t10 AS q1, t10 AS q2, t10 AS q3 JOIN t5 AS q4
		WHERE (q1.d10 = q3.b10 OR q1.a10 = q3.a10) AND q1.b10 = q2.b10 AND q4.c5 = 4`,
	want: map[string]int{"OR-KEY HASH INNER JOIN": 1},
	not:  []string{"NESTED LOOP INNER JOIN"},
}, {
	// seed 7 query 381: a LEFT JOIN without ON inside a comma join, an OR
	// ON condition and an OR WHERE condition over the outer join's columns.
	name:   "left_join_without_on_and_or_conditions",
	tables: map[int]int{1: 20, 2: 20, 3: 300, 6: 3, 9: 200},
	query: `SELECT q1.x2, q5.x3, q5.d3*323+q5.d3 FROM t2 AS q1 LEFT JOIN t9 AS q2
		LEFT JOIN t6 AS q3 ON (q2.b9 = q3.b6 OR q2.a9 = q3.a6), t1 AS q4, t3 AS q5
		WHERE (q3.b6 = q5.d3 OR q3.a6 = q5.a3) AND (q5.d3 = 92 OR q5.d3 = 273 OR q5.c3 < 2)`,
	want: map[string]int{"OR-KEY HASH INNER JOIN": 2},
	not:  []string{"NESTED LOOP INNER JOIN"},
}, {
	// An OR ON condition of a LEFT JOIN: rows matched by both disjuncts
	// come once, unmatched ones NULL-extended.
	name:   "left_join_on_or_of_equalities",
	tables: map[int]int{1: 200, 2: 150},
	query: `SELECT q1.a1, q1.b1, q2.a2, q2.c2 FROM t1 AS q1 LEFT JOIN t2 AS q2
		ON (q1.b1 = q2.b2 OR q1.a1 = q2.a2 OR (q1.c1 = q2.c2 AND q1.e1 = q2.e2)) AND q2.d2 > 20`,
	want: map[string]int{"OR-KEY HASH LEFT JOIN": 1},
	not:  []string{"NESTED LOOP"},
}, {
	// seed 7 query 3, shrunk: a filter left above a join chain (a theta
	// condition pushdown could not place) hid the chain below it, so the
	// chain was ordered without the inputs above the filter and q6 was
	// cross joined with q8 instead of hash joined with q9.
	name:   "filter_between_chain_joins",
	tables: map[int]int{2: 40, 6: 60, 9: 50, 10: 30},
	query: `SELECT count(*), sum(q6.a6) FROM t2 AS q1 JOIN t10 AS q2 ON q1.b2 = q2.b10 LEFT JOIN t2 AS q3 ON q1.c2 <> q3.c2,
		t6 AS q6, t6 AS q8, t9 AS q9
		WHERE q3.d2 < q8.b6 + 0 AND q6.d6 = q9.d9 AND q6.e6 BETWEEN 21 AND 37 AND q8.d6 IN (58,287,29,249,23,9,110,131)`,
	hashPair: [2]string{"SCAN t6 AS q6", "SCAN t9 AS q9"},
}, {
	// seed 7 query 5 under the first dynamic programming order: two inputs
	// no condition links (q8, q7) were cross joined as the build side of a
	// hash join, as their product looked cheaper than the big outer join
	// they are each linked with. Only the two cross joins the query writes
	// (inside the LEFT JOIN's left side) may remain.
	name:   "no_cross_join_of_linked_inputs",
	tables: map[int]int{1: 10, 2: 5, 3: 10, 5: 20, 7: 20, 10: 30},
	query: `SELECT count(*) FROM t3 AS q1 JOIN t1 AS q2, t2 AS q3 LEFT JOIN t7 AS q4, t1 AS q5 JOIN t7 AS q6 ON q5.b1 = q6.b7
		JOIN t5 AS q7 ON q3.b2 = q7.b5, t10 AS q8, t3 AS q9 JOIN t7 AS q10 ON q9.b3 = q10.d7 AND q10.d7 IN (191,276,264,251,261,81,82)
		WHERE q2.b1 = q8.d10 AND q2.c1 <> q9.c3 AND q1.e3 = q5.e1`,
	want: map[string]int{"CROSS JOIN": 2},
}, {
	// seed 101 query 2413 (10,000-query run): the WHERE made LEFT JOIN q7
	// inner, but its key to q2 sat above LEFT JOIN q6, so the chain below
	// (a product of five tables) was built before q7 was read; SQLite
	// starts from q7. The inner join now moves below the LEFT JOIN whose
	// right side it does not read, and is ordered with q1..q5.
	name:   "inner_join_below_left_join",
	tables: map[int]int{1: 5, 3: 10, 4: 3, 6: 60, 7: 10, 9: 200},
	query: `SELECT count(*), sum(q7.e9), sum(q9.a1) FROM t7 AS q1 JOIN t6 AS q2, t7 AS q3, t1 AS q4 JOIN t3 AS q5
		LEFT JOIN t4 AS q6 LEFT JOIN t9 AS q7 ON q2.d6 = q7.b9 + 1 JOIN t7 AS q8 LEFT JOIN t1 AS q9 WHERE q7.b9 = 47`,
	leftOver: [2]string{"SCAN t9 AS q7", "SCAN t4 AS q6"},
}, {
	// seed 102 query 416 (a 1,000-query run of the CPU-timed runner):
	// an empty table linked to no other input was the right side of a
	// cross join over a join of the others, and the cross join read its
	// left side first, so that join was built in full (15 ms against
	// SQLite's 0.1 ms) before the empty side ended it. A nested-loop or
	// cross join now reads first the side that is cheaper to start: a
	// scan before a tree of joins.
	name:   "empty_input_of_a_cross_join",
	tables: map[int]int{3: 300, 4: 400, 7: 300, 9: 0},
	query: `SELECT count(*), max(q4.a9) FROM t3 AS q1, t4 AS q2, t7 AS q3, t9 AS q4
		WHERE q2.c4 = q3.c7 AND q1.e3 = q2.e4`,
	want:   map[string]int{"CROSS JOIN": 1},
	unread: []string{"t3 AS q1", "t4 AS q2", "t7 AS q3"},
}, {
	// seed 701 query 7035 (10,000-query run): two theta joins (q2.c7 <>
	// q8.c4, q2.a7 < q3.a4 + 4) were joined before the equi-join chain
	// q4 = q1 = q2 that filters q2, building a product of 277,000 rows
	// (80 ms against SQLite's 0.5 ms): an equi-join key of unknown
	// distinct values was priced at 1/min of the two sides' rows, so
	// joining the filtered q1 to q2 looked like it multiplied rows. It is
	// now 1/max, and the chain joins first. With the tables' sizes known
	// (no ANALYZE needed), the small filtered q4 joins q1 first and q2
	// joins their hash join, before either theta join.
	name:   "equi_join_chain_before_theta_joins",
	tables: map[int]int{1: 300, 4: 100, 7: 60, 8: 30},
	query: `SELECT count(q1.c1) FROM t1 AS q1, t7 AS q2, t4 AS q3, t8 AS q4, t4 AS q8
		WHERE q2.c7 <> q8.c4 AND q4.x8 LIKE 'x1%' AND q1.b1 = q2.d7 + 1 AND q1.e1 BETWEEN 36 AND 49
		AND q2.a7 < q3.a4 + 4 AND q1.e1 = q4.e8`,
	hashPair: [2]string{"SCAN t7 AS q2", "HASH INNER JOIN"},
}, {
	// seed 701 query 7324 (10,000-query run), shrunk: a LEFT JOIN inside
	// a comma join paired every row of its left side (q1 × q2) with q3
	// by a theta condition (338,000 rows, 300 ms against SQLite's 1 ms)
	// before the filtered q8, keyed to q1 and q2, was joined above it. q8
	// (and q4) now join the LEFT JOIN's left side below it: with the
	// tables' sizes known, the filtered q8 joins the 30-row q2 first.
	name:   "inputs_into_left_join_left_side",
	tables: map[int]int{2: 400, 6: 300, 9: 30, 10: 400},
	query: `SELECT count(*), sum(q4.e6), count(q3.a6) FROM t2 AS q1, t9 AS q2 LEFT JOIN t6 AS q3 ON q1.c2 <> q3.c6, t6 AS q4, t10 AS q8
		WHERE q8.d10 = 171 AND q2.c9 = q4.c6 AND q1.c2 = q8.c10 AND q2.d9 = q8.a10 + 1`,
	want:     map[string]int{"LEFT JOIN": 1},
	hashPair: [2]string{"SCAN t10 AS q8", "SCAN t9 AS q2"},
}, {
	// seed 555 query 1612 (3.0 s against SQLite's 58 ms): the ON of LEFT
	// JOIN q6 reads q4 and q6 only, yet the LEFT JOIN ran above the
	// product of q1..q5, checking its ON 30 times for each of 681,450
	// rows. It now joins next to q4 (as SQLite's loop over q6 sits right
	// after q4's), as does LEFT JOIN q8, whose ON reads q4 too: q8 (three
	// rows) first, then q6.
	name:   "left_join_next_to_the_input_its_on_reads",
	tables: map[int]int{2: 10, 4: 30, 5: 40, 7: 3, 8: 300, 10: 40},
	query: `SELECT count(*), count(q8.d7), count(q6.a4) FROM t8 AS q1, t2 AS q2 CROSS JOIN t8 AS q3,
		t2 AS q4 JOIN t5 AS q5 ON q1.d8 < q5.b5 + 4 LEFT JOIN t4 AS q6 ON q4.d2 < q6.d4 + 3 AND q6.x4 LIKE 'x4%',
		t10 AS q7 LEFT JOIN t7 AS q8 ON q4.c2 <> q8.c7
		WHERE q1.a8 = q2.a2 + 1 AND q4.e2 IN (49,39,21,6,37,47) AND q3.b8 = 46 AND q1.c8 <> q7.c10`,
	want:     map[string]int{"LEFT JOIN": 2},
	leftPair: [2]string{"SCAN t2 AS q4", "SCAN t7 AS q8"},
}, {
	// seed 702 query 9389: two LEFT JOINs in a ten-input comma join, each
	// ON reading one input of its left side; both ran above the product
	// of everything before them. Each now joins its one input by hash.
	name:   "left_joins_of_one_input_each_in_a_comma_join",
	tables: map[int]int{2: 40, 3: 10, 4: 5, 5: 2, 6: 10, 8: 40},
	query: `SELECT count(*), max(q5.d6), count(q7.c8), count(q10.a4) FROM t8 AS q1 JOIN t4 AS q2 ON q1.c8 = q2.c4,
		t8 AS q3, t5 AS q4 LEFT JOIN t6 AS q5 ON q1.d8 = q5.b6 + 50, t3 AS q6 LEFT JOIN t8 AS q7 ON q6.c3 = q7.c8 + 1,
		t5 AS q8, t2 AS q9, t4 AS q10 WHERE 38 = q9.b2 AND q3.c8 = q9.c2 - 1 AND q9.c2 <> q10.c4`,
	want:     map[string]int{"HASH LEFT JOIN": 2},
	leftPair: [2]string{"SCAN t3 AS q6", "SCAN t8 AS q7"},
}, {
	// seed 702 query 2512: the WHERE rejects q4's NULLs, which makes the
	// RIGHT JOIN inner (pushdown did that) and the LEFT JOIN of q4 below
	// it inner too (it did not look below the join it had made inner), so
	// q4 was paired with the whole product q1 × q2 × q3 first.
	name:   "outer_join_below_a_simplified_one",
	tables: map[int]int{2: 5, 3: 4, 4: 60, 9: 60},
	query: `SELECT count(*), sum(q2.d3), sum(q3.d2) FROM t9 AS q1, t3 AS q2, t2 AS q3 LEFT JOIN t9 AS q4
		RIGHT JOIN t4 AS q5 ON q4.d9 = q5.d4 + 5, t3 AS q6, t4 AS q7 WHERE q4.d9 = q7.d4 + 5 AND q7.e4 + q7.c4 < 12`,
	not:      []string{"LEFT JOIN", "RIGHT JOIN"},
	hashPair: [2]string{"SCAN t9 AS q4", "SCAN t4 AS q7"},
}, {
	// seed 702 query 4711: the ON of the inner join after LEFT JOIN q3
	// (q3.d3 = q4.a3) rejects q3's NULLs, so it is an inner join, as
	// SQLite makes it; left outer, it kept q3 and q4 from joining first.
	name:   "left_join_made_inner_by_a_later_on",
	tables: map[int]int{3: 100, 5: 40, 6: 40, 7: 40},
	query: `SELECT count(*), sum(q4.d3*153+q6.a7), count(q6.x7) FROM t7 AS q1 CROSS JOIN t5 AS q2 LEFT JOIN t3 AS q3
		JOIN t3 AS q4 ON q3.d3 = q4.a3 JOIN t6 AS q5 ON q1.b7 = q5.b6 LEFT JOIN t7 AS q6 ON q5.b6 = q6.b7
		WHERE q4.x3 LIKE 'x8%' AND (q1.c7 = q2.c5 OR q1.a7 = q2.a5)`,
	hashPair: [2]string{"SCAN t3 AS q3", "SCAN t3 AS q4"},
}, {
	// A WHERE condition on a LEFT JOIN's right side that keeps its NULLs
	// (IS NULL OR ...) leaves it outer: the LEFT JOIN moves below the
	// inner join with q1, and the condition filters above it, not in its
	// ON.
	name:   "left_join_reordered_under_a_null_keeping_where",
	tables: map[int]int{2: 30, 3: 40, 4: 40, 5: 30},
	query: `SELECT count(*), count(q3.a4), sum(q3.d4) FROM t2 AS q1, t3 AS q2 LEFT JOIN t4 AS q3 ON q2.b3 = q3.b4 + 2 AND q3.c4 > 4,
		t5 AS q4 WHERE q1.c2 = q4.c5 AND q2.e3 = q4.e5 AND (q3.a4 IS NULL OR q3.d4 > 100)`,
	want: map[string]int{"LEFT JOIN": 1},
}, {
	// A LEFT JOIN whose ON reads the right side of the LEFT JOIN before
	// it: it joins above that one.
	name:   "left_join_on_an_earlier_left_joins_right_side",
	tables: map[int]int{2: 30, 3: 40, 4: 40, 5: 30},
	query: `SELECT count(*), count(q2.a3), count(q3.a4), sum(q3.e4) FROM t2 AS q1 LEFT JOIN t3 AS q2 ON q1.c2 = q2.c3 + 1 AND q2.a3 > 500
		LEFT JOIN t4 AS q3 ON q2.b3 = q3.b4 - 1, t5 AS q4 WHERE q4.e5 = q1.e2 AND q4.c5 < 5`,
	want: map[string]int{"LEFT JOIN": 2},
}, {
	// A RIGHT JOIN is a LEFT JOIN of its right side, with its left side
	// (here a join of its own) the NULL-extended input.
	name:   "right_join_of_a_join",
	tables: map[int]int{2: 30, 3: 40, 4: 40, 5: 30},
	query: `SELECT count(*), count(q1.a2), count(q2.b3), sum(q4.d5) FROM t2 AS q1 JOIN t3 AS q2 ON q1.c2 = q2.c3
		RIGHT JOIN t4 AS q3 ON q2.b3 = q3.b4 + 3, t5 AS q4 WHERE q3.e4 = q4.e5`,
	want: map[string]int{"LEFT JOIN": 1},
}, {
	// ON conditions that read only the left side, or no column: they
	// stay in the LEFT JOIN's ON (a filter would drop left rows).
	name:   "left_join_on_left_side_or_constant",
	tables: map[int]int{2: 30, 3: 40, 4: 40},
	query: `SELECT count(*), count(q2.a3), count(q4.a3) FROM t2 AS q1 LEFT JOIN t3 AS q2 ON q1.c2 > 5,
		t4 AS q3 LEFT JOIN t3 AS q4 ON 1 = 0 WHERE q3.b4 = q1.b2 + 1`,
	want: map[string]int{"LEFT JOIN": 2},
}, {
	// seed 812 query 1894: the OR of equalities filters q2's few rows
	// against q1; priced as doubling them, it ran after the theta join
	// q4.d4 < q5.d4, which built the product of the inputs before it for
	// the OR join to discard. It must run below the theta join.
	name:   "or_join_before_theta_join",
	tables: map[int]int{2: 300, 4: 400, 8: 60, 9: 100},
	query: `SELECT max(q1.c9), count(*) FROM t9 AS q1 JOIN t8 AS q2 ON (q1.d9 = q2.a8 OR q1.a9 = q2.a8), t4 AS q3, t4 AS q4,
		t4 AS q5 JOIN t2 AS q6 ON q3.c4 = q6.c2 WHERE q2.c8 = q4.c4 AND q2.d8 BETWEEN 79 AND 84 AND q2.e8 = q3.e4 AND q4.d4 < q5.d4 + 0`,
	want:  map[string]int{"OR-KEY HASH INNER JOIN": 1, "NESTED LOOP INNER JOIN": 1},
	above: [2]string{"NESTED LOOP INNER JOIN", "OR-KEY HASH INNER JOIN"},
}}

// TestJoinGen_Regressions runs each shrunk slow shape on ladybug and
// SQLite: the answers must match and ladybug's plan must have the shape
// that makes it fast.
func TestJoinGen_Regressions(t *testing.T) {
	for _, tc := range joinRegressCases {
		t.Run(tc.name, func(t *testing.T) {
			lb, sq := OpenTarget(EngineLadybug), OpenTarget(EngineSQLite)
			defer lb.Close()
			defer sq.Close()
			for n, rows := range tc.tables {
				for _, s := range joinRegressTable(n, rows) {
					for _, tg := range []*Target{lb, sq} {
						if _, err := tg.Exec(s); err != nil {
							t.Fatalf("%s: %s: %v", tg.Name, s, err)
						}
					}
				}
			}
			want, err := sq.Query(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			got, err := lb.Query(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			if msg := compareRows(want, got, false, canonValue); msg != "" {
				t.Errorf("answers differ: %s", msg)
			}
			if len(want.Values) == 0 {
				t.Errorf("the query returns no row: the check is too weak")
			}
			plan, err := lb.Query("EXPLAIN QUERY PLAN " + tc.query)
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			detail, children := map[string]string{}, map[string][]string{}
			kids := map[string][]string{} // children's ids by parent id
			for _, r := range plan.Values {
				id, parent, d := fmt.Sprint(r[0]), fmt.Sprint(r[1]), fmt.Sprint(r[len(r)-1])
				lines = append(lines, d)
				detail[id] = d
				children[parent] = append(children[parent], d)
				kids[parent] = append(kids[parent], id)
			}
			text := strings.Join(lines, "\n")
			if tc.hashPair[0] != "" && !hasHashPair(detail, children, tc.hashPair) {
				t.Errorf("no hash join of %q and %q:\n%s", tc.hashPair[0], tc.hashPair[1], text)
			}
			if tc.leftPair[0] != "" && !hasLeftPair(detail, children, tc.leftPair) {
				t.Errorf("no LEFT JOIN of %q and %q:\n%s", tc.leftPair[0], tc.leftPair[1], text)
			}
			if tc.leftOver[0] != "" && !hasLeftOver(detail, kids, tc.leftOver) {
				t.Errorf("%q is not below the LEFT JOIN of %q:\n%s", tc.leftOver[0], tc.leftOver[1], text)
			}
			if tc.above[0] != "" && !hasAbove(detail, kids, tc.above) {
				t.Errorf("%q is not below %q:\n%s", tc.above[1], tc.above[0], text)
			}
			for s, n := range tc.want {
				if c := strings.Count(text, s); c != n {
					t.Errorf("plan has %d %q, want %d:\n%s", c, s, n, text)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(text, s) {
					t.Errorf("plan has %q:\n%s", s, text)
				}
			}
			if len(tc.unread) > 0 {
				checkUnread(t, lb, tc.query, tc.unread)
			}
		})
	}
}

// hasHashPair reports whether some hash join of an EXPLAIN QUERY PLAN
// (details by id, children's details by parent id) has exactly the two
// inputs pair, in either order (a pair name ending in "JOIN" matching
// any join detail it starts).
func hasHashPair(detail map[string]string, children map[string][]string, pair [2]string) bool {
	is := func(d, name string) bool {
		return d == name || strings.HasSuffix(name, "JOIN") && strings.HasPrefix(d, name)
	}
	for id, d := range detail {
		c := children[id]
		if strings.HasPrefix(d, "HASH ") && len(c) == 2 &&
			((is(c[0], pair[0]) && is(c[1], pair[1])) || (is(c[0], pair[1]) && is(c[1], pair[0]))) {
			return true
		}
	}
	return false
}

// hasLeftPair reports whether some LEFT JOIN of an EXPLAIN QUERY PLAN
// has exactly the inputs pair, left then right.
func hasLeftPair(detail map[string]string, children map[string][]string, pair [2]string) bool {
	for id, d := range detail {
		c := children[id]
		if strings.Contains(d, "LEFT JOIN") && len(c) == 2 && c[0] == pair[0] && c[1] == pair[1] {
			return true
		}
	}
	return false
}

// hasAbove reports whether a node whose detail starts with pair[0] has a
// node whose detail starts with pair[1] below it (details by id, child
// ids by parent id).
func hasAbove(detail map[string]string, kids map[string][]string, pair [2]string) bool {
	var below func(id string) bool
	below = func(id string) bool {
		for _, k := range kids[id] {
			if strings.HasPrefix(detail[k], pair[1]) || below(k) {
				return true
			}
		}
		return false
	}
	for id, d := range detail {
		if strings.HasPrefix(d, pair[0]) && below(id) {
			return true
		}
	}
	return false
}

// hasLeftOver reports whether the scan pair[0] is in the left input of a
// LEFT JOIN whose right input is the scan pair[1] (details by id, child
// ids by parent id).
func hasLeftOver(detail map[string]string, kids map[string][]string, pair [2]string) bool {
	var below func(id string) bool
	below = func(id string) bool {
		if detail[id] == pair[0] {
			return true
		}
		for _, k := range kids[id] {
			if below(k) {
				return true
			}
		}
		return false
	}
	for id, d := range detail {
		k := kids[id]
		if strings.Contains(d, "LEFT JOIN") && len(k) == 2 && detail[k[1]] == pair[1] && below(k[0]) {
			return true
		}
	}
	return false
}

// checkUnread runs query under EXPLAIN ANALYZE on lb and fails t unless
// each scan named in unread read no row.
func checkUnread(t *testing.T, lb *Target, query string, unread []string) {
	t.Helper()
	an, err := lb.Query("EXPLAIN ANALYZE " + query)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range an.Values {
		lines = append(lines, fmt.Sprint(r[len(r)-1]))
	}
	text := strings.Join(lines, "\n")
	for _, scan := range unread {
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, "TableScan "+scan+" ") {
				found = true
				if !strings.Contains(l, "actual rows=0 ") {
					t.Errorf("scan %s read rows:\n%s", scan, text)
				}
			}
		}
		if !found {
			t.Errorf("no scan of %s:\n%s", scan, text)
		}
	}
}
