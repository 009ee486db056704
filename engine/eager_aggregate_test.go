package engine

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/stretchr/testify/require"
)

// eagerShapes are GROUP BY-over-join queries the eager-aggregate rule
// rewrites; %s is the join column of o, written once as the bare column
// (the rule applies) and once as +o.cid (an expression: the rule cannot).
var eagerShapes = []string{
	`SELECT c.id, c.name, count(*), count(o.amount), sum(o.amount), total(o.amount),
		avg(o.amount), min(o.amount), max(o.amount)
	 FROM o JOIN c ON c.id = %s GROUP BY c.id, c.name ORDER BY c.id`,
	`SELECT o.cid, count(*), sum(o.amount) FROM o JOIN c ON c.id = %s
	 GROUP BY o.cid ORDER BY o.cid`,
	`SELECT c.id, sum(o.amount) AS s, max(o.amount) FROM o JOIN c ON c.id = %s
	 WHERE c.region = 2 GROUP BY c.id ORDER BY s DESC, c.id LIMIT 7`,
}

// TestEagerAggregate_RandomData_SameAnswerAsWithoutRule runs each shape
// over random tables (NULL, unmatched, text and real join keys; integer,
// real, NULL and overflowing amounts) with the rule applying and with it
// kept off by a +column join key, and requires the same rows or the same
// error. It fails if the rule changes an answer, or stops applying.
func TestEagerAggregate_RandomData_SameAnswerAsWithoutRule(t *testing.T) {
	rounds := 30
	if testing.Short() {
		rounds = 5
	}
	var failed, answered int
	for round := range rounds {
		s := openMem(t).NewSession()
		r := rand.New(rand.NewPCG(uint64(round), 11))
		fillEagerTables(t, s, r)
		for _, shape := range eagerShapes {
			with := fmt.Sprintf(shape, "o.cid")
			plan, err := queryText(s, "EXPLAIN QUERY PLAN "+with)
			require.NoError(t, err)
			require.Contains(t, plan, "BEFORE JOIN", "the rule no longer applies to %s", with)
			without := fmt.Sprintf(shape, "+o.cid")
			plan, err = queryText(s, "EXPLAIN QUERY PLAN "+without)
			require.NoError(t, err)
			require.NotContains(t, plan, "BEFORE JOIN", "the rule applies to %s", without)
			got, gotErr := queryText(s, with)
			want, wantErr := queryText(s, without)
			if wantErr != nil {
				failed++
			} else {
				answered++
			}
			require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr), "round %d: %s", round, with)
			require.Equal(t, want, got, "round %d: %s", round, with)
		}
	}
	// The data must reach both outcomes, or half the rule goes untested.
	require.Positive(t, failed, "no query raised integer overflow")
	require.Positive(t, answered, "every query failed")
}

// fillEagerTables creates c (customers) and o (orders) with random rows.
func fillEagerTables(t *testing.T, s *Session, r *rand.Rand) {
	mustExec(t, s, "CREATE TABLE c (id INTEGER PRIMARY KEY, name TEXT, region INTEGER)")
	mustExec(t, s, "CREATE TABLE o (id INTEGER PRIMARY KEY, cid INTEGER, amount)")
	for i := 1; i <= 40; i++ {
		mustExec(t, s, "INSERT INTO c VALUES (?, ?, ?)", types.NewInt(int64(i)),
			types.NewText(fmt.Sprintf("n%d", i%9)), types.NewInt(int64(i%3)))
	}
	mustExec(t, s, "BEGIN")
	for range 400 + r.IntN(800) {
		var cid types.Value
		switch k := r.IntN(20); {
		case k == 0:
			cid = types.Null
		case k == 1:
			cid = types.NewText(fmt.Sprint(1 + r.IntN(40))) // converted by INTEGER affinity
		case k == 2:
			cid = types.NewText("x")
		case k == 3:
			cid = types.NewReal(float64(r.IntN(40)) + 0.5)
		default:
			cid = types.NewInt(int64(1 + r.IntN(50))) // 41..50 match no customer
		}
		var amount types.Value
		switch k := r.IntN(30); {
		case k == 0:
			amount = types.Null
		case k == 1:
			amount = types.NewInt(1<<62 + int64(r.IntN(1000))) // overflows a group's sum
		case k < 5:
			amount = types.NewReal(float64(r.IntN(1000)) / 8)
		default:
			amount = types.NewInt(int64(r.IntN(2000) - 500))
		}
		mustExec(t, s, "INSERT INTO o (cid, amount) VALUES (?, ?)", cid, amount)
	}
	mustExec(t, s, "COMMIT")
}

// queryText runs sql and returns its rows, one line each, or its error.
func queryText(s *Session, sql string) (string, error) {
	ctx := context.Background()
	st, err := s.Prepare(ctx, sql)
	if err != nil {
		return "", err
	}
	defer st.Close()
	rows, err := st.Query(ctx, nil)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	dest := make([]types.Value, len(rows.Columns()))
	var b strings.Builder
	for {
		err := rows.Next(dest)
		if err == io.EOF {
			return b.String(), nil
		}
		if err != nil {
			return "", err
		}
		for _, v := range dest {
			fmt.Fprintf(&b, "%s|", v)
		}
		b.WriteByte('\n')
	}
}
