package engine

import (
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// BenchmarkStmt_Exec_UpdateCascade re-keys one parent row per op with
// foreign keys on; its one child follows through an ON UPDATE CASCADE
// action (a child index lookup and a child row update with its index
// entry). The child table is small: the action finds its children by
// scanning it.
func BenchmarkStmt_Exec_UpdateCascade(b *testing.B) {
	_, s := benchDB(b, 0)
	const n = 100
	benchRun(b, s, "PRAGMA foreign_keys = ON")
	benchRun(b, s, "CREATE TABLE p(id INTEGER PRIMARY KEY, k INTEGER UNIQUE)")
	benchRun(b, s, "CREATE TABLE c(id INTEGER PRIMARY KEY, pk INTEGER REFERENCES p(k) ON UPDATE CASCADE)")
	benchRun(b, s, "CREATE INDEX c_pk ON c(pk)")
	benchRun(b, s, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i < ?) INSERT INTO p SELECT i, i FROM r", types.NewInt(n))
	benchRun(b, s, "INSERT INTO c SELECT id, k FROM p")
	arg := make([]Arg, 1)
	benchExec(b, s, "UPDATE p SET k = k + ? WHERE id = ?", func(i int) []Arg {
		arg = append(arg[:0], Arg{Ordinal: 1, Value: types.NewInt(n)}, Arg{Ordinal: 2, Value: types.NewInt(int64(i%n + 1))})
		return arg
	})
}
