package txn

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/stretchr/testify/require"
)

func TestTx_FirstWrite_StaleSnapshotIsBusySnapshot(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		reader := begin(t, b.m, Options{})
		require.Equal(t, int64(3), count(t, reader.Tree(root)))

		w := begin(t, b.m, Options{})
		require.NoError(t, w.Tree(root).Put(key(9), val(9)))
		commit(t, w)

		err := reader.Tree(root).Delete(key(0))
		require.Error(t, err)
		require.ErrorIs(t, err, errs.ErrBusy)
		var e *errs.Error
		require.True(t, errors.As(err, &e))
		require.Equal(t, errs.ExtBusySnapshot, e.ExtendedCode)
		require.False(t, reader.Writable())
		// Still a consistent reader of its old snapshot.
		require.Equal(t, int64(3), count(t, reader.Tree(root)))
		require.NoError(t, reader.Rollback())
		require.GreaterOrEqual(t, b.m.Stats().BusySnapshot, int64(1))

		// The lock was released: an immediate transaction gets it.
		tx := begin(t, b.m, Options{Immediate: true})
		require.NoError(t, tx.Rollback())
	})
}

func TestTx_FirstWrite_FreshSnapshotUpgrades(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		tx := begin(t, b.m, Options{})
		require.Equal(t, ints(0, 3), visible(t, tx.Tree(root)))
		require.False(t, tx.Writable())
		require.NoError(t, tx.Tree(root).Delete(key(1)))
		require.True(t, tx.Writable())
		commit(t, tx)
	})
}

func TestTx_StartWriteStatement_NeverBusySnapshotFirst(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		tx, err := b.m.Begin(ctx, Options{})
		require.NoError(t, err)
		w := begin(t, b.m, Options{})
		require.NoError(t, w.Tree(root).Put(key(7), val(7)))
		commit(t, w)
		require.NoError(t, tx.StartWriteStatement(ctx))
		require.True(t, has(t, tx.Tree(root), 7), "snapshot taken after the lock")
		require.NoError(t, tx.Tree(root).Delete(key(7)))
		commit(t, tx)
	})
}

func TestTx_StartWriteStatement_LaterStatementStale(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		tx := begin(t, b.m, Options{})
		require.Equal(t, int64(3), count(t, tx.Tree(root)))
		require.NoError(t, tx.EndStatement(nil))
		w := begin(t, b.m, Options{})
		require.NoError(t, w.Tree(root).Put(key(7), val(7)))
		commit(t, w)
		err := tx.StartWriteStatement(ctx)
		require.ErrorIs(t, err, errs.ErrBusy)
		require.NoError(t, tx.Rollback())
	})
}

func TestManager_Begin_ImmediateWaitsThenBusy(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		holder := begin(t, b.m, Options{Immediate: true})
		_, err := b.m.Begin(ctx, Options{Immediate: true})
		require.ErrorIs(t, err, errs.ErrBusy)
		var e *errs.Error
		require.True(t, errors.As(err, &e))
		require.Equal(t, errs.CodeBusy, e.Code)
		require.NotEqual(t, errs.ExtBusySnapshot, e.ExtendedCode)

		deferred := begin(t, b.m, Options{})
		root, err := deferred.CreateTree()
		require.Zero(t, root)
		require.ErrorIs(t, err, errs.ErrBusy)
		require.NoError(t, deferred.Rollback())
		require.NoError(t, holder.Rollback())
	})
}

func TestTx_ReadOnly_RejectsWrites(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 1)
		tx := begin(t, b.m, Options{ReadOnly: true})
		require.ErrorIs(t, tx.Tree(root).Put(key(1), nil), errs.ErrReadOnly)
		require.ErrorIs(t, tx.Tree(root).Delete(key(0)), errs.ErrReadOnly)
		_, err := tx.CreateTree()
		require.ErrorIs(t, err, errs.ErrReadOnly)
		require.ErrorIs(t, tx.SetMeta(4, 1), errs.ErrReadOnly)
		require.ErrorIs(t, tx.StartWriteStatement(ctx), errs.ErrReadOnly)
		require.True(t, tx.ReadOnly())
		require.Equal(t, int64(1), count(t, tx.Tree(root)))
		commit(t, tx)
		_, err = b.m.Begin(ctx, Options{ReadOnly: true, Immediate: true})
		require.ErrorIs(t, err, errs.ErrMisuse)
	})
}

func TestManager_Begin_CancelledWhileWaitingIsInterrupt(t *testing.T) {
	eachBackendBusy(t, 10*time.Second, func(t *testing.T, b *backend) {
		holder := begin(t, b.m, Options{Immediate: true})
		c, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
		defer cancel()
		_, err := b.m.Begin(c, Options{Immediate: true})
		require.ErrorIs(t, err, context.DeadlineExceeded)
		require.ErrorIs(t, err, errs.ErrInterrupt)
		require.NoError(t, holder.Rollback())
	})
}
