package grammar

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// lowLimits are lowered limits under which many test cases fail in the
// builder, so that the fast path must see every limit the builder checks.
var lowLimits = &Limits{ExprDepth: 4, CompoundSelect: 2, FunctionArg: 2, VariableNumber: 3}

// checkFastMatches asserts that, when the fast path accepts sql, it builds
// exactly the tree participle and the builder build (the whole tree:
// nodes, positions, source texts, placeholder numbers), under the default
// limits and under lowLimits; covered reports that it accepts sql under
// the defaults.
func checkFastMatches(t testing.TB, sql string) (covered bool) {
	t.Helper()
	for _, lim := range []*Limits{nil, lowLimits} {
		l := lim.resolved()
		p, err := preLex(sql)
		if err != nil || p == nil {
			return false
		}
		fast, ok := p.script(&l)
		p.release()
		if !ok {
			continue
		}
		slow, err := slowParse(sql, &l)
		if err != nil {
			t.Fatalf("fast path accepts %q (limits %+v), participle and the builder reject it: %v", sql, l, err)
		}
		if d := structDiff("", reflect.ValueOf(fast), reflect.ValueOf(slow)); d != "" {
			t.Fatalf("fast path reads %q differently (limits %+v): %s", sql, l, d)
		}
		if lim == nil {
			covered = true
		}
	}
	p, err := preLex(sql)
	if err != nil || p == nil {
		return covered
	}
	l := (*Limits)(nil).resolved()
	fast, ok := p.exprRoot(&l)
	p.release()
	if ok {
		slow, err := slowParseExpr(sql)
		if err != nil {
			t.Fatalf("fast path accepts expression %q, participle and the builder reject it: %v", sql, err)
		}
		if d := structDiff("", reflect.ValueOf(&fast), reflect.ValueOf(&slow)); d != "" {
			t.Fatalf("fast path reads expression %q differently: %s", sql, d)
		}
	}
	return covered
}

func TestFastParse_MatchesParticiple(t *testing.T) {
	total, covered := 0, 0
	for _, pattern := range []string{"parse/*.sql", "corpus/*.sql", "errors.sql"} {
		for _, file := range sqlFiles(t, pattern) {
			for _, c := range readCases(t, file) {
				total++
				if checkFastMatches(t, c) {
					covered++
				}
			}
		}
	}
	for _, c := range []string{benchPointSelect, benchGormInsert, benchAnalytic} {
		if !checkFastMatches(t, c) {
			t.Errorf("fast path does not cover %q", c)
		}
	}
	for _, c := range fastEdgeCases {
		total++
		if checkFastMatches(t, c) {
			covered++
		}
	}
	t.Logf("fast path covers %d of %d cases", covered, total)
}

// structDiff describes the first difference between a and b, unexported
// fields included (a statement's source text), or "" when they are equal.
func structDiff(path string, a, b reflect.Value) string {
	if a.Kind() != b.Kind() {
		return path + ": kinds differ"
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: fast nil=%v, participle nil=%v", path, a.IsNil(), b.IsNil())
			}
			return ""
		}
		if a.Elem().Type() != b.Elem().Type() {
			return fmt.Sprintf("%s: fast %v, participle %v", path, a.Elem().Type(), b.Elem().Type())
		}
		return structDiff(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := structDiff(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return fmt.Sprintf("%s: fast len %d nil=%v, participle len %d nil=%v", path, a.Len(), a.IsNil(), b.Len(), b.IsNil())
		}
		for i := 0; i < a.Len(); i++ {
			if d := structDiff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.String:
		if a.String() != b.String() {
			return fmt.Sprintf("%s: fast %q, participle %q", path, a.String(), b.String())
		}
		return ""
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return fmt.Sprintf("%s: fast %v, participle %v", path, a.Bool(), b.Bool())
		}
		return ""
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: fast %d, participle %d", path, a.Int(), b.Int())
		}
		return ""
	}
	return fmt.Sprintf("%s: cannot compare kind %v", path, a.Kind())
}

