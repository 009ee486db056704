package txn

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/vfs"
	"github.com/stretchr/testify/require"
)

func init() {
	backends = append(backends, memStorageBackend, fileStorageBackend, tinyCacheBackend)
}

// storeOpts are the options tests open stores with.
func storeOpts(fs vfs.FS, sync storage.SyncMode) storage.Options {
	return storage.Options{FS: fs, Create: true, Sync: sync, BusyTimeout: testBusyTimeout}
}

// openStore opens path on fs and closes it at the end of the test.
func openStore(t testing.TB, path string, o storage.Options) *storage.Store {
	t.Helper()
	s, err := storage.Open(path, o)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// storageBackend is a backend over a real store; reopen closes and opens it.
func storageBackend(t *testing.T, name, path string, o storage.Options) *backend {
	s := openStore(t, path, o)
	b := &backend{name: name, m: NewManager(s)}
	b.reopen = func(t *testing.T) *Manager {
		t.Helper()
		require.NoError(t, s.Close())
		s = openStore(t, path, o)
		b.m = NewManager(s)
		return b.m
	}
	b.store = func() *storage.Store { return s }
	return b
}

func memStorageBackend(t *testing.T, busy time.Duration) *backend {
	o := storeOpts(vfs.NewMemFS(), storage.SyncFull)
	o.BusyTimeout = busy
	return storageBackend(t, "storage-mem", "mem.db", o)
}

func fileStorageBackend(t *testing.T, busy time.Duration) *backend {
	o := storeOpts(nil, storage.SyncNormal)
	o.BusyTimeout = busy
	return storageBackend(t, "storage-file", filepath.Join(t.TempDir(), "txn.db"), o)
}

// tinyCacheBackend forces evictions and spills: 16 pages of cache.
func tinyCacheBackend(t *testing.T, busy time.Duration) *backend {
	o := storeOpts(vfs.NewMemFS(), storage.SyncFull)
	o.BusyTimeout, o.CacheSize = busy, 16*4096
	return storageBackend(t, "storage-tinycache", "tiny.db", o)
}

// persistent runs fn on the backends that can reopen.
func persistent(t *testing.T, fn func(t *testing.T, b *backend)) {
	eachBackend(t, func(t *testing.T, b *backend) {
		if b.reopen == nil {
			t.Skip("backend cannot reopen")
		}
		fn(t, b)
	})
}

// integrity fails the test when the store's integrity check reports problems.
func integrity(t *testing.T, b *backend) {
	t.Helper()
	if b.store == nil {
		return
	}
	probs, err := b.store().IntegrityCheck()
	require.NoError(t, err)
	require.Empty(t, probs)
}
