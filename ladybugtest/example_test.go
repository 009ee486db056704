package ladybugtest_test

import (
	"database/sql"
	"fmt"
	"testing"

	"github.com/ladybugsql/ladybug/ladybugtest"
)

// The template is migrated once per test binary, at the first Open; every
// test then gets its own copy-on-write clone.
var schema = ladybugtest.NewTemplate("shop", ladybugtest.MigrationsDir("testdata/migrations"))

func ExampleTemplate_Open() {
	t := &testing.T{} // in a real test: the test's *testing.T
	db := schema.Open(t)
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM users`).Scan(&n); err != nil {
		panic(err)
	}
	fmt.Println(n, "seeded users")
	// Output: 2 seeded users
}

func ExampleNewTemplate() {
	// A setup function in Go instead of .sql files: any *sql.DB code works
	// (an ORM's AutoMigrate, sqlx.MustExec on sqlx.NewDb(db, "ladybug"), ...).
	seeded := ladybugtest.NewTemplate("counters", func(db *sql.DB) error {
		_, err := db.Exec(`CREATE TABLE counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL);
			INSERT INTO counters VALUES ('visits', 0)`)
		return err
	})
	t := &testing.T{}
	a, b := seeded.Open(t), seeded.Open(t)
	if _, err := a.Exec(`UPDATE counters SET n = n + 1`); err != nil {
		panic(err)
	}
	fmt.Print(ladybugtest.DumpTable(t, a, "counters"))
	fmt.Print(ladybugtest.DumpTable(t, b, "counters"))
	// Output:
	// name | n
	// visits | 1
	// name | n
	// visits | 0
}

func ExampleOpen() {
	t := &testing.T{}
	db := ladybugtest.Open(t) // empty, private, closed at t.Cleanup
	if _, err := db.Exec(`CREATE TABLE t (x); INSERT INTO t VALUES (1), (NULL)`); err != nil {
		panic(err)
	}
	fmt.Print(ladybugtest.DumpQuery(t, db, `SELECT x, typeof(x) AS type FROM t ORDER BY x`))
	// Output:
	// x | type
	// NULL | null
	// 1 | integer
}
