package engine

import (
	"context"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// BenchmarkStmt_Exec_UpdateCascade re-keys one parent row per op with
// foreign keys on; its one child follows through an ON UPDATE CASCADE
// action (a child index lookup and a child row update with its index
// entry), among 100 children.
func BenchmarkStmt_Exec_UpdateCascade(b *testing.B) { benchUpdateCascade(b, 100) }

// BenchmarkStmt_Exec_UpdateCascade10k is UpdateCascade among 10,000
// children: the action seeks the child's index on the key, so its cost
// does not grow with the child table.
func BenchmarkStmt_Exec_UpdateCascade10k(b *testing.B) { benchUpdateCascade(b, 10000) }

func benchUpdateCascade(b *testing.B, n int) {
	_, s := benchDB(b, 0)
	benchRun(b, s, "PRAGMA foreign_keys = ON")
	benchRun(b, s, "CREATE TABLE p(id INTEGER PRIMARY KEY, k INTEGER UNIQUE)")
	benchRun(b, s, "CREATE TABLE c(id INTEGER PRIMARY KEY, pk INTEGER REFERENCES p(k) ON UPDATE CASCADE)")
	benchRun(b, s, "CREATE INDEX c_pk ON c(pk)")
	benchRun(b, s, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i < ?) INSERT INTO p SELECT i, i FROM r", types.NewInt(int64(n)))
	benchRun(b, s, "INSERT INTO c SELECT id, k FROM p")
	arg := make([]Arg, 1)
	benchExec(b, s, "UPDATE p SET k = k + ? WHERE id = ?", func(i int) []Arg {
		arg = append(arg[:0], Arg{Ordinal: 1, Value: types.NewInt(int64(n))}, Arg{Ordinal: 2, Value: types.NewInt(int64(i%n + 1))})
		return arg
	})
}

// BenchmarkStmt_Exec_DeleteCascade10k deletes one parent row per op, whose
// one child (among 10,000, indexed on the key) goes through ON DELETE
// CASCADE, then inserts both back (the child's insert checks its parent):
// an op is the three statements, in one transaction.
func BenchmarkStmt_Exec_DeleteCascade10k(b *testing.B) {
	const n = 10000
	_, s := benchDB(b, 0)
	benchRun(b, s, "PRAGMA foreign_keys = ON")
	benchRun(b, s, "CREATE TABLE p(id INTEGER PRIMARY KEY)")
	benchRun(b, s, "CREATE TABLE c(id INTEGER PRIMARY KEY, pid INTEGER REFERENCES p ON DELETE CASCADE)")
	benchRun(b, s, "CREATE INDEX c_pid ON c(pid)")
	benchRun(b, s, "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i < ?) INSERT INTO p SELECT i FROM r", types.NewInt(n))
	benchRun(b, s, "INSERT INTO c SELECT id, id FROM p")
	ctx := context.Background()
	benchRun(b, s, "BEGIN")
	var sts [3]*Stmt
	for i, q := range []string{"DELETE FROM p WHERE id = ?", "INSERT INTO p VALUES (?)", "INSERT INTO c VALUES (?, ?)"} {
		st, err := s.Prepare(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		sts[i] = st
	}
	arg := make([]Arg, 2)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := types.NewInt(int64(i%n + 1))
		arg = append(arg[:0], Arg{Ordinal: 1, Value: v}, Arg{Ordinal: 2, Value: v})
		for k, st := range sts {
			a := arg[:1]
			if k == 2 {
				a = arg
			}
			if _, err := st.Exec(ctx, a); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	benchRun(b, s, "COMMIT")
}
