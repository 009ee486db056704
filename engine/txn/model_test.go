package txn

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// txModel is the expected state of one transaction: a map per undo point.
type txModel struct {
	cur   map[int]string
	saves []map[int]string
	names []string
	stmt  map[int]string // state at the open statement's start
	nsave int            // savepoints open at the statement's start
}

// TestTx_RandomOps_MatchModel runs random writes, statements and savepoints
// against a Go map model and checks every visible state and the committed
// result.
func TestTx_RandomOps_MatchModel(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		seed := uint64(time.Now().UnixNano())
		t.Logf("seed %d", seed)
		r := rand.New(rand.NewPCG(seed, 7))
		root := newTreeWith(t, b.m, 0)
		committed := map[int]string{}
		for round := 0; round < 40; round++ {
			committed = runModelRound(t, b.m, root, r, committed)
		}
	})
}

func runModelRound(t *testing.T, m *Manager, root uint32, r *rand.Rand, committed map[int]string) map[int]string {
	tx := begin(t, m, Options{})
	md := &txModel{cur: maps.Clone(committed), stmt: maps.Clone(committed)}
	for op := 0; op < 60; op++ {
		modelStep(t, tx, root, r, md)
		checkModel(t, tx.Tree(root), md.cur)
	}
	require.NoError(t, tx.EndStatement(nil))
	if r.IntN(3) == 0 {
		require.NoError(t, tx.Rollback())
	} else {
		require.NoError(t, tx.Commit())
		committed = md.cur
	}
	check := begin(t, m, Options{ReadOnly: true})
	checkModel(t, check.Tree(root), committed)
	require.NoError(t, check.Rollback())
	return committed
}

func modelStep(t *testing.T, tx *Tx, root uint32, r *rand.Rand, md *txModel) {
	tr := tx.Tree(root)
	k := r.IntN(40)
	switch p := r.IntN(100); {
	case p < 35:
		v := string(val(r.IntN(1000)))
		if _, present := md.cur[k]; !present && r.IntN(2) == 0 {
			require.NoError(t, tr.Insert(key(k), []byte(v)))
		} else {
			require.NoError(t, tr.Put(key(k), []byte(v)))
		}
		md.cur[k] = v
	case p < 55:
		require.NoError(t, tr.Delete(key(k)))
		delete(md.cur, k)
	case p < 70:
		found, err := tr.Remove(key(k))
		require.NoError(t, err)
		_, want := md.cur[k]
		require.Equal(t, want, found)
		delete(md.cur, k)
	case p < 78:
		name := []string{"a", "b", "c"}[r.IntN(3)]
		require.NoError(t, tx.Savepoint(name))
		md.saves = append(md.saves, maps.Clone(md.cur))
		md.names = append(md.names, name)
	case p < 85 && len(md.names) > 0:
		i := lastIndex(md.names, md.names[r.IntN(len(md.names))])
		require.NoError(t, tx.RollbackTo(md.names[i]))
		md.saves, md.names = md.saves[:i+1], md.names[:i+1]
		md.cur = maps.Clone(md.saves[i])
		if i < md.nsave { // rewound past the statement's start
			md.stmt = maps.Clone(md.cur)
		}
		md.nsave = min(md.nsave, i+1)
	case p < 90 && len(md.names) > 0:
		i := lastIndex(md.names, md.names[r.IntN(len(md.names))])
		require.NoError(t, tx.Release(md.names[i]))
		md.saves, md.names = md.saves[:i], md.names[:i]
		md.nsave = min(md.nsave, i)
	default:
		fail := r.IntN(2) == 0
		if fail {
			require.Error(t, tx.EndStatement(errStmt))
			md.cur = maps.Clone(md.stmt)
			md.saves, md.names = md.saves[:md.nsave], md.names[:md.nsave]
		} else {
			require.NoError(t, tx.EndStatement(nil))
		}
		require.NoError(t, tx.StartStatement(ctx))
		md.stmt = maps.Clone(md.cur)
		md.nsave = len(md.saves)
	}
}

func lastIndex(names []string, name string) int {
	for i := len(names) - 1; i >= 0; i-- {
		if names[i] == name {
			return i
		}
	}
	return -1
}

func checkModel(t *testing.T, tr *TxTree, want map[int]string) {
	t.Helper()
	keys := slices.Sorted(maps.Keys(want))
	got := visible(t, tr)
	if len(keys) == 0 {
		keys = nil
	}
	require.Equal(t, keys, got)
	require.Equal(t, int64(len(want)), count(t, tr))
	for k, v := range want {
		g, ok, err := tr.Get(key(k))
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, v, string(g))
	}
}
