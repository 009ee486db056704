package shell

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ladybugsql/ladybug"
)

// ladybugMagic starts every ladybug database file.
const ladybugMagic = "LADYBUG\x00"

// Open closes the current database, if any, and opens path (":memory:" or
// "" for a private in-memory database). A file that is not a ladybug
// database, is of a newer format or is locked fails with one line.
func (s *Shell) Open(path string, readOnly bool) error {
	if err := checkForeign(path); err != nil {
		return err
	}
	dsn := ":memory:?values=stored"
	if path != "" && path != ":memory:" {
		dsn = path + "?values=stored"
		if readOnly {
			dsn += "&mode=ro"
		}
	}
	db, err := sql.Open("ladybug", dsn)
	if err != nil {
		return openError(path, err)
	}
	conn, err := db.Conn(context.Background())
	if err == nil {
		err = conn.PingContext(context.Background())
	}
	if err != nil {
		db.Close()
		return openError(path, err)
	}
	s.closeDB()
	s.db, s.conn, s.path, s.readOnly = db, conn, path, readOnly
	return nil
}

// checkForeign refuses a non-empty file that does not start with
// ladybug's header, before the engine sees it: an SQLite database above
// all, which ladybug cannot read and must not touch.
func checkForeign(path string) error {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil // missing: created; unreadable: the engine says why
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case n == 0:
		return nil
	case bytes.HasPrefix(head, []byte("SQLite format 3\x00")):
		return fmt.Errorf("%s is an SQLite database, not a ladybug one: ladybug cannot read SQLite's file format (sqlite3 %s .dump | ladybug new.db loads its contents)", path, path)
	case !bytes.HasPrefix([]byte(ladybugMagic), head[:min(n, len(ladybugMagic))]):
		return fmt.Errorf("%s is not a ladybug database (its first bytes are not ladybug's header)", path)
	}
	return nil
}

// openError turns an open failure into one line naming the file.
func openError(path string, err error) error {
	msg := cleanMessage(err)
	if strings.Contains(msg, "written by an older ladybug") {
		return fmt.Errorf("%s: %s", path, msg)
	}
	if _, v, ok := strings.Cut(msg, "unsupported format version "); ok {
		return fmt.Errorf("%s is in ladybug file format version %s, which this ladybug cannot read: it was written by a newer ladybug", path, v)
	}
	switch {
	case errors.Is(err, ladybug.ErrBusy) || strings.Contains(msg, "database is busy") || strings.Contains(msg, "locked by another"):
		return fmt.Errorf("%s is locked by another process (%s)", path, innermost(msg))
	case errors.Is(err, ladybug.ErrNotADB):
		return fmt.Errorf("%s is not a ladybug database (%s)", path, innermost(msg))
	case errors.Is(err, ladybug.ErrCorrupt) && strings.HasPrefix(innermost(msg), "not a ladybug database"):
		return fmt.Errorf("%s is %s", path, innermost(msg))
	case errors.Is(err, ladybug.ErrCorrupt):
		return fmt.Errorf("%s is damaged or not a ladybug database (%s)", path, innermost(msg))
	}
	return fmt.Errorf("cannot open %s: %s", path, innermost(msg))
}

// innermost is the last part of a wrapped "a: b: c" message, the cause;
// a part that only names the file is skipped.
func innermost(msg string) string {
	parts := strings.Split(msg, ": ")
	for i := len(parts) - 1; i >= 0; i-- {
		if p := strings.TrimSpace(parts[i]); p != "" && !strings.ContainsAny(p, "/\\") && !strings.HasSuffix(p, ".db") {
			return p
		}
	}
	return msg
}

func (s *Shell) closeDB() error {
	if s.db == nil {
		return nil
	}
	s.conn.Close()
	err := s.db.Close()
	s.db, s.conn = nil, nil
	return err
}

// setOutput sends results to path ("" or "stdout" for standard output).
func (s *Shell) setOutput(path string, once bool) error {
	s.closeOutput()
	if path == "" || path == "stdout" || path == "-" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	s.outFile, s.out, s.once = f, f, once
	return nil
}

func (s *Shell) closeOutput() {
	if s.outFile != nil {
		s.outFile.Close()
	}
	s.outFile, s.out, s.once = nil, s.stdout, false
}

// endOnce ends a .once redirection after the statement it was for.
func (s *Shell) endOnce() {
	if s.once {
		s.closeOutput()
	}
}
