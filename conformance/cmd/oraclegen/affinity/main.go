// affinity records SQLite's column-affinity behaviour: storing, and comparing
// columns of declared types with each other and with bound parameters.
package main

import (
	"database/sql"
	"fmt"
	. "github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"

	_ "modernc.org/sqlite"
)

func main() {
	db, _ := sql.Open("sqlite", ":memory:")
	db.SetMaxOpenConns(1)
	decls := []string{"INTEGER", "TEXT", "BLOB", "REAL", "NUMERIC", "", "VARCHAR(10)", "BOOLEAN", "DATETIME", "FLOATING POINT", "DOUBLE PRECISION", "CLOB", "STRING"}
	vals := []Operand{Null, I(12), I(-3), R(12.0), R(12.5), R(1e20), R(-0.0), T("12"), T(" 12.0 "), T("1e3"), T("12abc"), T("abc"), T(""), T("0x10"), T("9223372036854775808"), T("-9223372036854775808"), T(" 7 "), T("1."), B("12"), I(9223372036854775807), R(9007199254740993)}
	fmt.Println("# SQLite 3.54.1: store\\tdecl\\tvalue\\ttypeof||quote after INSERT; cmp\\tdeclA\\tdeclB\\ta\\tb\\tresult of (a<b)||(a=b) (declB '?' = bound parameter)")
	for _, d := range decls {
		db.Exec("DROP TABLE IF EXISTS s")
		if _, err := db.Exec("CREATE TABLE s(x " + d + ")"); err != nil {
			panic(err)
		}
		for _, v := range vals {
			db.Exec("DELETE FROM s")
			db.Exec("INSERT INTO s VALUES(?)", v.V)
			var s string
			db.QueryRow("SELECT typeof(x)||' '||quote(x) FROM s").Scan(&s)
			fmt.Printf("store\t%s\t%s\t%s\n", d, v.Code, s)
		}
	}
	cd := []string{"INTEGER", "TEXT", "BLOB", "REAL", "NUMERIC", ""}
	cv := []Operand{Null, I(12), R(12.0), R(12.5), T("12"), T("12.0"), T("abc"), T(" 12"), B("12")}
	for _, da := range cd {
		for _, dbb := range append(cd, "?") {
			for _, a := range cv {
				for _, c := range cv {
					var q string
					var args []any
					if dbb == "?" {
						db.Exec("DROP TABLE IF EXISTS c")
						db.Exec("CREATE TABLE c(a " + da + ")")
						db.Exec("INSERT INTO c VALUES(?)", a.V)
						q = "SELECT quote(a < ?1)||' '||quote(a = ?1)||' '||quote(?1 > a) FROM c"
						args = []any{c.V}
					} else {
						db.Exec("DROP TABLE IF EXISTS c")
						db.Exec("CREATE TABLE c(a " + da + ", b " + dbb + ")")
						db.Exec("INSERT INTO c VALUES(?, ?)", a.V, c.V)
						q = "SELECT quote(a < b)||' '||quote(a = b)||' '||quote(b > a) FROM c"
					}
					var s string
					if err := db.QueryRow(q, args...).Scan(&s); err != nil {
						panic(err)
					}
					fmt.Printf("cmp\t%s\t%s\t%s\t%s\t%s\n", da, dbb, a.Code, c.Code, s)
				}
			}
		}
	}
}