// fastEdgeCases are texts where the fast path's choices are easiest to get
// wrong: optional parts that start and then fail, lookaheads, trailing
// commas, soft keywords used as names.
var fastEdgeCases = []string{
	"", ";", "SELECT 1;;; SELECT 2;", "WITH", "WITH x AS (SELECT 1)", "SELECT a FROM t AS",
	"SELECT x NOT NULL, y NOTNULL, z ISNULL, w IS NULL",
	"SELECT a NOT IN (1,2), b IN t, c IN f(1), c IN main.t, d NOT BETWEEN 1 AND 2, e NOT LIKE 'x' ESCAPE '!'",
	"SELECT * FROM a NATURAL LEFT OUTER JOIN b USING (x) CROSS JOIN c, d INNER JOIN e ON e.x = d.x RIGHT JOIN f FULL OUTER JOIN g",
	"SELECT t.*, count(*) FILTER (WHERE x > 1) OVER (), sum(DISTINCT x), sum(ALL x), group_concat(x ORDER BY y DESC, z) FROM t",
	"SELECT CASE WHEN a THEN b ELSE c END, CASE a WHEN 1 THEN 2 END, CASE WHEN 1 THEN 2 WHEN END",
	"SELECT CAST(a AS VARCHAR(10)), CAST(b AS DECIMAL(10, -2)), a::int, a::numeric(3), a COLLATE nocase, -+~a",
	"SELECT (SELECT 1), (1,2), EXISTS (SELECT 1), NOT EXISTS (SELECT 2), (WITH x AS (SELECT 1) SELECT * FROM x), (with)",
	"VALUES (1),(2) UNION ALL SELECT 3 INTERSECT SELECT 4 EXCEPT SELECT 5 UNION (SELECT 6) ORDER BY 1 LIMIT 1, 2",
	"WITH RECURSIVE c(n) AS NOT MATERIALIZED (SELECT 1 UNION ALL SELECT n+1 FROM c WHERE n < 10), d AS MATERIALIZED (SELECT 2) SELECT n FROM c",
	"INSERT OR REPLACE INTO main.t AS x (a, b) SELECT 1, 2 ON CONFLICT (a COLLATE nocase DESC) WHERE a > 0 DO UPDATE SET b = excluded.b, (c, d) = (1, 2) WHERE b IS NOT DISTINCT FROM 1 ON CONFLICT DO NOTHING RETURNING *, a AS y",
	"INSERT INTO t VALUES (1) ON CONFLICT DO", "INSERT INTO t VALUES (1) ON CONFLICT (a) DO NOTHING",
	"REPLACE INTO t DEFAULT VALUES", "INSERT INTO t (SELECT 1)", "INSERT INTO t VALUES (1),", "INSERT INTO t VALUES",
	"UPDATE OR IGNORE t AS u INDEXED BY i SET a = 1 FROM s WHERE u.id = s.id RETURNING a", "UPDATE t SET (a) = (1)", "UPDATE t SET a = 1,",
	"DELETE FROM t NOT INDEXED WHERE a -> '$.x' ->> 'y' = 1", "DELETE FROM t WHERE", "DELETE t",
	"SELECT a FROM t WINDOW w AS (PARTITION BY a ORDER BY b NULLS LAST RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE NO OTHERS), v AS (w ROWS 2 PRECEDING EXCLUDE TIES)",
	"SELECT f() OVER (GROUPS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW), g() OVER (ROWS CURRENT ROW EXCLUDE GROUP)",
	"SELECT unbounded FROM t WINDOW w AS (ROWS unbounded PRECEDING)", "SELECT f() OVER w2, g() OVER (w2), h() OVER", "SELECT f() OVER (ROWS BETWEEN)",
	"SELECT 1 a, 'x' 'y', \"q\", 2 AS \"x\", 3 AS 'y', 4 AS FROM (SELECT 1) AS s, json_each('[]') j, (SELECT 2) 'z'",
	"select true, false, null, current_timestamp, current_date, current_time, x'ab', 0x1f, 1e5, .5, ?, ?1, $1, :a, @b",
	"SELECT a.b.c, a.b.c.d", "SELECT a.b(", "SELECT f(", "SELECT count(DISTINCT)", "SELECT a,", "SELECT a FROM t,", "SELECT f(1,)",
	"SELECT x FROM t ORDER BY x NULLS", "SELECT x FROM t ORDER BY x NULLS FIRST, y ASC NULLS LAST", "SELECT cast FROM t", "SELECT raise FROM t",
	"SELECT a IS NOT b, a IS DISTINCT FROM b, a IS DISTINCT b", "SELECT NOT NOT a", "SELECT a NOT NOT IN (1)", "SELECT a NOT",
	"SELECT a FROM t LIMIT 1 OFFSET 2", "SELECT a FROM t offset", "SELECT a offset FROM t", "SELECT a fetch FROM t",
	"SELECT * FROM t INDEXED BY", "SELECT a FROM t GROUP BY a HAVING count(*) > 1", "SELECT a FROM t GROUP BY", "SELECT a FROM t HAVING 1",
	"SELECT \u017felect", "SELECT x FROM t WHERE x IN ()", "SELECT x IN (SELECT 1 UNION SELECT 2)", "SELECT CAST(1 AS)", "SELECT a::", "SELECT a COLLATE",
	"SELECT - - 1, a-1, a - -1, 'a' || 'b', a << 2 >> 1 & 3 | 4 % 5 * 6 / 7, a == b, a != b, a <> b, a <= b, a >= b, a < b, a > b, a = b",
	"SELECT a AND b OR c, a LIKE b ESCAPE c, a GLOB b, a REGEXP b, a MATCH b, a ILIKE b, a NOT GLOB b",
	"SELECT x FROM t JOIN u", "SELECT x FROM t LEFT JOIN u ON", "SELECT x FROM t JOIN u USING ()", "SELECT x FROM t NATURAL", "SELECT x FROM t JOIN",
	"WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x", "WITH x AS (SELECT 1) UPDATE t SET a = 1", "WITH x AS (SELECT 1) DELETE FROM t",
	"WITH x AS (SELECT 1) CREATE TABLE t (a)", "WITH x AS (SELECT 1) VALUES (1)", "WITH x AS (SELECT 1) (SELECT 2)",
	"SELECT 1 -- c\n; /* d */ SELECT 2 /* e */", "SELECT x FROM t WHERE x = 1 -- tail", "SELECT\n  a\n, b FROM t\n\n",
	"SELECT DISTINCT a FROM t", "SELECT ALL a FROM t", "SELECT * FROM (VALUES (1)) v", "SELECT * FROM f() AS g", "SELECT * FROM (SELECT 1",
	"SELECT CASE x WHEN 1 THEN 'a' WHEN 2 THEN 'b' ELSE END", "SELECT a FROM t WHERE a IN (?, ?, ?) AND b NOT IN (SELECT c FROM d)",
}

