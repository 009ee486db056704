package engine

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/engine/types"
)

// integrityRows runs PRAGMA integrity_check and returns its rows.
func integrityRows(t *testing.T, s *Session) []string {
	t.Helper()
	st, err := s.Prepare(context.Background(), `PRAGMA integrity_check`)
	require.NoError(t, err)
	defer st.Close()
	rows, err := st.Query(context.Background(), nil)
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	dest := make([]types.Value, 1)
	for {
		if err := rows.Next(dest); err == io.EOF {
			break
		} else {
			require.NoError(t, err)
		}
		out = append(out, dest[0].Str())
	}
	return out
}

// tamper changes the store underneath the engine, as a bug or a damaged
// file would.
func tamper(t *testing.T, db *DB, fn func(tx *storage.Tx)) {
	t.Helper()
	tx, err := db.store.BeginWrite(context.Background())
	require.NoError(t, err)
	fn(tx)
	require.NoError(t, tx.Commit())
}

func TestIntegrityCheck_IndexTableAgreement(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, `CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)`)
	mustExec(t, s, `CREATE INDEX t_v ON t (v)`)
	mustExec(t, s, `INSERT INTO t (v) VALUES ('a'), ('b'), ('c')`)
	require.Equal(t, []string{"ok"}, integrityRows(t, s))

	cat := db.cat.Load()
	tbl, ix := cat.Table("t"), cat.Index("t_v")
	require.NotNil(t, tbl)
	require.NotNil(t, ix)

	// A row deleted from the table behind the index's back.
	tamper(t, db, func(tx *storage.Tx) {
		_, err := tx.Tree(tbl.Root).Delete(keycodec.RowidKey(2))
		require.NoError(t, err)
	})
	got := strings.Join(integrityRows(t, s), "\n")
	assert.Contains(t, got, "index t_v has an entry for row 2, missing from table t")
	assert.Contains(t, got, "wrong # of entries in index t_v: 3 for 2 rows of t")

	// An index entry removed: the counts disagree the other way.
	tamper(t, db, func(tx *storage.Tx) {
		c := tx.Tree(ix.Root).Cursor()
		require.True(t, c.First())
		k := append([]byte(nil), c.Key()...)
		c.Close()
		_, err := tx.Tree(ix.Root).Delete(k)
		require.NoError(t, err)
		require.NoError(t, tx.Tree(tbl.Root).Put(keycodec.RowidKey(2), types.AppendRecord(nil, []types.Value{types.Null, types.NewText("b")})))
	})
	got = strings.Join(integrityRows(t, s), "\n")
	assert.Contains(t, got, "wrong # of entries in index t_v: 2 for 3 rows of t")
}

// TestIntegrityCheck_IndexEntryWithStaleKey: a row rewritten behind its
// indexes' back keeps the same rowids in every index, so only recomputing
// each row's keys finds the entries that no longer match (a partial index
// and an expression index included).
func TestIntegrityCheck_IndexEntryWithStaleKey(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, `CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, w INT)`)
	mustExec(t, s, `CREATE INDEX t_v ON t (v)`)
	mustExec(t, s, `CREATE INDEX t_w ON t (w) WHERE w > 1`)
	mustExec(t, s, `CREATE INDEX t_e ON t (w * 2)`)
	mustExec(t, s, `INSERT INTO t VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)`)
	require.Equal(t, []string{"ok"}, integrityRows(t, s))
	tbl := db.cat.Load().Table("t")

	// Row 2 gets new values in the table only.
	tamper(t, db, func(tx *storage.Tx) {
		require.NoError(t, tx.Tree(tbl.Root).Put(keycodec.RowidKey(2), types.AppendRecord(nil, []types.Value{types.Null, types.NewText("z"), types.NewInt(9)})))
	})
	got := integrityRows(t, s)
	assert.ElementsMatch(t, []string{
		"row 2 missing from index t_v",
		"row 2 missing from index t_w",
		"row 2 missing from index t_e",
	}, got)

	// Row 1 enters the partial index's predicate without an entry.
	tamper(t, db, func(tx *storage.Tx) {
		require.NoError(t, tx.Tree(tbl.Root).Put(keycodec.RowidKey(2), types.AppendRecord(nil, []types.Value{types.Null, types.NewText("b"), types.NewInt(2)})))
		require.NoError(t, tx.Tree(tbl.Root).Put(keycodec.RowidKey(1), types.AppendRecord(nil, []types.Value{types.Null, types.NewText("a"), types.NewInt(5)})))
	})
	got = integrityRows(t, s)
	assert.ElementsMatch(t, []string{
		"row 1 missing from index t_w",
		"wrong # of entries in index t_w: 2 for 3 rows that belong in it",
		"row 1 missing from index t_e",
	}, got)
}

// TestIntegrityCheck_IndexPassPollsTheContext: the pass that checks every
// index entry against its table stops with the statement's context error
// (it ran to the end before, whatever the deadline).
func TestIntegrityCheck_IndexPassPollsTheContext(t *testing.T) {
	db := openMem(t)
	s := db.NewSession()
	defer s.Close()
	mustExec(t, s, `CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)`)
	mustExec(t, s, `CREATE INDEX t_v ON t (v)`)
	mustExec(t, s, `INSERT INTO t (v) SELECT printf('v%d', value) FROM generate_series(1, 2000)`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.indexAgreement(&exec.Ctx{Go: ctx}, db.cat.Load())
	require.ErrorIs(t, err, context.Canceled)
	problems, err := s.indexAgreement(&exec.Ctx{Go: context.Background()}, db.cat.Load())
	require.NoError(t, err)
	require.Empty(t, problems)
}
