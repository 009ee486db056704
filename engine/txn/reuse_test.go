package txn

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestManager_BeginReuse_FinishedTx starts a transaction in a finished one:
// the same memory, none of the old state (snapshot, trees, savepoints), and
// it sees commits made since.
func TestManager_BeginReuse_FinishedTx(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		old := begin(t, b.m, Options{})
		require.True(t, has(t, old.Tree(root), 2))
		require.NoError(t, old.Savepoint("sp"))
		oldGen := old.gen
		commit(t, old)

		w := begin(t, b.m, Options{Immediate: true})
		require.NoError(t, w.Tree(root).Put(key(7), val(7)))
		commit(t, w)

		tx, err := b.m.BeginReuse(ctx, Options{}, old)
		require.NoError(t, err)
		require.Same(t, old, tx)
		require.False(t, tx.Done())
		require.Greater(t, tx.gen, oldGen)
		require.Empty(t, tx.Savepoints())
		require.Zero(t, tx.Snapshot())
		require.NoError(t, tx.StartStatement(ctx))
		require.True(t, has(t, tx.Tree(root), 7), "the reused transaction reads the newest commit")
		commit(t, tx)
	})
}

// TestManager_BeginReuse_OpenTx refuses to reuse a transaction still open:
// it gets a new one and the old one stays usable.
func TestManager_BeginReuse_OpenTx(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		open := begin(t, b.m, Options{})
		tx, err := b.m.BeginReuse(ctx, Options{}, open)
		require.NoError(t, err)
		require.NotSame(t, open, tx)
		require.True(t, has(t, open.Tree(root), 1))
		commit(t, open)
		require.NoError(t, tx.Rollback())

		fresh, err := b.m.BeginReuse(ctx, Options{}, nil)
		require.NoError(t, err)
		require.NoError(t, fresh.Rollback())
		_, err = b.m.BeginReuse(ctx, Options{ReadOnly: true, Immediate: true}, tx)
		require.Error(t, err)
	})
}
