package txn

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

var errStmt = errors.New("statement failed")

func TestTx_EndStatement_ErrorUndoesOnlyThatStatement(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 10)
		tx := begin(t, b.m, Options{})
		tr := tx.Tree(root)
		require.NoError(t, tr.Delete(key(1)))
		require.NoError(t, tr.Put(key(20), val(20)))
		require.NoError(t, tx.EndStatement(nil))

		require.NoError(t, tx.StartStatement(ctx))
		require.NoError(t, tr.Delete(key(2)))
		require.NoError(t, tr.Put(key(20), []byte("overwritten")))
		require.NoError(t, tr.Put(key(21), val(21)))
		require.NoError(t, tr.Put(key(1), []byte("reinserted")))
		require.NoError(t, tx.SetMeta(5, 42))
		require.ErrorIs(t, tx.EndStatement(errStmt), errStmt)

		want := append(ints(0, 10, 1), 20)
		require.Equal(t, want, visible(t, tr))
		v, ok, err := tr.Get(key(20))
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, val(20), v)
		require.Equal(t, uint64(0), tx.Meta(5))
		require.Equal(t, int64(1), tx.Stats().StatementsUndone)
		require.NoError(t, tx.Commit())

		tx = begin(t, b.m, Options{})
		require.Equal(t, want, visible(t, tx.Tree(root)))
		require.NoError(t, tx.Rollback())
	})
}

func TestTx_RollbackTo_NestedSavepoints(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 10)
		tx := begin(t, b.m, Options{})
		tr := tx.Tree(root)
		require.NoError(t, tr.Delete(key(0)))
		require.NoError(t, tx.Savepoint("sp1"))
		require.NoError(t, tr.Delete(key(1)))
		require.NoError(t, tr.Put(key(11), val(11)))
		require.NoError(t, tx.Savepoint("sp2"))
		require.NoError(t, tr.Delete(key(2)))
		require.NoError(t, tr.Put(key(12), val(12)))
		require.Equal(t, []string{"sp1", "sp2"}, tx.Savepoints())

		require.NoError(t, tx.RollbackTo("SP2"))
		require.Equal(t, append(ints(2, 10), 11), visible(t, tr))
		require.Equal(t, []string{"sp1", "sp2"}, tx.Savepoints(), "ROLLBACK TO keeps the savepoint")
		require.NoError(t, tr.Delete(key(3)))
		require.NoError(t, tx.Release("sp2"))

		require.NoError(t, tx.RollbackTo("sp1"))
		require.Equal(t, ints(1, 10), visible(t, tr))
		require.NoError(t, tr.Delete(key(9)))
		require.NoError(t, tx.Release("sp1"))
		require.Empty(t, tx.Savepoints())
		require.Error(t, tx.Release("sp1"))
		require.Error(t, tx.RollbackTo("nope"))
		commit(t, tx)

		tx = begin(t, b.m, Options{})
		require.Equal(t, ints(1, 9), visible(t, tx.Tree(root)))
		require.NoError(t, tx.Rollback())
	})
}

func TestTx_RollbackTo_UndoesDDL(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		keep := newTreeWith(t, b.m, 3)
		tx := begin(t, b.m, Options{})
		require.NoError(t, tx.Savepoint("ddl"))
		root, err := tx.CreateTree()
		require.NoError(t, err)
		require.NoError(t, tx.Tree(root).Put(key(1), val(1)))
		require.NoError(t, tx.DropTree(keep))
		require.ErrorIs(t, tx.Tree(keep).Put(key(1), nil), ErrTreeDropped)
		require.NoError(t, tx.SetMeta(0, uint64(root)))
		require.NoError(t, tx.RollbackTo("ddl"))

		require.ErrorIs(t, tx.Tree(root).Put(key(1), nil), ErrTreeDropped)
		require.Equal(t, uint64(0), tx.Meta(0))
		require.Equal(t, ints(0, 3), visible(t, tx.Tree(keep)))
		commit(t, tx)
		tx = begin(t, b.m, Options{})
		require.Equal(t, ints(0, 3), visible(t, tx.Tree(keep)))
		require.NoError(t, tx.Rollback())
	})
}

func TestTx_DropTree_AppliedAtCommit(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		tx := begin(t, b.m, Options{})
		require.NoError(t, tx.Tree(root).Delete(key(1)))
		require.NoError(t, tx.DropTree(root))
		require.ErrorIs(t, tx.DropTree(root), ErrTreeDropped)
		commit(t, tx)
		require.Equal(t, int64(0), tx.Stats().ApplyRuns, "no tombstone apply on a dropped tree")
	})
}

