package ladybug

import (
	"database/sql"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The PostgreSQL spellings x::date, x::timestamp, x::time and x::boolean
// give PostgreSQL's answers (as SQLite values); CAST(x AS DATE) keeps
// SQLite's NUMERIC-affinity meaning.
func TestDriver_PostgresCasts_DateTimeBoolean(t *testing.T) {
	db, err := sql.Open("ladybug", "file:pgcasts?mode=memory&values=stored")
	require.NoError(t, err)
	defer db.Close()
	cases := []struct {
		expr string
		want any
	}{
		{`'2026-01-02'::date`, "2026-01-02"},
		{`'2026-01-02 03:04:05'::date`, "2026-01-02"},
		{`'2026-01-02 03:04:05.5'::timestamp`, "2026-01-02 03:04:05"},
		{`'2026-01-02T03:04:05Z'::timestamptz`, "2026-01-02 03:04:05"},
		{`'03:04'::time`, "03:04:00"},
		{`CAST('2026-01-02' AS DATE)`, int64(2026)},
		{`'t'::boolean`, int64(1)},
		{`'TRUE'::bool`, int64(1)},
		{`' yes '::boolean`, int64(1)},
		{`'on'::boolean`, int64(1)},
		{`'f'::boolean`, int64(0)},
		{`'false'::boolean`, int64(0)},
		{`'off'::boolean`, int64(0)},
		{`'0'::boolean`, int64(0)},
		{`2::boolean`, int64(1)},
		{`0.0::boolean`, int64(0)},
		{`NULL::boolean`, nil},
		{`'maybe'::boolean`, nil},
		{`CAST('t' AS BOOLEAN)`, int64(0)},
		{`'12'::integer + 1`, int64(13)},
	}
	for _, c := range cases {
		var got any
		require.NoError(t, db.QueryRow("SELECT "+c.expr).Scan(&got), c.expr)
		assert.Equal(t, c.want, got, c.expr)
	}
	var d, b any
	require.NoError(t, db.QueryRow(`SELECT $1::date, $2::boolean`, "2026-05-06 07:08:09", "t").Scan(&d, &b))
	assert.Equal(t, "2026-05-06", d)
	assert.Equal(t, int64(1), b)
}
