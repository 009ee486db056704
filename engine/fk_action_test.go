package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/types"
)

// A SET DEFAULT action evaluates the child column's DEFAULT for each row it
// changes, as SQLite does: a non-constant default (random()) gives each row
// its own value. (The key is deferred so the rows can be read before the
// violation they leave is checked.)
func TestFKAction_SetDefault_EvaluatesPerRow(t *testing.T) {
	s := openMem(t).NewSession()
	defer s.Close()
	mustExec(t, s, "CREATE TABLE p(id INTEGER PRIMARY KEY)")
	mustExec(t, s, "CREATE TABLE c(id INTEGER PRIMARY KEY, pid DEFAULT (random()) REFERENCES p ON DELETE SET DEFAULT DEFERRABLE INITIALLY DEFERRED, at DEFAULT CURRENT_TIMESTAMP)")
	mustExec(t, s, "INSERT INTO p VALUES (1)")
	mustExec(t, s, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 50) INSERT INTO c(id, pid) SELECT i, 1 FROM n")
	mustExec(t, s, "BEGIN")
	mustExec(t, s, "DELETE FROM p")
	require.Equal(t, []int64{50, 50}, queryInts(t, s, "SELECT count(DISTINCT pid), count(*) FROM c WHERE pid <> 1 AND typeof(pid) = 'integer'"))
	mustExec(t, s, "ROLLBACK")
}

// The keys referencing a table are bound with each statement against its
// schema: a cascade added after a DELETE was first run applies when the
// same statement runs again, and a key referencing its own table cascades
// down a whole tree.
func TestFKAction_FollowsSchemaChanges(t *testing.T) {
	s := openMem(t).NewSession()
	defer s.Close()
	mustExec(t, s, "CREATE TABLE tree(id INTEGER PRIMARY KEY, up REFERENCES tree ON DELETE CASCADE)")
	mustExec(t, s, "INSERT INTO tree VALUES (1, NULL), (2, 1), (3, 2), (4, 3), (5, NULL)")
	const del = "DELETE FROM tree WHERE id = ?"
	mustExec(t, s, del, types.NewInt(5))
	require.Equal(t, []int64{4}, queryInts(t, s, "SELECT count(*) FROM tree"))
	mustExec(t, s, "CREATE TABLE leaf(x REFERENCES tree ON DELETE CASCADE)")
	mustExec(t, s, "INSERT INTO leaf VALUES (3), (4), (4)")
	mustExec(t, s, del, types.NewInt(1))
	require.Equal(t, []int64{0, 0}, queryInts(t, s, "SELECT (SELECT count(*) FROM tree), (SELECT count(*) FROM leaf)"))
}

// A key whose parent columns do not resolve (a foreign key mismatch) is
// an error only when foreign keys are enforced and a write needs the key.
func TestFKAction_MismatchOnlyWhenEnforced(t *testing.T) {
	s := openMem(t).NewSession()
	defer s.Close()
	mustExec(t, s, "CREATE TABLE p(id INTEGER PRIMARY KEY)")
	mustExec(t, s, "CREATE TABLE c(x REFERENCES p(nosuch))")
	mustExec(t, s, "INSERT INTO p VALUES (1), (2)")
	mustExec(t, s, "PRAGMA foreign_keys = OFF")
	mustExec(t, s, "DELETE FROM p WHERE id = 1")
	mustExec(t, s, "PRAGMA foreign_keys = ON")
	st, err := s.Prepare(context.Background(), "DELETE FROM p WHERE id = 2")
	require.NoError(t, err)
	defer st.Close()
	_, err = st.Exec(context.Background(), nil)
	require.ErrorContains(t, err, "foreign key mismatch - no column nosuch in p")
}