// TestFastLex_LateGuard_StopsWhatTheEagerGuardStops checks that the fast
// lexer, which starts the depth guard at token maxDepth (going over the
// tokens before it then), stops exactly the statements, at exactly the
// tokens, that the participle path's guard stops from the first token.
func TestFastLex_LateGuard_StopsWhatTheEagerGuardStops(t *testing.T) {
	stopped := 0
	for d := maxDepth - 3; d <= maxDepth+3; d++ {
		for _, sql := range []string{
			"SELECT " + strings.Repeat("(", d) + "1" + strings.Repeat(")", d),
			"SELECT " + strings.Repeat("NOT ", d) + "1",
			"SELECT 1 " + strings.Repeat("- ", d) + "1",
			"SELECT " + strings.Repeat("CASE WHEN 1 THEN ", d) + "1" + strings.Repeat(" END", d),
			strings.Repeat("(", d/2) + "SELECT " + strings.Repeat("-", d/2+1) + "1",
		} {
			_, fastErr := fastLex(sql, nil)
			_, slowErr := lexScript(sql)
			if fmt.Sprint(fastErr) != fmt.Sprint(slowErr) {
				t.Fatalf("%.60q...: fast lexer %v, participle path %v", sql, fastErr, slowErr)
			}
			if fastErr != nil {
				stopped++
			}
		}
	}
	if stopped == 0 {
		t.Fatal("no statement reached the guard")
	}
}
