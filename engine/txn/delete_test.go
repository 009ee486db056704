package txn

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTree_Delete_OutOfOrderIsBuffered checks deletes below the tombstone
// run: they are buffered as tombstones like those in key order (storage
// keeps the keys until the commit), a cursor open across them skips them,
// a failed statement and a savepoint rollback bring the rows back with
// their values, and the commit's tombstone hook deletes the rest.
func TestTree_Delete_OutOfOrderIsBuffered(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 40)
		tx := begin(t, b.m, Options{})
		tr := tx.Tree(root)
		require.NoError(t, tx.StartStatement(nil))
		require.NoError(t, tr.Delete(key(30))) // the run takes it
		c := tr.Cursor()
		defer c.Close()
		require.True(t, c.Seek(key(10)))
		require.NoError(t, tr.Delete(key(10))) // below the run: the hash table
		require.NoError(t, tr.Delete(key(11)))
		require.NoError(t, tr.Delete(key(11))) // again: a no-op
		require.True(t, c.Next())
		require.Equal(t, 12, int(binary.BigEndian.Uint64(c.Key())), "the cursor skips the deleted keys")
		st := tx.Stats()
		require.Equal(t, int64(3), st.TombstonesBuffered)
		_, inStorage, err := tr.storage().Get(key(10))
		require.NoError(t, err)
		require.True(t, inStorage, "a buffered delete leaves storage as it was until the commit")
		require.Equal(t, int64(37), count(t, tr))
		require.NoError(t, tx.EndStatement(nil))

		require.NoError(t, tx.StartStatement(nil))
		require.NoError(t, tr.Delete(key(5)))
		found, err := tr.Remove(key(6))
		require.NoError(t, err)
		require.True(t, found)
		found, err = tr.Remove(key(6))
		require.NoError(t, err)
		require.False(t, found)
		require.NoError(t, tr.Put(key(10), []byte("new")))
		fail := errors.New("fail")
		require.ErrorIs(t, tx.EndStatement(fail), fail)
		require.Equal(t, ints(0, 40, 10, 11, 30), visible(t, tr), "the failed statement's deletes are undone")
		v, ok, err := tr.Get(key(5))
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, val(5), v, "the old value is back")

		require.NoError(t, tx.Savepoint("sp"))
		require.NoError(t, tr.Delete(key(1)))
		require.NoError(t, tr.Delete(key(0)))
		require.NoError(t, tx.RollbackTo("sp"))
		require.NoError(t, tr.Delete(key(2)))
		require.NoError(t, tx.Release("sp"))
		require.Equal(t, int64(4), tx.Stats().TombstonesBuffered)
		commit(t, tx)
		require.Equal(t, int64(4), tx.Stats().TombstonesApplied, "the commit hook deleted every buffered key")
		require.Equal(t, int64(1), tx.Stats().ApplyRuns)

		tx = begin(t, b.m, Options{ReadOnly: true})
		require.Equal(t, ints(0, 40, 2, 10, 11, 30), visible(t, tx.Tree(root)))
		require.Equal(t, int64(36), count(t, tx.Tree(root)))
		require.NoError(t, tx.Rollback())
	})
}

// TestTree_Delete_HooksFollowUndo rolls back the savepoint and the
// statement whose deletes registered a tree's tombstone hooks: the hooks
// go with them, the next delete registers them again, and the commit
// applies exactly the deletes that were kept.
func TestTree_Delete_HooksFollowUndo(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 20)
		tx := begin(t, b.m, Options{})
		tr := tx.Tree(root)
		require.NoError(t, tx.Savepoint("sp"))
		require.NoError(t, tr.Delete(key(9)))
		require.NoError(t, tr.Delete(key(3))) // out of order
		require.Len(t, tx.hooks, 2, "the first tombstone registered apply and discard")
		require.NoError(t, tx.RollbackTo("sp"))
		require.Empty(t, tx.hooks)
		require.False(t, tr.hooked)
		require.Equal(t, int64(20), count(t, tr))

		require.NoError(t, tx.StartStatement(ctx))
		require.NoError(t, tr.Delete(key(15)))
		require.ErrorIs(t, tx.EndStatement(errStmt), errStmt)
		require.Empty(t, tx.hooks)

		require.NoError(t, tr.Delete(key(7)))
		require.NoError(t, tr.Delete(key(2)))
		require.Len(t, tx.hooks, 2)
		require.NoError(t, tx.Release("sp"))
		commit(t, tx)
		require.Equal(t, int64(2), tx.Stats().TombstonesApplied)

		tx = begin(t, b.m, Options{ReadOnly: true})
		require.Equal(t, ints(0, 20, 2, 7), visible(t, tx.Tree(root)))
		require.NoError(t, tx.Rollback())
	})
}
