package gen

import (
	"fmt"
	"strings"
)

// ref is a column visible in a scope, already qualified.
type ref struct {
	sql    string
	noLike bool
}

// scope is what an expression may refer to.
type scope struct {
	refs []ref
	// outer holds the refs of enclosing queries, for correlated subqueries.
	outer []ref
}

var (
	intLits  = []string{"0", "1", "2", "3", "7", "10", "20", "-1", "-5", "30", "100"}
	realLits = []string{"1.5", "-0.25", "2.5", "0.5", "100.25"}
	textLits = []string{"'abc'", "'ABC'", "'x'", "'10'", "'9'", "''", "'a%'", "' x '", "'zz'", "'2.5'"}
	likePats = []string{"'a%'", "'%c'", "'_b%'", "'A%'", "'%'", "'%x%'", "'1%'", "'a\\%c' ESCAPE '\\'"}
	globPats = []string{"'a*'", "'*c'", "'[a-c]*'", "'?b?'", "'*'"}
	cmpOps   = []string{"=", "<>", "<", "<=", ">", ">=", "IS", "IS NOT", "==", "!=", "IS DISTINCT FROM", "IS NOT DISTINCT FROM"}
	arithOps = []string{"+", "-", "*", "/", "%", "||", "&", "|", "<<", ">>"}
	castTo   = []string{"INTEGER", "REAL", "TEXT", "NUMERIC", "BLOB"}
)

func (g *Gen) literal() string {
	switch g.r.IntN(10) {
	case 0, 1:
		return g.lit("NULL")
	case 2, 3, 4:
		return g.lit(pick(g, intLits))
	case 5, 6:
		return g.lit(pick(g, realLits))
	default:
		return g.lit(pick(g, textLits))
	}
}

// litPick is a literal of xs, maybe bound as a parameter.
func (g *Gen) litPick(xs []string) string { return g.lit(pick(g, xs)) }

// expr returns a scalar expression of at most depth levels.
func (g *Gen) expr(s *scope, depth int) string {
	if depth <= 0 || g.r.IntN(10) < 3 {
		return g.leaf(s)
	}
	d := depth - 1
	switch g.r.IntN(14) {
	case 0, 1:
		return fmt.Sprintf("(%s %s %s)", g.expr(s, d), pick(g, arithOps), g.expr(s, d))
	case 2:
		return fmt.Sprintf("(-%s)", g.expr(s, d))
	case 3, 4:
		return g.pred(s, d)
	case 5:
		return g.caseExpr(s, d)
	case 6:
		return fmt.Sprintf("CAST(%s AS %s)", g.expr(s, d), pick(g, castTo))
	case 7, 8, 9:
		return g.function(s, d)
	case 10:
		if len(s.refs) > 0 && g.r.IntN(2) == 0 {
			return g.scalarSubquery(s, d)
		}
		return g.function(s, d)
	default:
		return g.leaf(s)
	}
}

func (g *Gen) leaf(s *scope) string {
	if len(s.refs) > 0 && g.r.IntN(10) < 7 {
		return s.refs[g.r.IntN(len(s.refs))].sql
	}
	return g.literal()
}

// textOperand is an operand for LIKE/GLOB that is never a BLOB.
func (g *Gen) textOperand(s *scope, depth int) string {
	var ok []ref
	for _, r := range s.refs {
		if !r.noLike {
			ok = append(ok, r)
		}
	}
	if len(ok) > 0 && g.r.IntN(3) > 0 {
		return ok[g.r.IntN(len(ok))].sql
	}
	return fmt.Sprintf("CAST(%s AS TEXT)", g.expr(s, depth))
}

