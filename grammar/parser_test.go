package grammar

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func mustParse(t *testing.T, sql string) []Statement {
	t.Helper()
	stmts, err := Parse(sql)
	if err != nil {
		t.Fatalf("Parse(%q): %v", sql, err)
	}
	return stmts
}

func TestParse_MultiLineScript_ErrorPosition(t *testing.T) {
	sql := "SELECT 1;\n\n-- comment\nINSERT INTO t VALUES (1);\n  UPDATE t SET a = 1 WHER b = 2;\nSELECT 3"
	_, err := Parse(sql)
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("got %v, want *SyntaxError", err)
	}
	if se.Line != 5 || se.Column != 22 || se.Near != "WHER" || sql[se.Offset:se.Offset+4] != "WHER" {
		t.Fatalf("got line %d column %d offset %d near %q: %v", se.Line, se.Column, se.Offset, se.Near, err)
	}
	want := `near "WHER" at line 5, column 22: syntax error`
	if se.Error() != want {
		t.Fatalf("got %q, want %q", se.Error(), want)
	}
}

func TestParse_ErrorInEveryLine_ReportsThatLine(t *testing.T) {
	lines := []string{"SELECT a", "FROM t", "WHERE a = 1", "ORDER BY a", "LIMIT 1"}
	for i := range lines {
		broken := append([]string(nil), lines...)
		broken[i] += " )"
		_, err := Parse(strings.Join(broken, "\n"))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("line %d: got %v", i+1, err)
		}
		if se.Line != i+1 || se.Column != len(lines[i])+2 || se.Near != ")" {
			t.Errorf("line %d: got line %d column %d near %q", i+1, se.Line, se.Column, se.Near)
		}
	}
}

func TestParse_ReservedKeywordAsName_HintsQuoting(t *testing.T) {
	_, err := Parse("SELECT id, order FROM t")
	var se *SyntaxError
	if !errors.As(err, &se) || !strings.Contains(se.Hint, `"order"`) {
		t.Fatalf("got %v, want a hint to quote order", err)
	}
	if !strings.HasPrefix(err.Error(), `near "order" at line 1, column 12: syntax error`) {
		t.Fatalf("got %q", err)
	}
}

func TestParse_NodePositions_PointAtFirstToken(t *testing.T) {
	sql := "SELECT a,\n  b + 1 AS c\nFROM t\nWHERE x = ?"
	st := mustParse(t, sql)[0].(*SelectStmt)
	core := st.Body.(*SelectCore)
	bin := core.Columns[1].Expr.(*BinaryExpr)
	if p := bin.Pos(); p.Line != 2 || p.Column != 3 || sql[p.Offset] != 'b' {
		t.Fatalf("binary expr at %+v", p)
	}
	if p := bin.R.Pos(); p.Line != 2 || p.Column != 7 {
		t.Fatalf("literal at %+v", p)
	}
	if p := core.From.Pos(); p.Line != 3 || p.Column != 6 {
		t.Fatalf("table at %+v", p)
	}
	param := core.Where.(*BinaryExpr).R
	if p := param.Pos(); p.Line != 4 || p.Column != 11 {
		t.Fatalf("param at %+v", p)
	}
	if core.Columns[1].Text != "b + 1" {
		t.Fatalf("result column text %q", core.Columns[1].Text)
	}
}

func TestParse_StatementText_IsExactSource(t *testing.T) {
	sql := "CREATE TABLE t (a INT) ;\n-- c\nINSERT INTO t VALUES (1)/* x */;SELECT 1"
	stmts := mustParse(t, sql)
	want := []string{"CREATE TABLE t (a INT)", "INSERT INTO t VALUES (1)", "SELECT 1"}
	for i, st := range stmts {
		if st.Text() != want[i] {
			t.Errorf("statement %d text %q, want %q", i, st.Text(), want[i])
		}
	}
}