func TestTx_EndStatement_WithoutStart(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		tx, err := b.m.Begin(ctx, Options{})
		require.NoError(t, err)
		require.ErrorIs(t, tx.EndStatement(nil), ErrNoStatement)
		require.ErrorIs(t, tx.EndStatement(errStmt), errStmt)
		require.NoError(t, tx.StartStatement(ctx))
		require.NoError(t, tx.Rollback())
		require.NoError(t, tx.EndStatement(nil), "a statement that finished the transaction ends quietly")
		require.ErrorIs(t, tx.Rollback(), ErrTxDone)
		require.ErrorIs(t, tx.Commit(), ErrTxDone)
		require.ErrorIs(t, tx.StartStatement(ctx), ErrTxDone)
	})
}

func TestTx_EndStatement_DropsSavepointsItOpened(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		tx := begin(t, b.m, Options{})
		require.NoError(t, tx.Savepoint("a"))
		require.NoError(t, tx.EndStatement(nil))
		require.NoError(t, tx.StartStatement(ctx))
		require.NoError(t, tx.Savepoint("b"))
		require.NoError(t, tx.Tree(root).Delete(key(0)))
		require.Error(t, tx.EndStatement(errStmt))
		require.Equal(t, []string{"a"}, tx.Savepoints())
		require.Equal(t, ints(0, 3), visible(t, tx.Tree(root)))
		require.NoError(t, tx.Rollback())
	})
}

func TestTree_Insert_UndoneWithStatement(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		tx := begin(t, b.m, Options{})
		tr := tx.Tree(root)
		require.NoError(t, tr.Delete(key(1)))
		require.NoError(t, tx.EndStatement(nil))
		require.NoError(t, tx.StartStatement(ctx))
		require.NoError(t, tr.Insert(key(5), val(5)))
		require.NoError(t, tr.Insert(key(1), []byte("again"))) // tombstoned: present in storage
		require.Error(t, tx.EndStatement(errStmt))
		require.Equal(t, []int{0, 2}, visible(t, tr))
		require.NoError(t, tx.Commit())
		tx = begin(t, b.m, Options{})
		require.Equal(t, []int{0, 2}, visible(t, tx.Tree(root)))
		require.NoError(t, tx.Rollback())
	})
}

func TestTree_Put_FreshTreeNeedsNoUndo(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		tx := begin(t, b.m, Options{})
		root, err := tx.CreateTree()
		require.NoError(t, err)
		for i := 0; i < 100; i++ {
			require.NoError(t, tx.Tree(root).Put(key(i), val(i)))
		}
		require.Equal(t, 1, tx.Stats().UndoEntries, "only the creation is logged")
		require.NoError(t, tx.Savepoint("sp"))
		require.NoError(t, tx.Tree(root).Put(key(0), []byte("changed")))
		require.Equal(t, 2, tx.Stats().UndoEntries, "after a newer undo point, writes are logged")
		require.NoError(t, tx.RollbackTo("sp"))
		v, ok, err := tx.Tree(root).Get(key(0))
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, val(0), v)
		require.Error(t, tx.EndStatement(errStmt))
		require.ErrorIs(t, tx.Tree(root).Put(key(1), nil), ErrTreeDropped)
		require.NoError(t, tx.Commit())
	})
}

// A Put over an existing key records the value it replaced (in one descent
// on a real store): a failed statement and ROLLBACK TO restore it, whether
// the old or the new value is small or spans overflow pages.
func TestTx_EndStatement_RestoresOverwrittenValues(t *testing.T) {
	big := func(c byte) []byte {
		b := make([]byte, 20_000)
		for i := range b {
			b[i] = c + byte(i%7)
		}
		return b
	}
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 10)
		tx := begin(t, b.m, Options{})
		tr := tx.Tree(root)
		require.NoError(t, tr.Put(key(3), big('a')))
		require.NoError(t, tx.EndStatement(nil))

		require.NoError(t, tx.StartStatement(ctx))
		require.NoError(t, tr.Put(key(3), []byte("small")))
		require.NoError(t, tr.Put(key(4), big('b')))
		require.NoError(t, tr.Put(key(4), big('c')))
		require.ErrorIs(t, tx.EndStatement(errStmt), errStmt)
		for k, want := range map[int][]byte{3: big('a'), 4: val(4)} {
			v, ok, err := tr.Get(key(k))
			require.NoError(t, err)
			require.True(t, ok)
			require.Equal(t, want, v, "key %d", k)
		}

		require.NoError(t, tx.StartStatement(ctx))
		require.NoError(t, tx.Savepoint("s"))
		require.NoError(t, tr.Put(key(5), big('d')))
		require.NoError(t, tr.Put(key(3), val(3)))
		require.NoError(t, tx.RollbackTo("s"))
		commit(t, tx)

		tx = begin(t, b.m, Options{})
		tr = tx.Tree(root)
		for k, want := range map[int][]byte{3: big('a'), 4: val(4), 5: val(5)} {
			v, ok, err := tr.Get(key(k))
			require.NoError(t, err)
			require.True(t, ok)
			require.Equal(t, want, v, "key %d", k)
		}
		require.NoError(t, tx.Rollback())
	})
}
