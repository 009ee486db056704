package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
)

// ON DELETE CASCADE fires the child's DELETE triggers for each child it
// deletes (after the parent row is gone), and the grandchildren's in turn,
// as SQLite's action program does.
func TestTrigger_CascadeDeleteFiresChildTriggers(t *testing.T) {
	s := openMem(t).NewSession()
	mustExec(t, s, "PRAGMA foreign_keys = ON")
	mustExec(t, s, "CREATE TABLE p(id INTEGER PRIMARY KEY)")
	mustExec(t, s, "CREATE TABLE c(id INTEGER PRIMARY KEY, pid REFERENCES p ON DELETE CASCADE)")
	mustExec(t, s, "CREATE TABLE g(id INTEGER PRIMARY KEY, cid REFERENCES c ON DELETE CASCADE)")
	mustExec(t, s, "CREATE TABLE log(n INT)")
	// BEFORE: 1000 + id + 100 × parents left; AFTER: 2000 + id; the
	// grandchild's BEFORE adds 10 × children left.
	mustExec(t, s, "CREATE TRIGGER cb BEFORE DELETE ON c BEGIN INSERT INTO log VALUES (1000 + OLD.id + 100 * (SELECT count(*) FROM p)); END")
	mustExec(t, s, "CREATE TRIGGER ca AFTER DELETE ON c BEGIN INSERT INTO log VALUES (2000 + OLD.id); END")
	mustExec(t, s, "CREATE TRIGGER gb BEFORE DELETE ON g BEGIN INSERT INTO log VALUES (3000 + OLD.id + 10 * (SELECT count(*) FROM c)); END")
	mustExec(t, s, "INSERT INTO p VALUES (1), (2)")
	mustExec(t, s, "INSERT INTO c VALUES (1, 1), (2, 1), (3, 2)")
	mustExec(t, s, "INSERT INTO g VALUES (1, 1), (2, 3)")
	mustExec(t, s, "DELETE FROM p WHERE id = 1")
	require.Equal(t, []int64{1101, 3021, 2001, 1102, 2002}, queryInts(t, s, "SELECT n FROM log ORDER BY rowid"))
	require.Equal(t, []int64{3}, queryInts(t, s, "SELECT id FROM c"))
	require.Equal(t, []int64{2}, queryInts(t, s, "SELECT id FROM g"))
}

// A child that its BEFORE DELETE trigger keeps (RAISE(IGNORE)) is left
// without its parent: the statement fails and changes nothing.
func TestTrigger_CascadeDeleteIgnoredChildFails(t *testing.T) {
	s := openMem(t).NewSession()
	mustExec(t, s, "PRAGMA foreign_keys = ON")
	mustExec(t, s, "CREATE TABLE p(id INTEGER PRIMARY KEY)")
	mustExec(t, s, "CREATE TABLE c(id INTEGER PRIMARY KEY, pid REFERENCES p ON DELETE CASCADE)")
	mustExec(t, s, "CREATE TRIGGER keep BEFORE DELETE ON c WHEN OLD.id = 2 BEGIN SELECT RAISE(IGNORE); END")
	mustExec(t, s, "INSERT INTO p VALUES (1)")
	mustExec(t, s, "INSERT INTO c VALUES (1, 1), (2, 1)")
	st, err := s.Prepare(context.Background(), "DELETE FROM p")
	require.NoError(t, err)
	defer st.Close()
	_, err = st.Exec(context.Background(), nil)
	require.ErrorContains(t, err, "FOREIGN KEY constraint failed")
	require.Equal(t, []int64{1, 2}, queryInts(t, s, "SELECT id FROM c ORDER BY id"))
	require.Equal(t, []int64{1}, queryInts(t, s, "SELECT id FROM p"))
}

// With recursive_triggers off (the default) a trigger does not fire inside
// its own program; on, it does.
func TestTrigger_RecursiveTriggers(t *testing.T) {
	s := openMem(t).NewSession()
	mustExec(t, s, "CREATE TABLE t(x INT)")
	mustExec(t, s, "CREATE TRIGGER tr AFTER INSERT ON t WHEN NEW.x < 5 BEGIN INSERT INTO t VALUES (NEW.x + 1); END")
	mustExec(t, s, "INSERT INTO t VALUES (1)")
	require.Equal(t, []int64{1, 2}, queryInts(t, s, "SELECT x FROM t ORDER BY x"))
	require.Equal(t, []int64{0}, queryInts(t, s, "PRAGMA recursive_triggers"))
	mustExec(t, s, "PRAGMA recursive_triggers = ON")
	mustExec(t, s, "INSERT INTO t VALUES (3)")
	require.Equal(t, []int64{1, 2, 3, 4, 5}, queryInts(t, s, "SELECT x FROM t ORDER BY x"))
}

// TestFKAction_CascadeChainStopsAtTriggerDepth: foreign key actions count
// toward the trigger depth limit, as in SQLite, whose answers these are
// (modernc: a 1,000-row self-referencing ON DELETE CASCADE chain is
// deleted whole, a 1,001-row one fails and keeps every row). Without the
// count each link of the chain nested one more Go call, and a chain of
// 1.5M rows ended the process with a fatal stack overflow.
func TestFKAction_CascadeChainStopsAtTriggerDepth(t *testing.T) {
	for _, c := range []struct {
		rows int64
		fail bool
	}{{1000, false}, {1001, true}} {
		s := openMem(t).NewSession()
		mustExec(t, s, "CREATE TABLE c(id INTEGER PRIMARY KEY, p INTEGER REFERENCES c(id) ON DELETE CASCADE)")
		mustExec(t, s, "CREATE INDEX cp ON c(p)")
		mustExec(t, s, "INSERT INTO c SELECT value, NULLIF(value - 1, 0) FROM generate_series(1, ?)", types.NewInt(c.rows))
		st, err := s.Prepare(context.Background(), "DELETE FROM c WHERE id = 1")
		require.NoError(t, err)
		_, err = st.Exec(context.Background(), nil)
		st.Close()
		left := int64(0)
		if c.fail {
			require.ErrorContains(t, err, "too many levels of trigger recursion")
			left = c.rows
		} else {
			require.NoError(t, err)
		}
		require.Equal(t, []int64{left}, queryInts(t, s, "SELECT count(*) FROM c"))
	}
}
