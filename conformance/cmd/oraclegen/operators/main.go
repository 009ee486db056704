// operators asks SQLite for the results of operators on a fixed set of operands
// and prints them as a Go table for engine/types tests.
package main

import (
	"database/sql"
	"fmt"
	. "github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
	"math"
	"os"
	"strings"

	_ "modernc.org/sqlite"
)

var operands = []Operand{
	Null, I(0), I(1), I(-1), I(7), I(-3), I(64), I(-65),
	I(math.MaxInt64), I(math.MinInt64), I(1<<53 + 1),
	R(0), R(2.5), R(-7.5), R(0.5), R(1e308), R(math.Inf(-1)), R(9223372036854775807), R(3.0),
	T("12abc"), T(" 12 "), T("1.5e3x"), T("abc"), T(""), T("9223372036854775808"), T("A"), T("a"), T("a "),
	B("12"), B(""), B("a\x00"),
}

func main() {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(1)
	w := os.Stdout
	fmt.Fprintln(w, "# Results of SQLite 3.54.1 (modernc.org/sqlite v1.62.0) for operators on bound parameters.")
	fmt.Fprintln(w, "# op<TAB>left<TAB>right<TAB>typeof(x)||' '||quote(x). Operands: n NULL, i:int, r:real, t:text, b:hex blob.")
	ops := []string{"+", "-", "*", "/", "%", "&", "|", "<<", ">>", "||", "=", "<", "<=", ">", ">=", "<>", "IS", "IS NOT", "AND", "OR",
		"= NOCASE", "< NOCASE", "= RTRIM", "< RTRIM"}
	for _, op := range ops {
		sqlop, coll := op, ""
		if strings.HasSuffix(op, "NOCASE") || strings.HasSuffix(op, "RTRIM") {
			f := strings.Fields(op)
			sqlop, coll = f[0], " COLLATE "+f[1]
		}
		for _, a := range operands {
			for _, c := range operands {
				if (op == "<<" || op == ">>") && c.Code[0] == 't' {
					continue
				}
				expr := fmt.Sprintf("(?1 %s ?2%s)", sqlop, coll)
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", op, a.Code, c.Code, ask(db, expr, a.V, c.V))
			}
		}
	}
	un := map[string]string{"-": "-?1", "~": "~?1", "NOT": "NOT ?1", "+": "+?1",
		"INTEGER": "CAST(?1 AS INTEGER)", "REAL": "CAST(?1 AS REAL)", "NUMERIC": "CAST(?1 AS NUMERIC)", "TEXT": "CAST(?1 AS TEXT)", "BLOB": "CAST(?1 AS BLOB)",
		"truth": "CASE WHEN ?1 THEN 1 ELSE 0 END"}
	for _, op := range []string{"-", "~", "NOT", "+", "INTEGER", "REAL", "NUMERIC", "TEXT", "BLOB", "truth"} {
		for _, a := range append(operands, T(" -12.0e1 "), T("12.0"), T("1e400"), T("-0.0"), T("9223372036854775807.5"), R(1e20), R(-1e20), R(12.9), R(-12.9), T("+7"), T("  42  "), T("1.")) {
			fmt.Fprintf(w, "%s\t%s\t-\t%s\n", op, a.Code, ask(db, un[op], a.V))
		}
	}
}

func ask(db *sql.DB, expr string, args ...any) string {
	var s string
	err := db.QueryRow("SELECT typeof(x)||' '||quote(x) FROM (SELECT "+expr+" AS x)", args...).Scan(&s)
	if err != nil {
		return "ERR " + err.Error()
	}
	return s
}
