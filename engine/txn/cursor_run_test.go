package txn

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/stretchr/testify/require"
)

// runKeys scans tr with AppendRun (runs of at most max), calling between
// runs after(k) with the last key of each run, and returns the keys seen.
// With cells it reads in-place runs (Cells) wherever the cursor gives one.
func runKeys(t *testing.T, tr *TxTree, max int, cells bool, after func(k int)) []int {
	t.Helper()
	c := tr.Cursor()
	defer c.Close()
	var out []int
	var run []storage.Entry
	for ok := c.First(); ok; ok = c.Next() {
		run = run[:0]
		if r, ok := cellRun(c, max, cells); ok {
			for i := 0; i < r.Len(); i++ {
				run = append(run, storage.Entry{Key: r.Key(i), Value: r.Value(i)})
			}
			require.Equal(t, c.Key(), run[len(run)-1].Key)
		} else {
			run = c.AppendRun(run, max)
		}
		require.NotEmpty(t, run)
		require.LessOrEqual(t, len(run), max)
		for _, e := range run {
			k := int(binary.BigEndian.Uint64(e.Key))
			require.Equal(t, val(k), e.Value)
			out = append(out, k)
		}
		if after != nil {
			after(out[len(out)-1])
		}
	}
	require.NoError(t, c.Err())
	return out
}

// cellRun is c.Cells(max) when cells is set.
func cellRun(c *Cursor, max int, cells bool) (storage.Cells, bool) {
	if !cells {
		return storage.Cells{}, false
	}
	return c.Cells(max)
}

func TestCursor_AppendRun_SeesWhatNextSees(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 700)
		tx := begin(t, b.m, Options{})
		for _, max := range []int{1, 7, 1024} {
			for _, cells := range []bool{false, true} {
				require.Equal(t, ints(0, 700), runKeys(t, tx.Tree(root), max, cells, nil), "max %d cells %v", max, cells)
			}
		}
		require.NoError(t, tx.Rollback())
	})
}

// TestCursor_AppendRun_TombstonesAndWritesBetweenRuns deletes keys ahead of
// the cursor and rewrites its tree between runs: later runs must skip the
// deleted keys and continue after the last key returned.
func TestCursor_AppendRun_TombstonesAndWritesBetweenRuns(t *testing.T) {
	for _, cells := range []bool{false, true} {
		t.Run(fmt.Sprint("cells=", cells), func(t *testing.T) { tombstonesAndWritesBetweenRuns(t, cells) })
	}
}

func tombstonesAndWritesBetweenRuns(t *testing.T, cells bool) {
	eachBackend(t, func(t *testing.T, b *backend) {
		root := newTreeWith(t, b.m, 300)
		tx := begin(t, b.m, Options{Immediate: true})
		tr := tx.Tree(root)
		var deleted []int
		got := runKeys(t, tr, 16, cells, func(k int) {
			if k%5 == 0 && k+1 < 300 {
				require.NoError(t, tr.Delete(key(k+1)))
				deleted = append(deleted, k+1)
			}
			if k%7 == 0 {
				require.NoError(t, tr.Put(key(k), val(k))) // a storage write to the tree
			}
		})
		require.NotEmpty(t, deleted)
		require.Equal(t, ints(0, 300, deleted...), got)
		require.NoError(t, tx.Rollback())
	})
}

// TestTx_Tree_ManyTrees_SameTreePerRoot touches more trees than the linear
// search holds, so lookups move to the map: each root keeps its one *TxTree.
func TestTx_Tree_ManyTrees_SameTreePerRoot(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		tx := begin(t, b.m, Options{Immediate: true})
		var roots []uint32
		var trees []*TxTree
		for i := range 3 * linearTrees {
			root, err := tx.CreateTree()
			require.NoError(t, err)
			tr := tx.Tree(root)
			require.NoError(t, tr.Put(key(i), val(i)))
			roots, trees = append(roots, root), append(trees, tr)
		}
		for i, root := range roots {
			require.Same(t, trees[i], tx.Tree(root))
			require.True(t, has(t, tx.Tree(root), i))
		}
		commit(t, tx)
	})
}
