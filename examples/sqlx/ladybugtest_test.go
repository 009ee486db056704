package main

import (
	"database/sql"
	"fmt"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/ladybugsql/ladybug/ladybugtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// itemsTemplate is migrated with sqlx once per test binary; each test gets
// a clone wrapped in sqlx.
var itemsTemplate = ladybugtest.NewTemplate("items", func(db *sql.DB) error {
	x := sqlx.NewDb(db, "ladybug")
	if _, err := x.Exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT NOT NULL, price REAL)`); err != nil {
		return err
	}
	_, err := x.NamedExec(`INSERT INTO items (title, price) VALUES (:title, :price)`,
		[]map[string]any{{"title": "pen", "price": 1.5}, {"title": "ink", "price": 7}})
	return err
})

func TestLadybugtest_SqlxOnClones(t *testing.T) {
	for i := range 4 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			db := sqlx.NewDb(itemsTemplate.Open(t), "ladybug")
			db.MustExec(`INSERT INTO items (title, price) VALUES (?, ?)`, fmt.Sprint("mine", i), i)
			var titles []string
			require.NoError(t, db.Select(&titles, `SELECT title FROM items ORDER BY id`))
			assert.Equal(t, []string{"pen", "ink", fmt.Sprint("mine", i)}, titles)
		})
	}
}

func ExampleTemplate_Open_sqlx() {
	t := &testing.T{} // in a real test: the test's *testing.T
	db := sqlx.NewDb(itemsTemplate.Open(t), "ladybug")
	var total float64
	if err := db.Get(&total, `SELECT sum(price) FROM items`); err != nil {
		panic(err)
	}
	fmt.Println(total)
	// Output: 8.5
}
