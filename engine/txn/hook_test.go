package txn

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTx_OnCommit_RunsInOrderBeforeDurability(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		tx := begin(t, b.m, Options{})
		var order []string
		tx.OnCommit("a", func(tx *Tx) error {
			order = append(order, "a")
			// A hook sees the tombstones and may write.
			require.False(t, has(t, tx.Tree(root), 0))
			return tx.Tree(root).Put(key(50), val(50))
		})
		tx.OnCommit("b", func(*Tx) error { order = append(order, "b"); return nil })
		tx.OnCommit("a", func(*Tx) error { order = append(order, "dup"); return nil })
		tx.OnRollback("r", func() { order = append(order, "rollback") })
		require.NoError(t, tx.Tree(root).Delete(key(0)))
		commit(t, tx)
		require.Equal(t, []string{"a", "b"}, order)
		tx = begin(t, b.m, Options{})
		require.Equal(t, []int{1, 2, 50}, visible(t, tx.Tree(root)))
		require.NoError(t, tx.Rollback())
	})
}

func TestTx_OnCommit_ErrorRollsBack(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		tx := begin(t, b.m, Options{})
		boom := errors.New("deferred check failed")
		rolled := false
		tx.OnCommit("check", func(*Tx) error { return boom })
		tx.OnRollback("r", func() { rolled = true })
		require.NoError(t, tx.Tree(root).Delete(key(0)))
		require.NoError(t, tx.EndStatement(nil))
		require.ErrorIs(t, tx.Commit(), boom)
		require.True(t, rolled)
		require.True(t, tx.Done())
		tx = begin(t, b.m, Options{Immediate: true}) // the writer lock was released
		require.Equal(t, ints(0, 3), visible(t, tx.Tree(root)))
		require.NoError(t, tx.Rollback())
	})
}

func TestTx_OnCommit_PanicBecomesError(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		tx := begin(t, b.m, Options{})
		tx.OnCommit("p", func(*Tx) error { panic("boom") })
		require.NoError(t, tx.EndStatement(nil))
		require.ErrorIs(t, tx.Commit(), ErrHookPanic)
	})
}

func TestTx_EndStatement_UnregistersItsHooks(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		tx := begin(t, b.m, Options{})
		var ran []string
		tx.OnCommit("kept", func(*Tx) error { ran = append(ran, "kept"); return nil })
		require.NoError(t, tx.EndStatement(nil))
		require.NoError(t, tx.StartStatement(ctx))
		tx.OnCommit("undone", func(*Tx) error { ran = append(ran, "undone"); return nil })
		tx.OnRollback("undo-cache", func() { ran = append(ran, "rollback-hook") })
		require.Error(t, tx.EndStatement(errStmt))
		require.Equal(t, []string{"rollback-hook"}, ran, "the undone statement's rollback hook ran")
		require.NoError(t, tx.Commit())
		require.Equal(t, []string{"rollback-hook", "kept"}, ran)
	})
}

func TestTx_RollbackTo_RunsRollbackHooksOfUndoneWork(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		tx := begin(t, b.m, Options{})
		var ran []string
		tx.OnRollback("outer", func() { ran = append(ran, "outer") })
		require.NoError(t, tx.Savepoint("sp"))
		tx.OnRollback("inner", func() { ran = append(ran, "inner") })
		tx.OnCommit("inner-commit", func(*Tx) error { ran = append(ran, "inner-commit"); return nil })
		require.NoError(t, tx.RollbackTo("sp"))
		require.Equal(t, []string{"inner"}, ran)
		commit(t, tx)
		require.Equal(t, []string{"inner"}, ran, "undone commit hook and outer rollback hook did not run")
	})
}
