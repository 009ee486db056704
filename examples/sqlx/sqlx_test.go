package main

import (
	"database/sql"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type audit struct {
	CreatedBy string    `db:"created_by"`
	UpdatedAt time.Time `db:"updated_at"`
}

type item struct {
	ID    int64           `db:"id"`
	Title string          `db:"title"`
	Price sql.NullFloat64 `db:"price"`
	Note  sql.NullString  `db:"note"`
	Done  bool            `db:"done"`
	When  sql.NullTime    `db:"due"`
	audit
}

func openDB(t *testing.T) *sqlx.DB {
	t.Helper()
	db, err := sqlx.Open("ladybug", "file:"+t.Name()+"?mode=memory")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	db.MustExec(`CREATE TABLE items (
		id INTEGER PRIMARY KEY, title TEXT NOT NULL, price REAL, note TEXT,
		done BOOLEAN NOT NULL DEFAULT FALSE, due TIMESTAMP, created_by TEXT, updated_at DATETIME)`)
	return db
}

func TestSqlx_NamedExecSelectGet(t *testing.T) {
	db := openDB(t)
	ts := time.Date(2026, 1, 2, 3, 4, 5, 600000000, time.UTC)
	in := []item{
		{Title: "a", Price: sql.NullFloat64{Float64: 1.5, Valid: true}, Done: true, When: sql.NullTime{Time: ts, Valid: true}, audit: audit{"ann", ts}},
		{Title: "b", Note: sql.NullString{String: "n", Valid: true}, audit: audit{"bob", ts.Add(time.Hour)}},
	}
	for _, it := range in {
		_, err := db.NamedExec(`INSERT INTO items (title, price, note, done, due, created_by, updated_at)
			VALUES (:title, :price, :note, :done, :due, :created_by, :updated_at)`, it)
		require.NoError(t, err)
	}
	var got []item
	require.NoError(t, db.Select(&got, `SELECT * FROM items ORDER BY id`))
	require.Len(t, got, 2)
	assert.Equal(t, "a", got[0].Title)
	assert.True(t, got[0].Price.Valid)
	assert.Equal(t, 1.5, got[0].Price.Float64)
	assert.False(t, got[0].Note.Valid)
	assert.True(t, got[0].Done)
	assert.True(t, got[0].When.Valid)
	assert.True(t, ts.Equal(got[0].When.Time), "%v != %v", ts, got[0].When.Time)
	assert.Equal(t, "ann", got[0].CreatedBy, "embedded struct fields scan")
	assert.True(t, ts.Equal(got[0].UpdatedAt))
	assert.False(t, got[1].Price.Valid)
	assert.Equal(t, "n", got[1].Note.String)
	assert.False(t, got[1].Done)
	assert.False(t, got[1].When.Valid)

	var one item
	require.NoError(t, db.Get(&one, `SELECT * FROM items WHERE title = ?`, "b"))
	assert.Equal(t, int64(2), one.ID)
	assert.Equal(t, sql.ErrNoRows, db.Get(&one, `SELECT * FROM items WHERE title = ?`, "zzz"))
}

func TestSqlx_InExpandsSlices(t *testing.T) {
	db := openDB(t)
	for _, s := range []string{"x", "y", "z", "w"} {
		db.MustExec(`INSERT INTO items (title) VALUES (?)`, s)
	}
	q, args, err := sqlx.In(`SELECT title FROM items WHERE id IN (?) AND title <> ? ORDER BY id`, []int{1, 3, 4}, "w")
	require.NoError(t, err)
	var titles []string
	require.NoError(t, db.Select(&titles, db.Rebind(q), args...))
	assert.Equal(t, []string{"x", "z"}, titles)
}

func TestSqlx_NamedQueryWithMap(t *testing.T) {
	db := openDB(t)
	db.MustExec(`INSERT INTO items (title, price) VALUES ('p', 2.25), ('q', 9)`)
	rows, err := db.NamedQuery(`SELECT id, title FROM items WHERE price > :min ORDER BY id`, map[string]any{"min": 2})
	require.NoError(t, err)
	defer rows.Close()
	var n int
	for rows.Next() {
		var it struct {
			ID    int64  `db:"id"`
			Title string `db:"title"`
		}
		require.NoError(t, rows.StructScan(&it))
		n++
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, 2, n)
}

func TestSqlx_ExampleProgramRuns(t *testing.T) {
	db, err := sqlx.Open("ladybug", ":memory:")
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, run(db))
}
