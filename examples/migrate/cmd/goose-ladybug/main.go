// Command goose-ladybug is goose's command line on a ladybug database:
// goose (dialect sqlite3) with the ladybug driver linked in, since the
// goose binary opens SQLite files only.
//
//	go run ./cmd/goose-ladybug -dir migrations app.db up
//	go run ./cmd/goose-ladybug -dir migrations app.db status
//	go run ./cmd/goose-ladybug -dir migrations app.db down-to 1
//
// The database argument is a ladybug DSN (path, ":memory:", options after
// '?'); the commands are goose's (up, up-by-one, up-to, down, down-to,
// redo, reset, status, version, create, fix, validate).
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/pressly/goose/v3"

	_ "github.com/ladybugsql/ladybug"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "goose-ladybug:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("goose-ladybug", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", ".", "directory with migration files")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() < 2 {
		return fmt.Errorf("usage: goose-ladybug [-dir DIR] DSN COMMAND [ARGS]")
	}
	dsn, command := fs.Arg(0), fs.Arg(1)
	db, err := sql.Open("ladybug", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := goose.SetDialect("sqlite3"); err != nil {
		return err
	}
	return goose.RunContext(ctx, command, db, *dir, fs.Args()[2:]...)
}