func TestParse_EmptyScript_ReturnsNoStatements(t *testing.T) {
	for _, sql := range []string{"", " ", ";", ";;", "-- only a comment", "/* c */ ;"} {
		if stmts := mustParse(t, sql); len(stmts) != 0 {
			t.Errorf("Parse(%q) = %d statements", sql, len(stmts))
		}
	}
}

func TestParse_Params_NumberedLikeSQLite(t *testing.T) {
	indexes := func(st Node) []int {
		var got []int
		for _, p := range Params(st) {
			got = append(got, p.Index)
		}
		return got
	}
	for sql, want := range map[string][]int{
		"SELECT ?, ?5, ?, :a, $2, ?":  {1, 5, 6, 7, 2, 8},
		"SELECT :a, ?, :a, @a, $a, ?": {1, 2, 1, 3, 4, 5},
		"SELECT ?3, ?, ?1, ?":         {3, 4, 1, 5},
		// The tree holds WHERE before the FROM's ON, and a CASE's ELSE
		// before its WHEN/THEN; the numbers follow the text.
		"SELECT ? FROM a JOIN b ON b.x = ? WHERE a.y = ? GROUP BY ? HAVING ?":               {1, 2, 3, 4, 5},
		"SELECT CASE ? WHEN ? THEN ? ELSE ? END":                                            {1, 2, 3, 4},
		"INSERT INTO u(k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = ? RETURNING ?": {1, 2, 3, 4},
		"UPDATE u SET v = ? FROM (SELECT ? AS k) AS s WHERE u.k = ?":                        {1, 2, 3},
	} {
		st := mustParse(t, sql)[0]
		if got := indexes(st); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: got %v, want %v", sql, got, want)
		}
	}
	// Numbering restarts with each statement.
	second := mustParse(t, "SELECT ?; SELECT ?")[1]
	if p := second.(*SelectStmt).Body.(*SelectCore).Columns[0].Expr.(*Param); p.Index != 1 {
		t.Fatalf("second statement's ? has index %d", p.Index)
	}
}

func TestParamNumbering_Number_ScriptNumbersOn(t *testing.T) {
	var pn ParamNumbering
	for _, st := range mustParse(t, "SELECT ?, :x; SELECT ?, :x, @y") {
		pn.Number(st)
	}
	if pn.Max != 4 || fmt.Sprint(pn.Names) != "[ x  y]" {
		t.Fatalf("Max %d, Names %q", pn.Max, pn.Names)
	}
}

func TestParse_MinusSign_IsAnOperator(t *testing.T) {
	core := mustParse(t, "SELECT a-1, - 1, 2-1")[0].(*SelectStmt).Body.(*SelectCore)
	if b, ok := core.Columns[0].Expr.(*BinaryExpr); !ok || b.Op != OpSub {
		t.Fatalf("a-1 parsed as %s", Dump(core.Columns[0].Expr, false))
	}
	if u, ok := core.Columns[1].Expr.(*UnaryExpr); !ok || u.Op != OpNeg {
		t.Fatalf("- 1 parsed as %s", Dump(core.Columns[1].Expr, false))
	}
	if b, ok := core.Columns[2].Expr.(*BinaryExpr); !ok || b.Op != OpSub {
		t.Fatalf("2-1 parsed as %s", Dump(core.Columns[2].Expr, false))
	}
}

func TestParse_Compound_IsLeftAssociative(t *testing.T) {
	st := mustParse(t, "SELECT 1 UNION SELECT 2 EXCEPT SELECT 3")[0].(*SelectStmt)
	top, ok := st.Body.(*CompoundSelect)
	if !ok || top.Op != Except {
		t.Fatalf("top is %s", Dump(st.Body, false))
	}
	if left, ok := top.Left.(*CompoundSelect); !ok || left.Op != Union {
		t.Fatalf("left is %s", Dump(top.Left, false))
	}
}

