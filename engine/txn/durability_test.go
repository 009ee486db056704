package txn

import (
	"encoding/binary"
	"testing"

	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/vfs"
	"github.com/stretchr/testify/require"
)

// table is a row tree plus a secondary index tree (value bytes + rowid).
type table struct{ rows, index uint32 }

func indexKey(i int) []byte {
	return binary.BigEndian.AppendUint64(append([]byte{}, val(i)...), uint64(i))
}

func newTable(t *testing.T, m *Manager, n int) table {
	tx := begin(t, m, Options{Immediate: true})
	var tb table
	var err error
	tb.rows, err = tx.CreateTree()
	require.NoError(t, err)
	tb.index, err = tx.CreateTree()
	require.NoError(t, err)
	for i := 0; i < n; i++ {
		require.NoError(t, tx.Tree(tb.rows).Put(key(i), val(i)))
		require.NoError(t, tx.Tree(tb.index).Put(indexKey(i), nil))
	}
	commit(t, tx)
	return tb
}

// deleteRows tombstones rows and their index entries.
func deleteRows(t *testing.T, tx *Tx, tb table, rows []int) {
	for _, i := range rows {
		require.NoError(t, tx.Tree(tb.rows).Delete(key(i)))
		require.NoError(t, tx.Tree(tb.index).Delete(indexKey(i)))
	}
}

// checkTable verifies rows want are present through the row tree (Get,
// scan, count) and the index, and nothing else is.
func checkTable(t *testing.T, m *Manager, tb table, want []int) {
	t.Helper()
	tx := begin(t, m, Options{ReadOnly: true})
	defer func() { _ = tx.Rollback() }()
	rows, idx := tx.Tree(tb.rows), tx.Tree(tb.index)
	require.Equal(t, want, visible(t, rows))
	require.Equal(t, int64(len(want)), count(t, rows))
	require.Equal(t, int64(len(want)), count(t, idx))
	for _, i := range want {
		v, ok, err := rows.Get(key(i))
		require.NoError(t, err)
		require.True(t, ok, "row %d", i)
		require.Equal(t, val(i), v)
		_, ok, err = idx.Get(indexKey(i))
		require.NoError(t, err)
		require.True(t, ok, "index entry %d", i)
	}
}

func evens(n int) (ev, odd []int) {
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			ev = append(ev, i)
		} else {
			odd = append(odd, i)
		}
	}
	return ev, odd
}

func TestTx_Rollback_DeleteLeavesNoTraceAfterReopen(t *testing.T) {
	persistent(t, func(t *testing.T, b *backend) {
		const n = 3000
		tb := newTable(t, b.m, n)
		ev, odd := evens(n)
		tx := begin(t, b.m, Options{})
		deleteRows(t, tx, tb, ev)
		require.NoError(t, tx.EndStatement(nil))
		require.NoError(t, tx.Rollback())

		m := b.reopen(t)
		checkTable(t, m, tb, ints(0, n))
		integrity(t, b)

		tx = begin(t, m, Options{})
		deleteRows(t, tx, tb, ev)
		require.NoError(t, tx.Rollback())
		tx = begin(t, m, Options{})
		deleteRows(t, tx, tb, ev)
		commit(t, tx)
		require.Equal(t, int64(2*len(ev)), tx.Stats().TombstonesApplied)
		require.Equal(t, int64(2), tx.Stats().ApplyRuns)

		m = b.reopen(t)
		checkTable(t, m, tb, odd)
		integrity(t, b)
	})
}

func TestTx_Commit_InsertDeleteSameKeySurvivesReopen(t *testing.T) {
	persistent(t, func(t *testing.T, b *backend) {
		tb := newTable(t, b.m, 10)
		tx := begin(t, b.m, Options{})
		require.NoError(t, tx.Tree(tb.rows).Put(key(100), val(100)))
		require.NoError(t, tx.Tree(tb.index).Put(indexKey(100), nil))
		deleteRows(t, tx, tb, []int{100, 3})
		deleteRows(t, tx, tb, []int{3}) // already deleted: no-op
		commit(t, tx)
		m := b.reopen(t)
		checkTable(t, m, tb, ints(0, 10, 3))
		integrity(t, b)
	})
}

// TestTx_Commit_BatchDeleteSurvivesCrash commits a batch delete on a
// crash-simulating file system and "pulls the plug" with no Close or
// checkpoint: the delete is there after reopening; an uncommitted delete is not.
func TestTx_Commit_BatchDeleteSurvivesCrash(t *testing.T) {
	fs := vfs.NewCrashFS()
	o := storeOpts(fs, storage.SyncFull)
	s, err := storage.Open("crash.db", o)
	require.NoError(t, err)
	m := NewManager(s)
	const n = 4000
	tb := newTable(t, m, n)
	ev, odd := evens(n)

	tx := begin(t, m, Options{})
	deleteRows(t, tx, tb, ev)
	commit(t, tx)
	pending := begin(t, m, Options{})
	deleteRows(t, pending, tb, odd[:100]) // never committed

	crashed := fs.CrashClone(0)
	s2 := openStore(t, "crash.db", storeOpts(crashed, storage.SyncFull))
	m2 := NewManager(s2)
	checkTable(t, m2, tb, odd)
	probs, err := s2.IntegrityCheck()
	require.NoError(t, err)
	require.Empty(t, probs)
	require.NoError(t, pending.Rollback())
	_ = s.Close()
}

func TestTx_Commit_UpdateOfIndexedColumnSurvivesReopen(t *testing.T) {
	persistent(t, func(t *testing.T, b *backend) {
		tb := newTable(t, b.m, 5)
		tx := begin(t, b.m, Options{})
		rows, idx := tx.Tree(tb.rows), tx.Tree(tb.index)
		// Row 1 takes row 7's value; row 2 is rewritten with the same value.
		require.NoError(t, rows.Put(key(1), val(7)))
		require.NoError(t, idx.Delete(indexKey(1)))
		require.NoError(t, idx.Put(append(append([]byte{}, val(7)...), key(1)...), nil))
		require.NoError(t, rows.Put(key(2), val(2)))
		require.NoError(t, idx.Delete(indexKey(2)))
		require.NoError(t, idx.Put(indexKey(2), nil))
		require.Equal(t, int64(5), count(t, idx))
		commit(t, tx)

		m := b.reopen(t)
		tx = begin(t, m, Options{ReadOnly: true})
		c := tx.Tree(tb.index).Cursor()
		var got []string
		for ok := c.First(); ok; ok = c.Next() {
			got = append(got, string(c.Key()[:7]))
		}
		c.Close()
		require.Equal(t, []string{"v000000", "v000002", "v000003", "v000004", "v000007"}, got)
		require.NoError(t, tx.Rollback())
	})
}
