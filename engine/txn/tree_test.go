package txn

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTree_Delete_HiddenInTxOnlyUntilCommit(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 20)
		tx := begin(t, b.m, Options{})
		tr := tx.Tree(root)
		for _, k := range []int{0, 3, 4, 5, 19} {
			require.NoError(t, tr.Delete(key(k)))
		}
		want := ints(0, 20, 0, 3, 4, 5, 19)
		require.Equal(t, want, visible(t, tr))
		require.Equal(t, want, visibleBackward(t, tr))
		require.Equal(t, int64(15), count(t, tr))
		require.False(t, has(t, tr, 4))
		c := tr.Cursor()
		require.True(t, c.Seek(key(3)))
		require.Equal(t, key(6), c.Key())
		c.Close()
		require.Equal(t, int64(5), tx.Stats().TombstonesBuffered)

		other := begin(t, b.m, Options{ReadOnly: true})
		require.Equal(t, int64(20), count(t, other.Tree(root)), "tombstones are private")
		require.NoError(t, other.Rollback())

		commit(t, tx)
		require.Equal(t, int64(5), tx.Stats().TombstonesApplied)
		require.Equal(t, int64(1), tx.Stats().ApplyRuns)
		after := begin(t, b.m, Options{ReadOnly: true})
		require.Equal(t, want, visible(t, after.Tree(root)))
		require.Equal(t, int64(15), count(t, after.Tree(root)))
		require.NoError(t, after.Rollback())
	})
}

func TestTree_Delete_RolledBackLeavesNoTrace(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 50)
		tx := begin(t, b.m, Options{})
		for i := 0; i < 50; i += 2 {
			require.NoError(t, tx.Tree(root).Delete(key(i)))
		}
		require.NoError(t, tx.Rollback())
		tx = begin(t, b.m, Options{})
		require.Equal(t, ints(0, 50), visible(t, tx.Tree(root)))
		require.NoError(t, tx.Rollback())
	})
}

func TestTree_Delete_AlreadyDeletedIsNoOp(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		tx := begin(t, b.m, Options{})
		tr := tx.Tree(root)
		found, err := tr.Remove(key(1))
		require.NoError(t, err)
		require.True(t, found)
		found, err = tr.Remove(key(1))
		require.NoError(t, err)
		require.False(t, found)
		found, err = tr.Remove(key(99))
		require.NoError(t, err)
		require.False(t, found)
		require.Equal(t, int64(2), count(t, tr))
		commit(t, tx)
		require.Equal(t, int64(1), tx.Stats().TombstonesApplied)
	})
}

func TestTree_Put_CancelsTombstone(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 5)
		tx := begin(t, b.m, Options{})
		tr := tx.Tree(root)
		require.NoError(t, tr.Delete(key(2)))
		require.NoError(t, tr.Put(key(2), []byte("new")))
		v, ok, err := tr.Get(key(2))
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, "new", string(v))
		require.Equal(t, int64(5), count(t, tr))
		commit(t, tx)

		tx = begin(t, b.m, Options{})
		v, ok, err = tx.Tree(root).Get(key(2))
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, "new", string(v))
		require.NoError(t, tx.Rollback())
	})
}

func TestTree_PutThenDelete_SameTxAbsent(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 3)
		tx := begin(t, b.m, Options{})
		tr := tx.Tree(root)
		require.NoError(t, tr.Put(key(10), val(10)))
		require.NoError(t, tr.Delete(key(10)))
		require.False(t, has(t, tr, 10))
		require.Equal(t, int64(3), count(t, tr))
		require.NoError(t, tr.Put(key(10), val(10)))
		require.NoError(t, tr.Delete(key(10)))
		commit(t, tx)
		tx = begin(t, b.m, Options{})
		require.Equal(t, ints(0, 3), visible(t, tx.Tree(root)))
		require.NoError(t, tx.Rollback())
	})
}

