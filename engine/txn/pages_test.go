package txn

import (
	"fmt"
	"testing"

	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/vfs"
	"github.com/stretchr/testify/require"
)

// TestTx_Commit_ContiguousDeletesModifyEachPageOnce deletes 10,000
// contiguous keys in one transaction and checks, with the store's page
// counters, that the apply modified about keys ÷ keys-per-page pages.
func TestTx_Commit_ContiguousDeletesModifyEachPageOnce(t *testing.T) {
	for _, cache := range []int64{0, 16 * 4096} {
		t.Run(fmt.Sprintf("cache=%d", cache), func(t *testing.T) { testPagesOnce(t, cache) })
	}
}

func testPagesOnce(t *testing.T, cache int64) {
	o := storeOpts(vfs.NewMemFS(), storage.SyncFull)
	o.CacheSize = cache
	s := openStore(t, "pages.db", o)
	m := NewManager(s)
	const rows, deletes = 30_000, 10_000
	pagesBefore := s.PageCount()
	root := newTreeWith(t, m, rows)
	perPage := float64(rows) / float64(s.PageCount()-pagesBefore)
	spanned := float64(deletes) / perPage
	t.Logf("%.1f keys per page: %d deletes span %.0f leaf pages", perPage, deletes, spanned)

	commitsBefore := s.Stats().CommitPages
	tx := begin(t, m, Options{})
	for i := 0; i < deletes; i++ {
		require.NoError(t, tx.Tree(root).Delete(key(rows/3+i)))
	}
	commit(t, tx)
	st := tx.Stats()
	written := s.Stats().CommitPages - commitsBefore
	t.Logf("apply: %d tombstones, %d runs, %d pages modified; commit wrote %d pages",
		st.TombstonesApplied, st.ApplyRuns, st.PagesModified, written)

	require.Equal(t, int64(deletes), st.TombstonesApplied)
	require.Equal(t, int64(1), st.ApplyRuns, "one batched run for the one tree")
	require.GreaterOrEqual(t, float64(st.PagesModified), 0.5*spanned)
	require.LessOrEqual(t, float64(st.PagesModified), 1.5*spanned+8, "not one page write per key")
	require.LessOrEqual(t, float64(written), 1.5*spanned+8)

	check := begin(t, m, Options{ReadOnly: true})
	require.Equal(t, int64(rows-deletes), count(t, check.Tree(root)))
	require.NoError(t, check.Rollback())
	probs, err := s.IntegrityCheck()
	require.NoError(t, err)
	require.Empty(t, probs)
}
