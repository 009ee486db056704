// Command migrate-ladybug runs golang-migrate's commands on a ladybug
// database through ladybug's driver (github.com/ladybugsql/ladybug/migrate),
// for programs that cannot rebuild golang-migrate's own command with an
// extra driver (its command line lives in an internal package).
//
//	go run ./cmd/migrate-ladybug -path migrations -database ladybug://app.db up
//	go run ./cmd/migrate-ladybug -path migrations -database ladybug://app.db goto 2
//	go run ./cmd/migrate-ladybug -path migrations -database ladybug://app.db version
//
// Commands: up [N], down [N], goto V, force V, version, drop.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/golang-migrate/migrate/v4"
	_ "github.com/golang-migrate/migrate/v4/source/file"

	_ "github.com/ladybugsql/ladybug/migrate"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "migrate-ladybug:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate-ladybug", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("path", ".", "directory with migration files")
	database := fs.String("database", "", "ladybug://DSN")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() < 1 || *database == "" {
		return errors.New("usage: migrate-ladybug -path DIR -database ladybug://DSN up [N]|down [N]|goto V|force V|version|drop")
	}
	m, err := migrate.New("file://"+*path, *database)
	if err != nil {
		return err
	}
	defer m.Close()
	n, hasN, err := intArg(fs.Args())
	if err != nil {
		return err
	}
	switch cmd := fs.Arg(0); {
	case cmd == "up" && hasN:
		err = m.Steps(n)
	case cmd == "up":
		err = m.Up()
	case cmd == "down" && hasN:
		err = m.Steps(-n)
	case cmd == "down":
		err = m.Down()
	case cmd == "goto" && hasN:
		err = m.Migrate(uint(n))
	case cmd == "force" && hasN:
		err = m.Force(n)
	case cmd == "drop":
		err = m.Drop()
	case cmd == "version":
		v, dirty, verr := m.Version()
		if verr != nil {
			return verr
		}
		_, err = fmt.Fprintf(stdout, "%d%s\n", v, map[bool]string{true: " (dirty)"}[dirty])
	default:
		return fmt.Errorf("unknown command %q (or missing its number)", cmd)
	}
	if errors.Is(err, migrate.ErrNoChange) {
		return nil
	}
	return err
}

// intArg reads the command's number argument, when there is one.
func intArg(args []string) (int, bool, error) {
	if len(args) < 2 {
		return 0, false, nil
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 0 {
		return 0, false, fmt.Errorf("%q is not a migration count or version", args[1])
	}
	return n, true, nil
}
