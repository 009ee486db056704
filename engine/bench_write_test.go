package engine

import (
	"context"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// benchExec runs one prepared write statement b.N times inside a single
// transaction, with args built per iteration.
func benchExec(b *testing.B, s *Session, sql string, args func(i int) []Arg) {
	ctx := context.Background()
	begin, _ := s.Prepare(ctx, "BEGIN")
	if _, err := begin.Exec(ctx, nil); err != nil {
		b.Fatal(err)
	}
	st, err := s.Prepare(ctx, sql)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.Exec(ctx, args(i)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	commit, _ := s.Prepare(ctx, "COMMIT")
	if _, err := commit.Exec(ctx, nil); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkStmt_Exec_InsertTx(b *testing.B) {
	_, s := benchDB(b, 0)
	arg := make([]Arg, 4)
	benchExec(b, s, "INSERT INTO t VALUES (?, ?, ?, ?)", func(i int) []Arg {
		arg[0] = Arg{Ordinal: 1, Value: types.NewInt(int64(i + 1))}
		arg[1] = Arg{Ordinal: 2, Value: types.NewInt(int64(i % 100))}
		arg[2] = Arg{Ordinal: 3, Value: types.NewReal(float64(i))}
		arg[3] = Arg{Ordinal: 4, Value: types.NewText("row")}
		return arg
	})
}

func BenchmarkStmt_Exec_UpdateByPK(b *testing.B) {
	_, s := benchDB(b, 100_000)
	arg := make([]Arg, 2)
	benchExec(b, s, "UPDATE t SET a = ? WHERE id = ?", func(i int) []Arg {
		arg[0] = Arg{Ordinal: 1, Value: types.NewInt(int64(i))}
		arg[1] = Arg{Ordinal: 2, Value: types.NewInt(int64(i%100_000 + 1))}
		return arg
	})
}

func BenchmarkStmt_Exec_DeleteByPK(b *testing.B) {
	_, s := benchDB(b, 1_000_000)
	arg := make([]Arg, 1)
	benchExec(b, s, "DELETE FROM t WHERE id = ?", func(i int) []Arg {
		arg[0] = Arg{Ordinal: 1, Value: types.NewInt(int64(i%1_000_000 + 1))}
		return arg
	})
}

func BenchmarkStmt_Exec_InsertAutocommit(b *testing.B) {
	_, s := benchDB(b, 0)
	benchInsertRows(b, s, "INSERT INTO t VALUES (?, ?, ?, ?)")
}

// benchInsertRows runs the one-row autocommit INSERT sql (four
// placeholders: id, int, real, text) b.N times with fresh ids.
func benchInsertRows(b *testing.B, s *Session, sql string) {
	ctx := context.Background()
	st, err := s.Prepare(ctx, sql)
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
		if _, err := st.Exec(ctx, arg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStmt_Exec_DeleteByPKIndexed is the bench/ delete_batch shape: each
// delete also removes a secondary index entry.
func BenchmarkStmt_Exec_DeleteByPKIndexed(b *testing.B) {
	_, s := benchDB(b, 1_000_000)
	st, err := s.Prepare(context.Background(), "CREATE INDEX t_c ON t (c)")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.Exec(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	arg := make([]Arg, 1)
	benchExec(b, s, "DELETE FROM t WHERE id = ?", func(i int) []Arg {
		arg[0] = Arg{Ordinal: 1, Value: types.NewInt(int64(i%1_000_000 + 1))}
		return arg
	})
}
