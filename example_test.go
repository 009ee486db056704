package ladybug_test

import (
	"database/sql"
	"fmt"
	"log"

	_ "github.com/ladybugsql/ladybug"
)

// Open a database, create a table, write and read rows.
func Example() {
	db, err := sql.Open("ladybug", ":memory:")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	db.Exec(`CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT, legs INTEGER)`)
	db.Exec(`INSERT INTO pets (name, legs) VALUES (?, ?), (?, ?)`, "ladybug", 6, "cat", 4)

	rows, err := db.Query(`SELECT name, legs FROM pets ORDER BY legs DESC`)
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var legs int
		rows.Scan(&name, &legs)
		fmt.Println(name, legs)
	}
	// Output:
	// ladybug 6
	// cat 4
}

// A transaction either commits everything or, rolled back, leaves no trace.
func Example_transaction() {
	db, err := sql.Open("ladybug", ":memory:")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	db.Exec(`CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER)`)
	db.Exec(`INSERT INTO accounts (balance) VALUES (100), (0)`)

	tx, _ := db.Begin()
	tx.Exec(`UPDATE accounts SET balance = balance - 30 WHERE id = 1`)
	tx.Exec(`UPDATE accounts SET balance = balance + 30 WHERE id = 2`)
	tx.Commit()

	tx, _ = db.Begin()
	tx.Exec(`DELETE FROM accounts`)
	tx.Rollback()

	var a, b int
	db.QueryRow(`SELECT balance FROM accounts WHERE id = 1`).Scan(&a)
	db.QueryRow(`SELECT balance FROM accounts WHERE id = 2`).Scan(&b)
	fmt.Println(a, b)
	// Output: 70 30
}

// Each test gets its own in-memory database by naming it after the test;
// every *sql.DB that opens the same name in the process shares it.
func Example_namedMemoryPerTest() {
	name := "TestCheckout" // in a test: t.Name()
	db, err := sql.Open("ladybug", "file:"+name+"?mode=memory")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	db.Exec(`CREATE TABLE carts (id INTEGER PRIMARY KEY)`)

	other, _ := sql.Open("ladybug", "file:"+name+"?mode=memory")
	defer other.Close()
	var n int
	other.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'carts'`).Scan(&n)
	fmt.Println(n)
	// Output: 1
}