// pred returns a boolean-ish expression.
func (g *Gen) pred(s *scope, depth int) string {
	d := max(depth-1, 0)
	switch g.r.IntN(14) {
	case 0, 1:
		return fmt.Sprintf("(%s %s %s)", g.expr(s, d), pick(g, cmpOps), g.expr(s, d))
	case 2:
		if g.values {
			return fmt.Sprintf("(%s %s %s)", g.expr(s, d), pick(g, cmpOps[:6]), g.expr(s, d))
		}
		return fmt.Sprintf("(%s COLLATE %s %s %s)", g.expr(s, d), pick(g, []string{"NOCASE", "BINARY", "RTRIM"}), pick(g, cmpOps[:6]), g.expr(s, d))
	case 3:
		return fmt.Sprintf("(%s %s %s)", g.pred(s, d), pick(g, []string{"AND", "OR"}), g.pred(s, d))
	case 4:
		return fmt.Sprintf("(NOT %s)", g.pred(s, d))
	case 5:
		return fmt.Sprintf("(%s IS %sNULL)", g.expr(s, d), pick(g, []string{"", "NOT "}))
	case 6:
		return fmt.Sprintf("(%s %sLIKE %s)", g.textOperand(s, d), pick(g, []string{"", "NOT "}), g.likePattern())
	case 7:
		return fmt.Sprintf("(%s GLOB %s)", g.textOperand(s, d), g.litPick(globPats))
	case 8:
		return fmt.Sprintf("(%s %sBETWEEN %s AND %s)", g.expr(s, d), pick(g, []string{"", "NOT "}), g.literal(), g.literal())
	case 9:
		return fmt.Sprintf("(%s %sIN (%s))", g.expr(s, d), pick(g, []string{"", "NOT "}), g.literalList())
	case 10:
		return fmt.Sprintf("(%s %sIN (%s))", g.expr(s, d), pick(g, []string{"", "NOT "}), g.columnSubquery(s, d))
	case 11:
		return fmt.Sprintf("(%sEXISTS (%s))", pick(g, []string{"", "NOT "}), g.existsSubquery(s, d))
	case 12:
		if len(s.refs) > 0 {
			// Scalar subqueries in comparisons: their column's affinity
			// applies.
			sub := g.scalarSubquery(s, d)
			if g.r.IntN(3) == 0 {
				sub = g.compoundScalar(s, d)
			}
			if g.r.IntN(2) == 0 {
				return fmt.Sprintf("(%s %s %s)", g.leaf(s), pick(g, cmpOps[:6]), sub)
			}
			return fmt.Sprintf("(%s %s %s)", sub, pick(g, cmpOps[:6]), g.leaf(s))
		}
		fallthrough
	default:
		return fmt.Sprintf("(%s %s %s)", g.leaf(s), pick(g, cmpOps[:6]), g.literal())
	}
}

// likePattern is a LIKE pattern; one with an ESCAPE clause stays literal.
func (g *Gen) likePattern() string {
	p := pick(g, likePats)
	if strings.Contains(p, "ESCAPE") {
		return p
	}
	return g.lit(p)
}

func (g *Gen) literalList() string {
	n := 1 + g.r.IntN(4)
	items := make([]string, n)
	for i := range items {
		items[i] = g.literal()
	}
	return strings.Join(items, ", ")
}

func (g *Gen) caseExpr(s *scope, depth int) string {
	var b strings.Builder
	b.WriteString("CASE")
	simple := g.r.IntN(3) == 0
	if simple {
		b.WriteString(" " + g.expr(s, depth))
	}
	for i := 0; i <= g.r.IntN(3); i++ {
		cond := g.pred(s, depth)
		if simple {
			cond = g.literal()
		}
		fmt.Fprintf(&b, " WHEN %s THEN %s", cond, g.expr(s, depth))
	}
	if g.r.IntN(3) > 0 {
		b.WriteString(" ELSE " + g.expr(s, depth))
	}
	b.WriteString(" END")
	return b.String()
}