func TestCursor_Next_SurvivesPutOnOwnTree(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 10)
		tx := begin(t, b.m, Options{Immediate: true})
		tr := tx.Tree(root)
		c := tr.Cursor()
		var seen []int
		for ok := c.First(); ok; ok = c.Next() {
			k := int(c.Key()[7])
			seen = append(seen, k)
			require.NoError(t, tr.Put(key(k), []byte("updated")))
			if k%3 == 0 {
				require.NoError(t, tr.Delete(key(k+1)))
			}
		}
		require.NoError(t, c.Err())
		c.Close()
		require.Equal(t, []int{0, 2, 3, 5, 6, 8, 9}, seen)
		commit(t, tx)
	})
}

// TestCursor_Next_SkipsTombstoneAddedMidScan starts a scan on a tree with
// no tombstones (the fast path), then deletes keys ahead of the cursor
// without writing storage: Next must notice and skip them.
func TestCursor_Next_SkipsTombstoneAddedMidScan(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 200)
		tx := begin(t, b.m, Options{Immediate: true})
		tr := tx.Tree(root)
		c := tr.Cursor()
		var seen []int
		for ok := c.First(); ok; ok = c.Next() {
			k := int(binary.BigEndian.Uint64(c.Key()))
			seen = append(seen, k)
			v, err := c.Value()
			require.NoError(t, err)
			require.Equal(t, val(k), v)
			if k%50 == 10 {
				require.NoError(t, tr.Delete(key(k+1)))
			}
		}
		require.NoError(t, c.Err())
		c.Close()
		want := []int{}
		for k := range 200 {
			if k%50 != 11 {
				want = append(want, k)
			}
		}
		require.Equal(t, want, seen)
		require.NoError(t, tx.Rollback())
	})
}

func TestCursor_Prev_SurvivesPutOnOwnTree(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 6)
		tx := begin(t, b.m, Options{Immediate: true})
		tr := tx.Tree(root)
		c := tr.Cursor()
		var seen []int
		for ok := c.Last(); ok; ok = c.Prev() {
			k := int(c.Key()[7])
			seen = append(seen, k)
			require.NoError(t, tr.Put(key(100+k), nil))
			v, err := c.Value()
			require.NoError(t, err)
			require.Equal(t, val(k), v)
		}
		c.Close()
		require.Equal(t, []int{5, 4, 3, 2, 1, 0}, seen)
		commit(t, tx)
	})
}

func TestTx_ClearTree_TombstonesEverything(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 30)
		tx := begin(t, b.m, Options{})
		require.NoError(t, tx.ClearTree(root))
		require.Equal(t, int64(0), count(t, tx.Tree(root)))
		require.NoError(t, tx.Tree(root).Put(key(7), val(7)))
		require.Equal(t, []int{7}, visible(t, tx.Tree(root)))
		commit(t, tx)
		tx = begin(t, b.m, Options{})
		require.Equal(t, []int{7}, visible(t, tx.Tree(root)))
		require.NoError(t, tx.Rollback())
	})
}

func TestTree_Count_DropsPhantomTombstones(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 4)
		tx := begin(t, b.m, Options{})
		tr := tx.Tree(root)
		require.NoError(t, tr.Delete(key(2)))
		require.NoError(t, tr.Delete(key(40))) // absent: Delete does not look
		require.Equal(t, int64(3), count(t, tr))
		require.Equal(t, int64(1), tx.Stats().TombstonesBuffered, "the phantom was dropped")
		require.NoError(t, tr.Delete(key(41)))
		commit(t, tx)
		require.Equal(t, int64(1), tx.Stats().TombstonesApplied)
	})
}

func TestCursor_OpenedBeforeUpgrade_KeepsReading(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 5)
		tx := begin(t, b.m, Options{})
		tr := tx.Tree(root)
		c := tr.Cursor()
		require.True(t, c.First())
		require.NoError(t, tr.Delete(key(1))) // upgrades to the writer
		require.NoError(t, tr.Put(key(9), val(9)))
		var seen []int
		for ok := c.Next(); ok; ok = c.Next() {
			seen = append(seen, int(c.Key()[7]))
		}
		require.NoError(t, c.Err())
		c.Close()
		require.Equal(t, []int{2, 3, 4}, seen, "the snapshot minus the tombstone")
		require.Equal(t, []int{0, 2, 3, 4, 9}, visible(t, tr), "a new cursor sees the writes")
		commit(t, tx)
	})
}
