package txn

import (
	"context"
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/stretchr/testify/require"
)

// backend opens Managers over one database; reopen simulates close+open.
type backend struct {
	name   string
	m      *Manager
	reopen func(t *testing.T) *Manager // nil when the backend cannot persist
	store  func() *storage.Store       // nil for the model
}

// testBusyTimeout keeps the busy-path tests short.
const testBusyTimeout = 200 * time.Millisecond

// memBackend is the in-memory storage model.
func memBackend(t *testing.T, busy time.Duration) *backend {
	return &backend{name: "memkv", m: newManager(newMemStore(busy))}
}

// backends lists every backend the behavioural tests run on.
var backends = []func(t *testing.T, busy time.Duration) *backend{memBackend}

// eachBackend runs fn once per backend.
func eachBackend(t *testing.T, fn func(t *testing.T, b *backend)) {
	eachBackendBusy(t, testBusyTimeout, fn)
}

// eachBackendBusy runs fn once per backend with the given busy timeout.
func eachBackendBusy(t *testing.T, busy time.Duration, fn func(t *testing.T, b *backend)) {
	for _, mk := range backends {
		b := mk(t, busy)
		t.Run(b.name, func(t *testing.T) {
			fn(t, b)
			integrity(t, b) // every test that wrote leaves a consistent store
		})
	}
}

func key(i int) []byte { return binary.BigEndian.AppendUint64(nil, uint64(i)) }

func val(i int) []byte { return []byte(fmt.Sprintf("v%06d", i)) }

var ctx = context.Background()

// begin starts a transaction with one open statement.
func begin(t *testing.T, m *Manager, o Options) *Tx {
	t.Helper()
	tx, err := m.Begin(ctx, o)
	require.NoError(t, err)
	require.NoError(t, tx.StartStatement(ctx))
	return tx
}

// commit closes the statement and commits.
func commit(t *testing.T, tx *Tx) {
	t.Helper()
	require.NoError(t, tx.EndStatement(nil))
	require.NoError(t, tx.Commit())
}

// newTreeWith creates a tree holding keys [0, n) and commits it.
func newTreeWith(t *testing.T, m *Manager, n int) uint32 {
	t.Helper()
	tx := begin(t, m, Options{Immediate: true})
	root, err := tx.CreateTree()
	require.NoError(t, err)
	tr := tx.Tree(root)
	for i := 0; i < n; i++ {
		require.NoError(t, tr.Put(key(i), val(i)))
	}
	commit(t, tx)
	return root
}

// visible returns the keys a cursor sees, as ints, forward.
func visible(t *testing.T, tr *TxTree) []int {
	t.Helper()
	var out []int
	c := tr.Cursor()
	defer c.Close()
	for ok := c.First(); ok; ok = c.Next() {
		out = append(out, int(binary.BigEndian.Uint64(c.Key())))
	}
	require.NoError(t, c.Err())
	return out
}

// visibleBackward returns the keys a cursor sees walking from the end.
func visibleBackward(t *testing.T, tr *TxTree) []int {
	t.Helper()
	var out []int
	c := tr.Cursor()
	defer c.Close()
	for ok := c.Last(); ok; ok = c.Prev() {
		out = append([]int{int(binary.BigEndian.Uint64(c.Key()))}, out...)
	}
	require.NoError(t, c.Err())
	return out
}

// count returns tr.Count, failing the test on error.
func count(t *testing.T, tr *TxTree) int64 {
	t.Helper()
	n, err := tr.Count()
	require.NoError(t, err)
	return n
}

// has reports whether tr has key k.
func has(t *testing.T, tr *TxTree, k int) bool {
	t.Helper()
	_, ok, err := tr.Get(key(k))
	require.NoError(t, err)
	return ok
}

// ints returns [lo, hi) minus the values in skip.
func ints(lo, hi int, skip ...int) []int {
	s := map[int]bool{}
	for _, x := range skip {
		s[x] = true
	}
	var out []int
	for i := lo; i < hi; i++ {
		if !s[i] {
			out = append(out, i)
		}
	}
	return out
}
