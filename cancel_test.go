package ladybug_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestCancel_EveryLongLoopHonoursTheDeadline runs statements that would
// take minutes under a 50 ms deadline: each must fail with the context's
// error soon after it. The bound is loose (2 s) so the test stays
// deterministic on a loaded machine under -race; what it checks is that
// the loop polls the context at all.
func TestCancel_EveryLongLoopHonoursTheDeadline(t *testing.T) {
	db, err := sql.Open("ladybug", ":memory:")
	require.NoError(t, err)
	defer db.Close()
	db.SetMaxOpenConns(1)
	_, err = db.Exec(`CREATE TABLE two(x); INSERT INTO two VALUES (1), (2);
		CREATE TABLE big(x, y); INSERT INTO big SELECT value, value % 7 FROM generate_series(1, 20000);
		CREATE TABLE sink(x)`)
	require.NoError(t, err)
	cross := "SELECT 1 FROM " + strings.TrimSuffix(strings.Repeat("two, ", 31), ", ")
	// tens of microseconds a row (a millisecond under -race): 64 rows
	// between polls stay far below the bound even on a loaded machine.
	slow := "length(printf('%.*c', 30000 + big.x % 2, 'a'))"
	for _, c := range []struct {
		name, sql string
		exec      bool
	}{
		{"like", "SELECT printf('%.*c', 3000000, 'a') LIKE '%' || printf('%.*c', 40000, 'a') || 'b'", false},
		{"glob function", "SELECT glob('*' || printf('%.*c', 40000, 'a') || 'b', printf('%.*c', 3000000, 'a'))", false},
		{"cross join", cross, false},
		{"cross join through Exec", cross, true},
		{"recursive cte", "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r", false},
		{"recursive cte union", "WITH RECURSIVE r(x) AS (SELECT 1 UNION SELECT x + 1 FROM r) SELECT count(*) FROM r", false},
		{"generate_series", "SELECT count(*) FROM generate_series(1, 100000000000000)", false},
		{"group by", "SELECT value % 1000, count(*) FROM generate_series(1, 100000000000000) GROUP BY 1", false},
		{"distinct", "SELECT count(*) FROM (SELECT DISTINCT value % 1000 FROM generate_series(1, 100000000000000))", false},
		{"order by", "SELECT value FROM generate_series(1, 100000000000000) ORDER BY value % 1000 LIMIT 1", false},
		{"window", "SELECT max(s) FROM (SELECT sum(value) OVER (ORDER BY value % 10) s FROM generate_series(1, 100000000000000))", false},
		{"hash join", "SELECT count(*) FROM generate_series(1, 100000000000000) a JOIN big b ON a.value = b.x", false},
		{"insert select", "INSERT INTO sink SELECT value FROM generate_series(1, 100000000000000)", true},
		{"scalar work per row", "SELECT sum(" + slow + ") FROM big, big b", false},
		{"create index", "CREATE INDEX slow_ix ON big(x) WHERE " + slow + " > 0", true},
		{"update", "UPDATE big SET y = " + slow, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			start := time.Now()
			if c.exec {
				_, err = db.ExecContext(ctx, c.sql)
			} else {
				var rows *sql.Rows
				if rows, err = db.QueryContext(ctx, c.sql); err == nil {
					for rows.Next() {
					}
					err = rows.Err()
					rows.Close()
				}
			}
			took := time.Since(start)
			require.Error(t, err)
			require.True(t, errors.Is(err, context.DeadlineExceeded), "got %v", err)
			require.Less(t, took, 2*time.Second, "the statement ran on past its deadline")
		})
	}
}
