package grammar

import (
	"errors"
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"
)

// chain is n copies of term joined by op.
func chain(term, op string, n int) string {
	return strings.TrimSuffix(strings.Repeat(term+op, n), op)
}

func TestParse_ExprDepth_ChainsOfEveryOperatorStopAtSQLitesLimit(t *testing.T) {
	for _, op := range []string{"+", " AND ", " OR ", "||", "*", " = ", "->"} {
		if _, err := Parse("SELECT " + chain("1", op, MaxExprDepth)); err != nil {
			t.Errorf("%q chain of %d terms: %v", op, MaxExprDepth, err)
		}
		_, err := Parse("SELECT " + chain("1", op, MaxExprDepth+1))
		if !errors.Is(err, ErrExprTooDeep) || !strings.Contains(err.Error(), "Expression tree is too large (maximum depth 1000)") {
			t.Errorf("%q chain of %d terms: %v, want the expression depth error", op, MaxExprDepth+1, err)
		}
	}
}

func TestParse_ExprDepth_NestedFormsTheGuardCannotSeeAreMeasuredExactly(t *testing.T) {
	for name, mk := range map[string]func(n int) string{
		"case":   func(n int) string { return chain("CASE WHEN x THEN 1 END", "+", n-1) },
		"call":   func(n int) string { return chain("abs(x)", "+", n-1) },
		"cast":   func(n int) string { return chain("x::int", "+", n-1) },
		"unary":  func(n int) string { return chain("-x", "+", n-1) },
		"within": func(n int) string { return "(" + chain("x", "+", n) + ")" },
	} {
		if _, err := Parse("SELECT " + mk(MaxExprDepth)); err != nil {
			t.Errorf("%s at the limit: %v", name, err)
		}
		if _, err := Parse("SELECT " + mk(MaxExprDepth+1)); !errors.Is(err, ErrExprTooDeep) {
			t.Errorf("%s past the limit: %v, want ErrExprTooDeep", name, err)
		}
	}
}

func TestParse_ExprDepth_SetAssignmentOfTheDeepestChainIsAccepted(t *testing.T) {
	for _, sql := range []string{
		"UPDATE t SET a = " + chain("1", "+", MaxExprDepth),
		"PRAGMA cache_size = " + chain("1", "+", MaxExprDepth),
		"INSERT INTO t VALUES(1) ON CONFLICT(a) DO UPDATE SET a = " + chain("1", "+", MaxExprDepth),
	} {
		if _, err := Parse(sql); err != nil && !strings.Contains(err.Error(), "syntax error") {
			t.Errorf("%.40q…: %v", sql, err)
		}
	}
}

// TestParse_ExprDepth_MillionTermsFailFastInBoundedMemory is the crash of
// the issue: a million-term chain once overflowed the stack in a walker.
// The guard stops it at its thousandth term, so the parse allocates a
// small fraction of the text's token list.
func TestParse_ExprDepth_MillionTermsFailFastInBoundedMemory(t *testing.T) {
	for _, op := range []string{"+", " AND ", "||"} {
		sql := "SELECT " + chain("1", op, 1_000_000)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Parse(sql)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrExprTooDeep) {
			t.Fatalf("%q: %v", op, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
			t.Errorf("%q: the parse allocated %d MiB before failing", op, alloc>>20)
		}
		if _, err := ParseExpr(chain("1", op, 1_000_000)); !errors.Is(err, ErrExprTooDeep) {
			t.Errorf("ParseExpr %q: %v", op, err)
		}
	}
}

// refHeight is the height of a flat chain by a direct recursive
// precedence parse: operand heights hs, operator precedences ps.
func refHeight(hs []int, ps []int) int {
	i := 0
	var climb func(min, lh int) int
	climb = func(min, lh int) int {
		for i < len(ps) && ps[i] >= min {
			p := ps[i]
			i++
			rh := climb(p+1, hs[i])
			lh = 1 + max(lh, rh)
		}
		return lh
	}
	return climb(0, hs[0])
}