// function calls a deterministic scalar function.
func (g *Gen) function(s *scope, d int) string {
	e := func() string { return g.expr(s, d) }
	switch g.r.IntN(28) {
	case 0:
		return fmt.Sprintf("abs(%s)", e())
	case 1:
		return fmt.Sprintf("coalesce(%s, %s, %s)", e(), e(), e())
	case 2:
		return fmt.Sprintf("ifnull(%s, %s)", e(), e())
	case 3:
		return fmt.Sprintf("nullif(%s, %s)", e(), e())
	case 4:
		return fmt.Sprintf("iif(%s, %s, %s)", g.pred(s, d), e(), e())
	case 5:
		return fmt.Sprintf("length(%s)", e())
	case 6:
		return fmt.Sprintf("%s(%s)", pick(g, []string{"lower", "upper"}), e())
	case 7:
		return fmt.Sprintf("substr(%s, %s, %s)", e(), g.litPick([]string{"0", "1", "2", "-2", "3"}), g.litPick([]string{"1", "2", "-1", "5"}))
	case 8:
		return fmt.Sprintf("%s(%s)", pick(g, []string{"trim", "ltrim", "rtrim"}), e())
	case 9:
		return fmt.Sprintf("replace(%s, %s, %s)", e(), g.litPick([]string{"'a'", "'b'", "'1'", "''"}), g.litPick([]string{"'z'", "''", "'AA'"}))
	case 10:
		return fmt.Sprintf("instr(%s, %s)", e(), g.litPick([]string{"'a'", "'c'", "'0'", "'x'"}))
	case 11:
		return fmt.Sprintf("round(%s, %s)", e(), g.litPick([]string{"0", "1", "2"}))
	case 12:
		return fmt.Sprintf("typeof(%s)", e())
	case 13:
		return fmt.Sprintf("%s(%s, %s)", pick(g, []string{"max", "min"}), e(), e())
	case 14:
		return fmt.Sprintf("hex(%s)", e())
	case 15:
		return fmt.Sprintf("quote(%s)", e())
	case 16:
		return fmt.Sprintf("sign(%s)", e())
	case 17:
		return fmt.Sprintf("printf('%s', %s)", pick(g, []string{"%d", "%s", "%5.2f", "%x", "%-4s|", "%q"}), e())
	case 18:
		return fmt.Sprintf("unicode(%s)", e())
	case 19:
		return fmt.Sprintf("char(%s, %s)", pick(g, []string{"65", "97", "0x263a"}), pick(g, []string{"66", "98"}))
	case 20:
		return fmt.Sprintf("%s(%s)", pick(g, []string{"ceil", "floor"}), e())
	case 21:
		return fmt.Sprintf("mod(%s, %s)", e(), g.litPick([]string{"3", "2.5", "0", "-4"}))
	case 22:
		return fmt.Sprintf("(%s -> %s)", pick(g, []string{`'{"a":1,"b":[1,2]}'`, `'[10,"x",null]'`}), g.litPick([]string{"'$.a'", "'$.b'", "'$[1]'", "'$.zz'", "0"}))
	case 24:
		return g.dateFunction(s, d)
	case 25:
		if g.r.IntN(3) == 0 {
			return fmt.Sprintf("json_type(%s, %s)", pick(g, jsonDocs), pick(g, []string{"'$'", "'$.a'", "'$.b'", "'$[1]'", "'$.zz'"}))
		}
		return fmt.Sprintf("%s(%s)", pick(g, []string{"json_quote", "json_valid", "json_array"}), g.jsonValue(s, d))
	case 26:
		return fmt.Sprintf("json_object('k', %s, 'j', %s)", g.jsonValue(s, d), g.jsonValue(s, d))
	case 27:
		return fmt.Sprintf("%s(%s, %s)", pick(g, []string{"concat", "concat_ws", "ltrim", "rtrim", "octet_length", "substr"}), e(), g.litPick([]string{"'a'", "2", "'|'", "NULL"}))
	default:
		return fmt.Sprintf("(%s ->> %s)", pick(g, []string{`'{"a":1,"b":[1,2]}'`, `'[10,"x",null]'`}), g.litPick([]string{"'$.a'", "'$.b[1]'", "'$[0]'", "1"}))
	}
}

// jsonDocs are well-formed JSON texts for the JSON functions that parse.
var jsonDocs = []string{`'{"a":1,"b":[1,2]}'`, `'[10,"x",null]'`, `'"s"'`, `'2.5'`}

// jsonValue is an argument the JSON functions accept whatever it holds:
// never a BLOB ("JSON cannot hold BLOB values"). Such errors must not
// arise at all, since SQLite skips the columns of a subquery no one reads
// and so whether they arise depends on the plan.
func (g *Gen) jsonValue(s *scope, d int) string {
	switch g.r.IntN(3) {
	case 0:
		return fmt.Sprintf("CAST(%s AS TEXT)", g.expr(s, d))
	case 1:
		return fmt.Sprintf("(%s + 0)", g.expr(s, d))
	}
	return g.literal()
}

var (
	dateFuncs = []string{"date", "time", "datetime", "julianday", "unixepoch", "strftime"}
	strfFmts  = []string{"'%Y-%m-%d %H:%M'", "'%j %w %W'", "'%s'", "'%f %S'", "'%J'"}
	dateLits  = []string{"'2024-01-31'", "'2024-02-29 13:45:07'", "'2000-01-01T00:00:00.5'", "'12:30'", "2460000.5", "1700000000", "'now'"}
	dateMods  = []string{"'+1 day'", "'-2 months'", "'start of month'", "'+1 year'", "'weekday 0'", "'unixepoch'", "'+30 minutes'", "'start of year'"}
)

// dateFunction is a date and time function of a literal date or an
// expression, with an optional modifier. 'now' stays out: it differs
// between two runs.
func (g *Gen) dateFunction(s *scope, d int) string {
	arg := pick(g, dateLits[:len(dateLits)-1])
	if g.r.IntN(3) == 0 {
		arg = g.expr(s, d)
	}
	if g.r.IntN(2) == 0 {
		arg += ", " + pick(g, dateMods)
	}
	f := pick(g, dateFuncs)
	if f == "strftime" {
		arg = pick(g, strfFmts) + ", " + arg
	}
	return fmt.Sprintf("%s(%s)", f, arg)
}

func pick[T any](g *Gen, xs []T) T { return xs[g.r.IntN(len(xs))] }
