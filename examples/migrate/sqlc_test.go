package migrate

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/examples/migrate/sqlc/db"
)

func day(y int, m time.Month, d int) sql.NullTime {
	return sql.NullTime{Time: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), Valid: true}
}

// TestSqlc_GeneratedQueriesRunOnLadybug runs code in the shape sqlc
// generates for engine sqlite (sqlc/db, from sqlc/schema.sql and
// sqlc/query.sql): the "-- name:" comment heading each statement,
// RETURNING for :one, :execrows, :execresult, a sqlc.slice expanded at run
// time, ?N parameters, nullable types, DATE and BOOLEAN columns, and
// WithTx.
func TestSqlc_GeneratedQueriesRunOnLadybug(t *testing.T) {
	ctx := context.Background()
	sqlDB := openLadybug(t)
	schema, err := os.ReadFile("sqlc/schema.sql")
	require.NoError(t, err)
	_, err = sqlDB.ExecContext(ctx, string(schema))
	require.NoError(t, err)
	q := db.New(sqlDB)

	ada, err := q.CreateAuthor(ctx, db.CreateAuthorParams{Name: "Ada", Bio: sql.NullString{String: "first programmer", Valid: true}})
	require.NoError(t, err)
	assert.NotZero(t, ada.ID)
	assert.Equal(t, "first programmer", ada.Bio.String)
	bob, err := q.CreateAuthor(ctx, db.CreateAuthorParams{Name: "Bob"})
	require.NoError(t, err)
	assert.False(t, bob.Bio.Valid)

	got, err := q.GetAuthor(ctx, ada.ID)
	require.NoError(t, err)
	assert.Equal(t, ada, got)
	_, err = q.GetAuthor(ctx, 999)
	assert.True(t, errors.Is(err, sql.ErrNoRows))

	require.NoError(t, q.UpdateAuthorBio(ctx, db.UpdateAuthorBioParams{ID: bob.ID, Bio: sql.NullString{String: "builder", Valid: true}}))
	authors, err := q.ListAuthors(ctx)
	require.NoError(t, err)
	require.Len(t, authors, 2)
	assert.Equal(t, "builder", authors[1].Bio.String)

	// WithTx: books in one transaction.
	tx, err := sqlDB.BeginTx(ctx, nil)
	require.NoError(t, err)
	qtx := q.WithTx(tx)
	for _, b := range []db.CreateBookParams{
		{AuthorID: ada.ID, Title: "Notes", Published: day(1843, 9, 1), InPrint: true, Price: sql.NullFloat64{Float64: 12.5, Valid: true}},
		{AuthorID: ada.ID, Title: "Letters", Published: day(1850, 1, 1), InPrint: false},
		{AuthorID: bob.ID, Title: "Bridges", Published: day(1900, 5, 5), InPrint: true, Price: sql.NullFloat64{Float64: 30, Valid: true}},
	} {
		res, err := qtx.CreateBook(ctx, b)
		require.NoError(t, err)
		id, err := res.LastInsertId()
		require.NoError(t, err)
		assert.NotZero(t, id)
	}
	require.NoError(t, tx.Commit())

	rows, err := q.BooksPublishedAfter(ctx, db.BooksPublishedAfterParams{After: day(1845, 1, 1), InPrint: true})
	require.NoError(t, err)
	require.Len(t, rows, 1)
	assert.Equal(t, "Bridges", rows[0].Title)
	assert.Equal(t, "Bob", rows[0].AuthorName)
	assert.True(t, rows[0].Published.Time.Equal(day(1900, 5, 5).Time), "DATE round trip: %v", rows[0].Published)

	counts, err := q.CountBooksByAuthor(ctx)
	require.NoError(t, err)
	assert.Equal(t, []db.CountBooksByAuthorRow{{Name: "Ada", BookCount: 2, TotalPrice: 12.5}, {Name: "Bob", BookCount: 1, TotalPrice: 30}}, counts)

	some, err := q.ListAuthorsByIDs(ctx, []int64{bob.ID, 999})
	require.NoError(t, err)
	require.Len(t, some, 1)
	assert.Equal(t, "Bob", some[0].Name)
	none, err := q.ListAuthorsByIDs(ctx, nil)
	require.NoError(t, err)
	assert.Empty(t, none, "an empty slice becomes IN (NULL)")

	n, err := q.DeleteAuthor(ctx, ada.ID)
	require.NoError(t, err)
	assert.EqualValues(t, 1, n)
	counts, err = q.CountBooksByAuthor(ctx)
	require.NoError(t, err)
	assert.Equal(t, []db.CountBooksByAuthorRow{{Name: "Bob", BookCount: 1, TotalPrice: 30}}, counts, "ON DELETE CASCADE took Ada's books")
}