// TestParse_ExprDepth_RandomChainsMatchAReferenceHeight holds the guard
// to never refusing a chain SQLite accepts, and the builder to the exact
// limit, on random mixes of operators and operands.
func TestParse_ExprDepth_RandomChainsMatchAReferenceHeight(t *testing.T) {
	ops := []string{" OR ", " AND ", " = ", " < ", " & ", " + ", " * ", " || "}
	precs := []int{OpOr.Precedence(), OpAnd.Precedence(), OpEq.Precedence(), OpLt.Precedence(),
		OpBitAnd.Precedence(), OpAdd.Precedence(), OpMul.Precedence(), OpConcat.Precedence()}
	operands := []string{"1", "x", "t.x", "abs(1)", "(1+1)", "?", "CASE WHEN 1 THEN 2 END"}
	heights := []int{1, 1, 1, 2, 2, 1, 3}
	seed := rand.Int63()
	rng := rand.New(rand.NewSource(seed))
	for iter := 0; iter < 60; iter++ {
		n := 900 + rng.Intn(2000)
		nops := 1 + rng.Intn(len(ops))
		var b strings.Builder
		hs, ps := make([]int, 0, n), make([]int, 0, n)
		for k := 0; k < n; k++ {
			if k > 0 {
				o := rng.Intn(nops)
				if rng.Intn(4) > 0 {
					o = nops - 1 // long runs of one operator reach the limit
				}
				b.WriteString(ops[o])
				ps = append(ps, precs[o])
			}
			j := rng.Intn(len(operands))
			b.WriteString(operands[j])
			hs = append(hs, heights[j])
		}
		want := refHeight(hs, ps)
		_, err := Parse("SELECT " + b.String())
		switch {
		case want <= MaxExprDepth && err != nil:
			t.Fatalf("seed %d: height %d refused: %v", seed, want, err)
		case want > MaxExprDepth && !errors.Is(err, ErrExprTooDeep):
			t.Fatalf("seed %d: height %d accepted (%v)", seed, want, err)
		}
	}
}

func TestParse_Limits_VariableNumberAndLength(t *testing.T) {
	if _, err := Parse(fmt.Sprintf("SELECT ?%d", MaxVariableNumber)); err != nil {
		t.Errorf("?%d: %v", MaxVariableNumber, err)
	}
	_, err := Parse(fmt.Sprintf("SELECT ?%d", MaxVariableNumber+1))
	if err == nil || !strings.Contains(err.Error(), "variable number must be between ?1 and ?32766") {
		t.Errorf("?%d: %v", MaxVariableNumber+1, err)
	}
}

func TestParse_Limits_CompoundJoinAndArguments(t *testing.T) {
	for _, c := range []struct {
		ok, bad, msg string
	}{
		{chain("SELECT 1", " UNION ALL ", MaxCompoundSelect), chain("SELECT 1", " UNION ", MaxCompoundSelect+1), "too many terms in compound SELECT"},
		{"SELECT 1 FROM " + chain("t", ",", MaxJoinTables), "SELECT 1 FROM " + chain("t", " JOIN ", MaxJoinTables+1), "at most 64 tables in a join"},
		{"SELECT max(" + chain("1", ",", MaxFunctionArg) + ")", "SELECT max(" + chain("1", ",", MaxFunctionArg+1) + ")", "too many arguments on function max"},
	} {
		if _, err := Parse(c.ok); err != nil {
			t.Errorf("%.40q…: %v", c.ok, err)
		}
		if _, err := Parse(c.bad); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%.40q…: %v, want %q", c.bad, err, c.msg)
		}
	}
}

func TestParse_Limits_TableColumnsCountedBeforeParsing(t *testing.T) {
	cols := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "c%d DECIMAL(10, 2), ", i)
		}
		return b.String()
	}
	ok := "CREATE TABLE w(" + cols(MaxColumn) + "PRIMARY KEY (c1, c2), UNIQUE (c3), CHECK (c4 IN (1, 2, 3)))"
	if _, err := Parse(ok); err != nil {
		t.Fatalf("%d columns and constraints: %v", MaxColumn, err)
	}
	if _, err := Parse("CREATE TABLE w AS SELECT * FROM t WHERE a IN (" + chain("1", ",", 5000) + ")"); err != nil {
		t.Fatalf("CREATE TABLE AS: %v", err)
	}
	_, err := Parse("CREATE TEMP TABLE IF NOT EXISTS main.\"w\"(" + cols(1_000_000) + "x)")
	if err == nil || !strings.Contains(err.Error(), "too many columns on w") {
		t.Fatalf("a million columns: %v", err)
	}
}
