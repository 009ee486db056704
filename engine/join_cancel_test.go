package engine

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
)

// pollCtx is a context whose Err, once armed, counts its calls and
// returns Canceled from call after+1 on: a statement stops only when it
// polls its context that often, whatever the clock.
type pollCtx struct {
	context.Context
	armed atomic.Bool
	calls atomic.Int64
	after int64
}

func (c *pollCtx) Err() error {
	if c.armed.Load() && c.calls.Add(1) > c.after {
		return context.Canceled
	}
	return nil
}

// A hash join whose probe side streams batches that find no build row
// polls its context per such batch (as Check counts them): before, the
// NESTED LOOP below it (whose residual let rows through) and the hash join
// (whose batches all ended without a pair) never polled, so the statement
// ran to its end past its deadline (joingen seed 555 query 530 ran for
// minutes after a 60 s deadline).
func TestJoin_UnmatchedProbeBatches_StopAtContextEnd(t *testing.T) {
	s := openMem(t).NewSession()
	runSQL(t, s, "CREATE TABLE big(k INTEGER, v INTEGER)")
	runSQL(t, s, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO big SELECT i, i % 7 FROM n")
	// The key reads a and b, so the nested loop of a and b is the hash
	// join's probe side.
	q := "SELECT count(*) FROM big a, big b, big c WHERE a.k < b.k AND c.k = a.k + b.k + 100000"
	var plan []string
	eachRow(t, s, "EXPLAIN QUERY PLAN "+q, func(row []types.Value) { plan = append(plan, row[len(row)-1].String()) })
	require.Contains(t, plan[0], "HASH INNER JOIN", "%q", plan)
	require.Contains(t, strings.Join(plan, "\n"), "NESTED LOOP", "%q", plan)
	// The builds and scans poll a few times (each build batch); streaming
	// the nested loop's 2,000,000 rows must poll more than 20 times.
	ctx := &pollCtx{Context: context.Background(), after: 20}
	st, err := s.Prepare(ctx, q)
	require.NoError(t, err)
	rows, err := st.Query(ctx, nil)
	require.NoError(t, err)
	defer rows.Close()
	ctx.armed.Store(true)
	err = rows.Next(make([]types.Value, 1))
	require.Error(t, err, "the join ran to its end after its context ended")
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
}
