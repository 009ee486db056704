// Command quickstart creates a ladybug database, makes a small schema,
// writes and queries rows, and prints the results.
//
//	go run ./examples/quickstart [path/to/app.db]
//
// Without an argument the database is a file in a new temporary directory.
package main

import (
	"database/sql"
	"fmt"
	"log"
	"os"
	"path/filepath"

	_ "github.com/ladybugsql/ladybug"
)

func main() {
	path := ""
	if len(os.Args) > 1 {
		path = os.Args[1]
	} else {
		dir, err := os.MkdirTemp("", "ladybug-quickstart-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "app.db")
	}
	if err := run(path); err != nil {
		log.Fatal(err)
	}
}

func run(path string) error {
	db, err := sql.Open("ladybug", path)
	if err != nil {
		return err
	}
	defer db.Close()

	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS books (
		id     INTEGER PRIMARY KEY,
		title  TEXT NOT NULL,
		author TEXT NOT NULL,
		year   INTEGER
	)`); err != nil {
		return err
	}

	tx, err := db.Begin()
	if err != nil {
		return err
	}
	books := []struct {
		title, author string
		year          int
	}{
		{"The Go Programming Language", "Donovan & Kernighan", 2015},
		{"Designing Data-Intensive Applications", "Kleppmann", 2017},
		{"Database Internals", "Petrov", 2019},
		{"Readings in Database Systems", "Bailis, Hellerstein & Stonebraker", 2015},
	}
	for _, b := range books {
		if _, err := tx.Exec(`INSERT INTO books (title, author, year) VALUES (?, ?, ?)`, b.title, b.author, b.year); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}

	fmt.Printf("database: %s\n", path)
	rows, err := db.Query(`SELECT id, title, author, year FROM books WHERE year >= ? ORDER BY year, id`, 2015)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id           int64
			title, autor string
			year         int
		)
		if err := rows.Scan(&id, &title, &autor, &year); err != nil {
			return err
		}
		fmt.Printf("%d  %-40s %-36s %d\n", id, title, autor, year)
	}
	if err := rows.Err(); err != nil {
		return err
	}

	var n int
	if err := db.QueryRow(`SELECT count(*) FROM books WHERE year = 2015`).Scan(&n); err != nil {
		return err
	}
	fmt.Printf("books from 2015: %d\n", n)
	return nil
}
