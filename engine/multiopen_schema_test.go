package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/errs"
)

// multiOpenScript builds the database the opens below share: two tables,
// a property graph over them, and two statements the graph makes fail (a
// refused DROP and a refused column rename), as a shell script would run
// them.
const multiOpenScript = `CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE knows(a INTEGER REFERENCES person(id), b INTEGER REFERENCES person(id), since INT);
INSERT INTO person VALUES (1,'ann'),(2,'bob'),(3,'cy'),(4,'dee'),(5,NULL);
INSERT INTO knows VALUES (1,2,2020),(2,3,2021),(3,1,2022),(3,4,2019),(4,4,2000),(1,2,2023),(NULL,1,0);
CREATE PROPERTY GRAPH social VERTEX TABLES (person) EDGE TABLES (knows SOURCE KEY (a) REFERENCES person (id) DESTINATION KEY (b) REFERENCES person (id));
SELECT count(*) FROM GRAPH_TABLE (social MATCH (x)-[e]->{1,12}(y) COLUMNS (x.id AS a, y.id AS b));
DROP TABLE knows;
ALTER TABLE person RENAME COLUMN id TO pid`

// TestMultiOpen_EveryOpenerSeesTheSchema opens one file many times at
// once, as separate processes would (each Open has its own -shm mapping
// and locks, and on Linux open file description locks make two opens in
// one process exclude each other as two processes do): a writer holds a
// write transaction while read-write and read-only opens come and go at
// random moments, then a last open after all closed. Every one of them
// must see the tables (never "no such table": the schema is either read
// or its read fails with an error), and the last one the writer's row.
// LADYBUG_STRESS=1 runs many more rounds.
func TestMultiOpen_EveryOpenerSeesTheSchema(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("on Windows a database is used by one process at a time")
	}
	rounds := 6
	if os.Getenv("LADYBUG_STRESS") == "1" {
		rounds = 300
	}
	for round := range rounds {
		path := filepath.Join(t.TempDir(), "g.db")
		db, err := Open(Options{Path: path, Create: true})
		require.NoError(t, err)
		s := db.NewSession()
		for i, q := range strings.Split(multiOpenScript, ";\n") {
			_, err := execSQL(s, q)
			if i < 6 {
				require.NoError(t, err, q)
			} else {
				require.Error(t, err, q) // refused: the graph uses them
			}
		}
		require.NoError(t, db.Close())

		var wg sync.WaitGroup
		errc := make(chan error, 64)
		started := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			errc <- multiOpenWriter(path, started)
		}()
		<-started
		for i := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
				errc <- multiOpenReader(path, i%2 == 1, 10+round*10+i)
			}()
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			require.NoError(t, err, "round %d", round)
		}
		db, err = Open(Options{Path: path})
		require.NoError(t, err, "round %d", round)
		s = db.NewSession()
		got, err := querySQL(s, "SELECT name FROM person WHERE id = 9", "T")
		require.NoError(t, err, "round %d", round)
		require.Equal(t, []string{"zed"}, got, "round %d", round)
		require.NoError(t, db.Close())
	}
}

// multiOpenWriter opens the file, holds a write transaction for a moment
// (started is closed once it holds it), commits and closes.
func multiOpenWriter(path string, started chan struct{}) error {
	defer func() {
		select {
		case <-started:
		default:
			close(started)
		}
	}()
	db, err := Open(Options{Path: path})
	if err != nil {
		return fmt.Errorf("writer open: %w", err)
	}
	defer db.Close()
	s := db.NewSession()
	for _, q := range []string{"BEGIN IMMEDIATE", "INSERT INTO person VALUES (9,'zed')"} {
		if _, err := execSQL(s, q); err != nil {
			return fmt.Errorf("writer %s: %w", q, err)
		}
	}
	close(started)
	time.Sleep(time.Duration(rand.IntN(4000)) * time.Microsecond)
	if _, err := execSQL(s, "COMMIT"); err != nil {
		return fmt.Errorf("writer commit: %w", err)
	}
	return db.Close()
}

// multiOpenReader opens the file (read-only or not), counts the rows,
// tries an insert that may find the writer busy, and closes.
func multiOpenReader(path string, readOnly bool, id int) error {
	db, err := Open(Options{Path: path, ReadOnly: readOnly, BusyTimeout: time.Millisecond})
	if err != nil {
		if errors.Is(err, errs.ErrBusy) {
			return nil
		}
		return fmt.Errorf("open (read-only %v): %w", readOnly, err)
	}
	defer db.Close()
	s := db.NewSession()
	got, err := querySQL(s, "SELECT count(*) FROM person", "I")
	if errors.Is(err, errs.ErrBusy) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("count (read-only %v): %w", readOnly, err)
	}
	if len(got) != 1 || len(got[0]) != 1 || got[0] < "5" || got[0] > "9" { // 5, the writer's and the inserts below
		return fmt.Errorf("count (read-only %v): %v", readOnly, got)
	}
	if readOnly {
		return nil
	}
	if _, err := execSQL(s, fmt.Sprintf("INSERT INTO person VALUES (%d,'x')", id)); err != nil && !errors.Is(err, errs.ErrBusy) {
		return fmt.Errorf("insert: %w", err)
	}
	return nil
}

// TestMultiOpen_RemovedFileRefusesCommit is the one way found to get the
// answers of the test above wrong: another program removes the files
// (rm -f g.db*) while a writer holds its transaction. Every open after
// that creates and reads a new, empty database ("no such table"), which is
// right; the writer's COMMIT, which would go to the removed file and be
// lost, fails.
func TestMultiOpen_RemovedFileRefusesCommit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows does not remove open files")
	}
	path := filepath.Join(t.TempDir(), "g.db")
	db, err := Open(Options{Path: path, Create: true})
	require.NoError(t, err)
	mustExecScript(t, db.NewSession(), `CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT);
		INSERT INTO person VALUES (1,'ann')`)
	require.NoError(t, db.Close())

	w, err := Open(Options{Path: path})
	require.NoError(t, err)
	defer w.Close()
	ws := w.NewSession()
	mustExec(t, ws, "BEGIN IMMEDIATE")
	mustExec(t, ws, "INSERT INTO person VALUES (9,'zed')")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		require.NoError(t, os.Remove(path+suffix))
	}
	other, err := Open(Options{Path: path, Create: true})
	require.NoError(t, err)
	_, err = execSQL(other.NewSession(), "SELECT count(*) FROM person")
	require.ErrorContains(t, err, "no such table: person")

	_, err = execSQL(ws, "COMMIT")
	require.ErrorIs(t, err, errs.ErrReadOnly)
	require.ErrorContains(t, err, "deleted while open")
	require.NoError(t, other.Close())
}
