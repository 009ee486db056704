package engine

import (
	"context"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// BenchmarkStmt_Query_TempPointLookup is BenchmarkStmt_Query_PointLookup
// on a TEMP copy of the table: the cost of the session's temp store and
// composed catalog against main's.
func BenchmarkStmt_Query_TempPointLookup(b *testing.B) {
	_, s := benchDB(b, 100_000)
	benchRun(b, s, "CREATE TEMP TABLE tt(id INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT)")
	benchInsertRows(b, s, "INSERT INTO tt VALUES (?, ?, ?, ?)")
}

// BenchmarkStmt_Exec_TempInsertAutocommit is
// BenchmarkStmt_Exec_InsertAutocommit into a TEMP table: its commits sync
// nothing and take no writer lock, but each statement also begins and
// commits the main side.
func BenchmarkStmt_Exec_TempInsertAutocommit(b *testing.B) {
	_, s := benchDB(b, 0)
	benchRun(b, s, "CREATE TEMP TABLE tt(id INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT)")
	st, err := s.Prepare(context.Background(), "INSERT INTO tt VALUES (?, ?, ?, ?)")
	if err != nil {
		b.Fatal(err)
	}
	arg := make([]Arg, 4)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		arg[0] = Arg{Ordinal: 1, Value: types.NewInt(int64(i + 1))}
		arg[1] = Arg{Ordinal: 2, Value: types.NewInt(int64(i % 100))}
		arg[2] = Arg{Ordinal: 3, Value: types.NewReal(float64(i))}
		arg[3] = Arg{Ordinal: 4, Value: types.NewText("row")}
		if _, err := st.Exec(context.Background(), arg); err != nil {
			b.Fatal(err)
		}
	}
}
