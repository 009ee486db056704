package txn

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

// keysFrom returns the keys of c from the first >= lo, in order.
func keysFrom(t *testing.T, c *Cursor, lo int) []int {
	t.Helper()
	var out []int
	for ok := c.Seek(key(lo)); ok; ok = c.Next() {
		out = append(out, int(binary.BigEndian.Uint64(c.Key())))
	}
	require.NoError(t, c.Err())
	return out
}

// TestTree_Reopen_ClosedCursorOnOtherTreeAndTx reopens one cursor on
// another tree, then in a later transaction with tombstones: each time it
// must read that tree as a fresh cursor would, nothing left of before.
func TestTree_Reopen_ClosedCursorOnOtherTreeAndTx(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		r1, r2 := newTreeWith(t, b.m, 50), newTreeWith(t, b.m, 20)
		tx := begin(t, b.m, Options{})
		c := tx.Tree(r1).Reopen(nil)
		require.Equal(t, ints(40, 50), keysFrom(t, c, 40))
		c.Close()
		c2 := tx.Tree(r2).Reopen(c)
		require.Same(t, c, c2)
		require.Equal(t, ints(5, 20), keysFrom(t, c2, 5))
		// Reopen without Close closes it first.
		c2 = tx.Tree(r1).Reopen(c2)
		require.Equal(t, ints(45, 50), keysFrom(t, c2, 45))
		c2.Close()
		require.NoError(t, tx.Rollback())

		tx = begin(t, b.m, Options{Immediate: true})
		tr := tx.Tree(r2)
		require.NoError(t, tr.Delete(key(7)))
		c2 = tr.Reopen(c2)
		require.Equal(t, ints(5, 20, 7), keysFrom(t, c2, 5))
		c2.Close()
		require.NoError(t, tx.Rollback())
	})
}
