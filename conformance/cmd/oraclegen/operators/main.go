// operators asks SQLite for the results of every operator and cast on a
// fixed set of operands (bound parameters, so no affinity) and writes the
// table engine/types replays without SQLite. Usage: operators > oracle_ops.tsv
// (or operators show OP LEFT: SQLite's answers behind one digest row).
//
// A binary operator's answers for one left operand (31 of them, one per
// right operand) are recorded as a digest: engine/types recomputes and
// hashes its own, and this package's test shows SQLite's answers one by one.
// Unary operators and casts are recorded in full.
package main

import (
	"crypto/sha256"
	"database/sql"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	. "github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
)

var operands = []Operand{
	Null, I(0), I(1), I(-1), I(7), I(-3), I(64), I(-65),
	I(math.MaxInt64), I(math.MinInt64), I(1<<53 + 1),
	R(0), R(2.5), R(-7.5), R(0.5), R(1e308), R(math.Inf(-1)), R(9223372036854775807), R(3.0),
	T("12abc"), T(" 12 "), T("1.5e3x"), T("abc"), T(""), T("9223372036854775808"), T("A"), T("a"), T("a "),
	B("12"), B(""), B("a\x00"),
}

// unaryOperands adds numeric-looking text and reals around the casts' edges.
var unaryOperands = append(operands[:len(operands):len(operands)], T(" -12.0e1 "), T("12.0"), T("1e400"), T("-0.0"),
	T("9223372036854775807.5"), R(1e20), R(-1e20), R(12.9), R(-12.9), T("+7"), T("  42  "), T("1."))

var binaryOps = []string{"+", "-", "*", "/", "%", "&", "|", "<<", ">>", "||", "=", "<", "<=", ">", ">=", "<>", "IS", "IS NOT", "AND", "OR",
	"= NOCASE", "< NOCASE", "= RTRIM", "< RTRIM"}

var unaryOps = []string{"-", "~", "NOT", "+", "INTEGER", "REAL", "NUMERIC", "TEXT", "BLOB", "truth"}

// binaryExpr is op over ?1 and ?2 in SQL ("= NOCASE" is ?1 = ?2 COLLATE NOCASE).
func binaryExpr(op string) string {
	sqlop, coll := op, ""
	if f := strings.Fields(op); len(f) == 2 && (f[1] == "NOCASE" || f[1] == "RTRIM") {
		sqlop, coll = f[0], " COLLATE "+f[1]
	}
	return fmt.Sprintf("(?1 %s ?2%s)", sqlop, coll)
}

// unaryExpr is op over ?1 in SQL.
func unaryExpr(op string) string {
	switch op {
	case "-", "~", "+":
		return op + "?1"
	case "NOT":
		return "NOT ?1"
	case "truth":
		return "CASE WHEN ?1 THEN 1 ELSE 0 END"
	}
	return "CAST(?1 AS " + op + ")"
}

// rights are the right operands op is asked about: all of them, but no
// text for the shifts.
func rights(op string) []Operand {
	if op != "<<" && op != ">>" {
		return operands
	}
	var out []Operand
	for _, o := range operands {
		if o.Code[0] != 't' {
			out = append(out, o)
		}
	}
	return out
}

// RowDigest is the first 16 hex digits of the sha256 of results, each
// followed by a newline: the recorded form of one binary operator's answers
// for one left operand. engine/types' replay computes the same.
func RowDigest(results []string) string {
	h := sha256.New()
	for _, r := range results {
		io.WriteString(h, r+"\n")
	}
	return fmt.Sprintf("%x", h.Sum(nil)[:8])
}

// asker answers typeof(x)||' '||quote(x) for one SQL expression x.
type asker func(expr string, args ...any) string

// write prints the table from ask's answers.
func write(w io.Writer, ask asker) {
	for _, line := range table(ask, func(int) bool { return true }) {
		fmt.Fprintln(w, line)
	}
}

// table is the file's lines. A data line (the operands line is number 0)
// that keep refuses is left empty, and ask is not called for it.
func table(ask asker, keep func(i int) bool) []string {
	lines := []string{
		"# Results of SQLite 3.54.1 (modernc.org/sqlite v1.62.0) for operators on bound parameters;",
		"# regenerate with sh conformance/cmd/oraclegen/regenerate.sh. Operands: n NULL, i:int, r:real,",
		"# t:text, b:hex blob; a result is typeof(x)||' '||quote(x).",
		"# Binary: op<TAB>left<TAB>digest, the first 16 hex digits of the sha256 of the results of",
		"# left op right for each right operand of the operands line in order (no text ones for << and >>),",
		"# each followed by a newline. SQLite's answers behind a row, one by one:",
		"# cd conformance && go run ./cmd/oraclegen/operators show OP LEFT",
		"# Unary: op<TAB>operand<TAB>-<TAB>result.",
	}
	codes := make([]string, len(operands))
	for i, o := range operands {
		codes[i] = o.Code
	}
	lines = append(lines, "operands\t"+strings.Join(codes, "\t"))
	i := 0
	add := func(line func() string) {
		if i++; keep(i) {
			lines = append(lines, line())
		} else {
			lines = append(lines, "")
		}
	}
	for _, op := range binaryOps {
		for _, a := range operands {
			add(func() string { return op + "\t" + a.Code + "\t" + RowDigest(binaryRow(ask, op, a)) })
		}
	}
	for _, op := range unaryOps {
		for _, a := range unaryOperands {
			add(func() string { return op + "\t" + a.Code + "\t-\t" + ask(unaryExpr(op), a.V) })
		}
	}
	return lines
}

// binaryRow is left op r for each of op's right operands r.
func binaryRow(ask asker, op string, left Operand) []string {
	rs := rights(op)
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = ask(binaryExpr(op), left.V, r.V)
	}
	return out
}

// sqlAsker asks db.
func sqlAsker(db *sql.DB) asker {
	return func(expr string, args ...any) string {
		var s string
		err := db.QueryRow("SELECT typeof(x)||' '||quote(x) FROM (SELECT "+expr+" AS x)", args...).Scan(&s)
		if err != nil {
			return "ERR " + err.Error()
		}
		return s
	}
}

func main() {
	db := Open()
	defer db.Close()
	if len(os.Args) == 4 && os.Args[1] == "show" {
		show(os.Stdout, sqlAsker(db), os.Args[2], os.Args[3])
		return
	}
	write(os.Stdout, sqlAsker(db))
}

// show prints, for a digest row's op and left operand code, each right
// operand and SQLite's answer.
func show(w io.Writer, ask asker, op, left string) {
	for _, a := range operands {
		if a.Code != left {
			continue
		}
		rs := rights(op)
		for i, res := range binaryRow(ask, op, a) {
			fmt.Fprintf(w, "%s %s %s\t%s\n", left, op, rs[i].Code, res)
		}
		return
	}
	fmt.Fprintf(w, "no operand %q\n", left)
}