func TestParse_Joins_AreLeftAssociative(t *testing.T) {
	core := mustParse(t, "SELECT * FROM a JOIN b ON 1 LEFT JOIN c USING (x), d")[0].(*SelectStmt).Body.(*SelectCore)
	j := core.From.(*Join)
	if !j.Comma || j.Kind != JoinCross {
		t.Fatalf("outer join %s", Dump(j, false))
	}
	if l := j.Left.(*Join); l.Kind != JoinLeft || len(l.Using) != 1 || l.Left.(*Join).Kind != JoinInner {
		t.Fatalf("inner joins %s", Dump(j.Left, false))
	}
}

func TestParseExpr_Precedence(t *testing.T) {
	cases := map[string]string{
		"1 + 2 * 3":                 "1 + 2 * 3",
		"(1 + 2) * 3":               "(1 + 2) * 3",
		"a OR b AND c":              "a OR b AND c",
		"(a OR b) AND c":            "(a OR b) AND c",
		"NOT a = b":                 "NOT a = b",
		"a = (NOT b)":               "a = (NOT b)",
		"- (a + b)":                 "-(a + b)",
		"a || b * c":                "a || b * c",
		"(a || b) * c":              "a || b * c",
		"a * (b || c)":              "a * b || c",
		"(a * b) || c":              "(a * b) || c",
		"a < b = c < d":             "a < b = c < d",
		"a = (b = c)":               "a = (b = c)",
		"x COLLATE nocase = y":      "x COLLATE nocase = y",
		"-(x COLLATE nocase)":       "-(x COLLATE nocase)",
		"a BETWEEN 1 AND 2 OR b":    "a BETWEEN 1 AND 2 OR b",
		"a BETWEEN (1 AND 2) AND 3": "a BETWEEN (1 AND 2) AND 3",
		"NOT (EXISTS (SELECT 1))":   "NOT EXISTS (SELECT 1)",
		"a & (b | c)":               "a & (b | c)",
	}
	for in, want := range cases {
		e, err := ParseExpr(in)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", in, err)
			continue
		}
		if got := e.String(); got != want {
			t.Errorf("ParseExpr(%q).String() = %q, want %q", in, got, want)
		}
	}
}

func TestParseExpr_TrailingInput_Fails(t *testing.T) {
	if _, err := ParseExpr("1 + 2 FROM"); err == nil {
		t.Fatal("want an error")
	}
}

func TestParse_DeepNesting_FailsFast(t *testing.T) {
	for _, sql := range []string{
		"SELECT " + strings.Repeat("(", 1000) + "1" + strings.Repeat(")", 1000),
		"SELECT " + strings.Repeat("- ", 1000) + "1",
		"SELECT " + strings.Repeat("NOT ", 1000) + "1",
		"SELECT " + strings.Repeat("CASE WHEN 1 THEN ", 1000) + "1" + strings.Repeat(" END", 1000),
		strings.Repeat("EXPLAIN ", 1000) + "SELECT 1",
	} {
		_, err := Parse(sql)
		if !errors.Is(err, ErrTooDeep) {
			t.Errorf("Parse(%.30q...) = %v, want ErrTooDeep", sql, err)
		}
	}
	// Nesting within the limit still parses.
	roundTrip(t, "SELECT "+strings.Repeat("(", 50)+"1"+strings.Repeat(")", 50))
}

func TestParse_LongFlatExpression_Parses(t *testing.T) {
	sql := "SELECT 1" + strings.Repeat(" + 1", MaxExprDepth-1) // the deepest chain SQLite accepts
	st := mustParse(t, sql)[0]
	// A left-associative chain prints without parentheses.
	if got := st.String(); got != sql {
		t.Fatalf("printed %.60q...", got)
	}
}

func TestWalk_VisitsEveryNode_AndCanPrune(t *testing.T) {
	st := mustParse(t, "SELECT a, (SELECT b FROM u WHERE c) FROM t WHERE d IN (1, 2)")[0]
	var cols []string
	Walk(st, func(n Node) bool {
		if c, ok := n.(*ColumnRef); ok {
			cols = append(cols, c.Column)
		}
		return true
	})
	if strings.Join(cols, ",") != "a,b,c,d" {
		t.Fatalf("visited %v", cols)
	}
	cols = nil
	Walk(st, func(n Node) bool {
		if _, ok := n.(*SubqueryExpr); ok {
			return false
		}
		if c, ok := n.(*ColumnRef); ok {
			cols = append(cols, c.Column)
		}
		return true
	})
	if strings.Join(cols, ",") != "a,d" {
		t.Fatalf("visited %v with pruning", cols)
	}
}

