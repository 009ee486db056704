package engine

import (
	"context"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

// BenchmarkStmt_Query_IndexRange is the bench/ index_range shape: 5% of a
// 200k-row secondary index, counted and summed through the table.
func BenchmarkStmt_Query_IndexRange(b *testing.B) {
	_, s := benchDB(b, 200_000)
	ctx := context.Background()
	st, err := s.Prepare(ctx, "CREATE INDEX t_a ON t (a)")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.Exec(ctx, nil); err != nil {
		b.Fatal(err)
	}
	arg := make([]Arg, 2)
	benchQuery(b, s, "SELECT count(*), sum(b) FROM t WHERE a >= ? AND a < ?", func(i int) []Arg {
		lo := int64(i % 95)
		arg[0] = Arg{Ordinal: 1, Value: types.NewInt(lo)}
		arg[1] = Arg{Ordinal: 2, Value: types.NewInt(lo + 5)}
		return arg
	})
}
