package conformance

import (
	"testing"

	"github.com/ladybugsql/ladybug/conformance/gen"
	"github.com/stretchr/testify/require"
)

// d1Query loses every unmatched row of the LEFT JOIN on the oracle (D1).
const d1Query = "SELECT count(*) FROM t1 AS a1 LEFT JOIN w3 AS a2 ON (a2.id LIKE 'a%')"

func TestDiffer_Explain_LikeOnRowidJoinIsD1(t *testing.T) {
	a, b := DefaultSides()
	d := &Differ{A: a, B: b}
	require.NoError(t, d.reset())
	defer d.close()
	s := gen.Stmt{SQL: d1Query}
	detail, err := d.compare(s)
	require.NoError(t, err)
	require.Contains(t, detail, "results differ")
	require.Equal(t, "D1", d.explainMismatch(s, detail))
}

func TestDiffer_Explain_OtherMismatchIsUnexplained(t *testing.T) {
	// Side B is SQLite with one more row in t1: its answers differ for a
	// reason D1 does not cover, even on a LIKE query.
	a, _ := DefaultSides()
	b := Side{Engine: EngineSQLite, Setup: append(gen.Schema(), "INSERT INTO t1(a, c) VALUES (100, 'abz')")}
	d := &Differ{A: a, B: b}
	require.NoError(t, d.reset())
	defer d.close()
	s := gen.Stmt{SQL: "SELECT a1.a FROM t1 AS a1 WHERE (a1.c LIKE 'a%')"}
	detail, err := d.compare(s)
	require.NoError(t, err)
	require.Contains(t, detail, "results differ")
	require.Empty(t, d.explainMismatch(s, detail))
}
