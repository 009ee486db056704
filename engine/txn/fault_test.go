package txn

import (
	"testing"

	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/vfs"
	"github.com/stretchr/testify/require"
)

// TestTx_Commit_SyncFailureRollsBack makes the WAL fsync of a batch-delete
// commit fail: Commit returns the error after rolling back (rollback hooks
// ran, the writer lock is free), and every row is still there, also after
// reopening.
func TestTx_Commit_SyncFailureRollsBack(t *testing.T) {
	ffs := vfs.NewFaultFS(vfs.NewMemFS())
	o := storeOpts(ffs, storage.SyncFull)
	s, err := storage.Open("fault.db", o)
	require.NoError(t, err)
	m := NewManager(s)
	tb := newTable(t, m, 2000)
	ev, _ := evens(2000)

	tx := begin(t, m, Options{})
	deleteRows(t, tx, tb, ev)
	rolled := false
	tx.OnRollback("r", func() { rolled = true })
	require.NoError(t, tx.EndStatement(nil))
	ffs.Inject(vfs.Fault{Op: vfs.OpSync, Name: "-wal"})
	require.Error(t, tx.Commit())
	require.True(t, ffs.Fired(), "the injected fault was reached")
	require.True(t, rolled)
	ffs.Clear()

	checkTable(t, m, tb, ints(0, 2000))
	again := begin(t, m, Options{Immediate: true}) // the lock was released
	require.NoError(t, again.Rollback())
	require.NoError(t, s.Close())

	s2 := openStore(t, "fault.db", o)
	checkTable(t, NewManager(s2), tb, ints(0, 2000))
	probs, err := s2.IntegrityCheck()
	require.NoError(t, err)
	require.Empty(t, probs)
}
