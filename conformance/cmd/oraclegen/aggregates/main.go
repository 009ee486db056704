// aggregates records SQLite aggregate and window results over value lists.
package main

import (
	"database/sql"
	"fmt"
	. "github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
	"math"
	"regexp"
	"strconv"
	"strings"

	_ "modernc.org/sqlite"
)

var errRe = regexp.MustCompile(`^(SQL logic error: |)(.*?)( \(\d+\))?$`)

func main() {
	db, _ := sql.Open("sqlite", ":memory:")
	db.SetMaxOpenConns(1)
	lists := [][]Operand{
		{}, {Null}, {I(1), I(2), I(3)}, {I(1), Null, R(2.5)}, {I(math.MaxInt64), I(1)}, {I(math.MaxInt64), I(1), R(0.5)}, {I(math.MaxInt64), I(1), I(-5)},
		{T("3"), T("4.5"), T("abc"), T(" 7 ")}, {R(0.1), R(0.2), R(0.3)}, {R(1e308), R(1e308)}, {R(1e308), R(-1e308), R(1)}, {T("b"), T("A"), T("a"), Null, I(5), B("z")},
		{I(math.MinInt64), I(-1)}, {R(math.Inf(1)), R(math.Inf(-1))}, {I(0), I(0), I(1)}, {T(""), T(""), Null}, {I(1 << 60), I(1 << 60), I(1 << 60), R(1)},
	}
	fmt.Println("# SQLite 3.54.1: agg<TAB>sep<TAB>value list (Go-quoted codes, comma separated)<TAB>result")
	for _, agg := range []string{"count(x)", "count(*)", "sum(x)", "total(x)", "avg(x)", "min(x)", "max(x)", "group_concat(x)", "group_concat(x, ';')", "group_concat(x, NULL)", "string_agg(x, '-')", "json_group_array(x)", "json_group_object(CAST(x AS TEXT), x)"} {
		for _, l := range lists {
			db.Exec("DROP TABLE IF EXISTS v")
			db.Exec("CREATE TABLE v(n INTEGER PRIMARY KEY, x)")
			codes := []string{}
			for k, o := range l {
				db.Exec("INSERT INTO v VALUES(?, ?)", k, o.V)
				codes = append(codes, strconv.Quote(o.Code))
			}
			var s string
			err := db.QueryRow("SELECT typeof(a)||' '||quote(a) FROM (SELECT " + agg + " AS a FROM (SELECT x FROM v ORDER BY n))").Scan(&s)
			if err != nil {
				s = "ERR " + errRe.FindStringSubmatch(err.Error())[2]
			}
			fmt.Printf("%s\t%s\t%s\n", agg, strings.Join(codes, ","), s)
		}
	}
}
