// Command sqlx shows ladybug under github.com/jmoiron/sqlx: no registration
// beyond the blank import, struct scanning by db tags, named statements and
// IN-list expansion.
//
//	go run .
package main

import (
	"fmt"
	"log"
	"time"

	"github.com/jmoiron/sqlx"

	_ "github.com/ladybugsql/ladybug"
)

// Person is a row of people; CreatedAt comes back as time.Time because the
// column is declared DATETIME.
type Person struct {
	ID        int64     `db:"id"`
	Name      string    `db:"name"`
	Email     string    `db:"email"`
	CreatedAt time.Time `db:"created_at"`
}

func main() {
	db, err := sqlx.Open("ladybug", ":memory:")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if err := run(db); err != nil {
		log.Fatal(err)
	}
}

func run(db *sqlx.DB) error {
	db.MustExec(`CREATE TABLE people (
		id INTEGER PRIMARY KEY,
		name TEXT NOT NULL,
		email TEXT NOT NULL,
		created_at DATETIME NOT NULL
	)`)
	now := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	for _, p := range []Person{{Name: "Ada", Email: "ada@example.com"}, {Name: "Linus", Email: "linus@example.com"}, {Name: "Grace", Email: "grace@example.com"}} {
		p.CreatedAt = now
		if _, err := db.NamedExec(`INSERT INTO people (name, email, created_at) VALUES (:name, :email, :created_at)`, p); err != nil {
			return err
		}
	}
	var people []Person
	if err := db.Select(&people, `SELECT * FROM people ORDER BY name`); err != nil {
		return err
	}
	for _, p := range people {
		fmt.Printf("%d %s <%s> %s\n", p.ID, p.Name, p.Email, p.CreatedAt.Format(time.RFC3339))
	}
	q, args, err := sqlx.In(`SELECT * FROM people WHERE id IN (?) ORDER BY id`, []int64{1, 3})
	if err != nil {
		return err
	}
	var some []Person
	if err := db.Select(&some, db.Rebind(q), args...); err != nil {
		return err
	}
	fmt.Println("ids 1 and 3:", some[0].Name, some[1].Name)
	return nil
}