func TestIsReserved_KeywordsAndNames(t *testing.T) {
	for w, want := range map[string]bool{"select": true, "ORDER": true, "key": false, "status": false, "action": false, "x": false} {
		if IsReserved(w) != want {
			t.Errorf("IsReserved(%q) = %v", w, !want)
		}
	}
}

func TestQuoteIdent_QuotesOnlyWhenNeeded(t *testing.T) {
	for in, want := range map[string]string{"a": "a", "order": `"order"`, "key": "key", "rows": `"rows"`, "a b": `"a b"`, `x"y`: `"x""y"`, "": `""`, "1a": `"1a"`} {
		if got := QuoteIdent(in); got != want {
			t.Errorf("QuoteIdent(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParse_DefaultValues_KeepSQLiteMeaning(t *testing.T) {
	ct := mustParse(t, `CREATE TABLE t (a DEFAULT "x", b DEFAULT y, c DEFAULT -5, d DEFAULT (z))`)[0].(*CreateTableStmt)
	for i, want := range []string{"'x'", "'y'", "-5", "z"} {
		if got := ct.Columns[i].Constraints[0].Expr.String(); got != want {
			t.Errorf("column %d default %s, want %s", i, got, want)
		}
	}
}

func TestParse_InternalPanic_BecomesError(t *testing.T) {
	var err error
	func() {
		defer recoverParse(&err)
		panic("boom")
	}()
	var se *SyntaxError
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "boom") {
		t.Fatalf("got %v", err)
	}
}

// TestParse_NestedForms_DoNotBlowUp parses every recursive form nested 60
// deep, closed and unclosed. A grammar in which two alternatives both
// read a nested form re-parses it at every level, 2^60 times; such a
// regression makes this test hang instead of finishing in milliseconds.
func TestParse_NestedForms_DoNotBlowUp(t *testing.T) {
	const k = 60
	forms := []struct{ open, leaf, close string }{
		{"(", "1", ")"}, {"(SELECT ", "1", ")"}, {"a IN (", "1", ")"}, {"f(", "1", ")"},
		{"CAST(", "1", " AS INT)"}, {"RAISE(ABORT, ", "1", ")"}, {"EXISTS (SELECT ", "1", ")"},
		{"CASE WHEN ", "1", " THEN 1 END"}, {"(1, ", "1", ")"}, {"count(*) OVER (PARTITION BY ", "1", ")"},
		{"- ", "1", ""}, {"NOT ", "1", ""}, {"((SELECT 1) + ", "1", ")"}, {"x BETWEEN (", "1", ") AND 2"},
		{"coalesce(", "1", ", 2)"}, {"(SELECT (", "1", "))"},
	}
	for _, f := range forms {
		closed := "SELECT " + strings.Repeat(f.open, k) + f.leaf + strings.Repeat(f.close, k)
		if _, err := Parse(closed); err != nil {
			t.Errorf("Parse(%.40q...): %v", closed, err)
		}
		if _, err := Parse("SELECT " + strings.Repeat(f.open, k) + f.leaf); err == nil && f.close != "" {
			t.Errorf("unclosed %q nest parsed", f.open)
		}
	}
	from := "SELECT * FROM " + strings.Repeat("(SELECT * FROM ", k) + "t" + strings.Repeat(")", k)
	if _, err := Parse(from); err != nil {
		t.Errorf("nested FROM subqueries: %v", err)
	}
	with := strings.Repeat("WITH a AS (", k) + "SELECT 1" + strings.Repeat(") SELECT 1", k)
	if _, err := Parse(with); err != nil {
		t.Errorf("nested CTEs: %v", err)
	}
}
