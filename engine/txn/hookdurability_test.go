package txn

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/vfs"
	"github.com/stretchr/testify/require"
)

// stallFS wraps an FS and calls beforeSync, when set, before every Sync of
// a file whose name ends with "-wal": the commit's tombstone hooks have
// run and its frames are written by then, but not yet made durable.
type stallFS struct {
	vfs.FS
	beforeSync atomic.Pointer[func()]
}

type stallFile struct {
	vfs.File
	fs   *stallFS
	name string
}

func (s *stallFS) Open(name string, readOnly bool) (vfs.File, error) {
	f, err := s.FS.Open(name, readOnly)
	if err != nil {
		return nil, err
	}
	return &stallFile{File: f, fs: s, name: name}, nil
}

func (s *stallFS) Create(name string) (vfs.File, error) {
	f, err := s.FS.Create(name)
	if err != nil {
		return nil, err
	}
	return &stallFile{File: f, fs: s, name: name}, nil
}

func (f *stallFile) Sync() error {
	if fn := f.fs.beforeSync.Load(); fn != nil && strings.HasSuffix(f.name, "-wal") {
		(*fn)()
	}
	return f.File.Sync()
}

// shuffled returns rows in a random order of seed.
func shuffled(rows []int, seed uint64) []int {
	out := slices.Clone(rows)
	rand.New(rand.NewPCG(seed, 7)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// TestTx_Commit_RandomBatchCrashBeforeLogSync deletes a batch in random
// order (every key buffered, applied by the trees' commit hooks) and pulls
// the plug after the hooks applied it to the transaction's pages and the
// log frames were written, right before the log's fsync: after reopening,
// not one row of the batch is gone. A second crash after the sync keeps
// the whole batch deleted.
func TestTx_Commit_RandomBatchCrashBeforeLogSync(t *testing.T) {
	crashFS := vfs.NewCrashFS()
	fs := &stallFS{FS: crashFS}
	o := storeOpts(fs, storage.SyncFull)
	s, err := storage.Open("hook.db", o)
	require.NoError(t, err)
	defer func() { _ = s.Close() }()
	m := NewManager(s)
	const n = 3000
	tb := newTable(t, m, n)
	ev, odd := evens(n)

	tx := begin(t, m, Options{})
	deleteRows(t, tx, tb, shuffled(ev, 1))
	require.Equal(t, int64(2*len(ev)), tx.Stats().TombstonesBuffered)
	var before *vfs.CrashFS
	grab := func() {
		if before == nil {
			before = crashFS.CrashClone(0)
		}
	}
	fs.beforeSync.Store(&grab)
	commit(t, tx)
	fs.beforeSync.Store(nil)
	require.NotNil(t, before, "the commit synced the log")
	require.Equal(t, int64(2*len(ev)), tx.Stats().TombstonesApplied)
	require.Equal(t, int64(2), tx.Stats().ApplyRuns)

	s2 := openStore(t, "hook.db", storeOpts(before, storage.SyncFull))
	checkTable(t, NewManager(s2), tb, ints(0, n))
	probs, err := s2.IntegrityCheck()
	require.NoError(t, err)
	require.Empty(t, probs)

	after := crashFS.CrashClone(0)
	s3 := openStore(t, "hook.db", storeOpts(after, storage.SyncFull))
	checkTable(t, NewManager(s3), tb, odd)
	probs, err = s3.IntegrityCheck()
	require.NoError(t, err)
	require.Empty(t, probs)
}

const hookKillChildEnv = "LADYBUG_TXN_HOOK_KILL_CHILD"

// TestTx_Commit_RandomBatchSIGKILLBeforeLogSync runs a child process that
// commits a random-order batch delete and is killed with SIGKILL while
// that commit waits at the log's fsync, after the tombstone hooks applied
// the batch: no Close, no checkpoint. The parent reopens the file: the
// batch is there whole or not at all (a killed process's written bytes
// survive in the OS, so normally whole), the first commit is intact and the
// file passes the integrity check.
func TestTx_Commit_RandomBatchSIGKILLBeforeLogSync(t *testing.T) {
	if path := os.Getenv(hookKillChildEnv); path != "" {
		hookKillChild(t, path)
		return
	}
	path := filepath.Join(t.TempDir(), "hookkill.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestTx_Commit_RandomBatchSIGKILLBeforeLogSync$")
	cmd.Env = append(os.Environ(), hookKillChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	var tb table
	sc := bufio.NewScanner(out)
	found := false
	for sc.Scan() {
		if _, err := fmt.Sscanf(sc.Text(), "stalled %d %d", &tb.rows, &tb.index); err == nil {
			found = true
			break
		}
	}
	require.True(t, found, "child did not reach the log sync")
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()

	s := openStore(t, path, storeOpts(nil, storage.SyncFull))
	m := NewManager(s)
	tx := begin(t, m, Options{ReadOnly: true})
	left := visible(t, tx.Tree(tb.rows))
	require.NoError(t, tx.Rollback())
	ev, odd := evens(killRows)
	without := ints(0, killRows, ev[:len(ev)/3]...) // the stalled commit lost whole
	if !slices.Equal(left, without) {
		require.Equal(t, odd, left, "the stalled commit is there whole or not at all")
	}
	checkTable(t, m, tb, left)
	probs, err := s.IntegrityCheck()
	require.NoError(t, err)
	require.Empty(t, probs)
}

// hookKillChild is the child side: a committed random-order batch, then a
// second one whose commit stalls at the log's fsync until the parent
// kills the process.
func hookKillChild(t *testing.T, path string) {
	fs := &stallFS{FS: vfs.OS()}
	s, err := storage.Open(path, storeOpts(fs, storage.SyncFull))
	require.NoError(t, err)
	m := NewManager(s)
	tb := newTable(t, m, killRows)
	ev, _ := evens(killRows)
	tx := begin(t, m, Options{})
	deleteRows(t, tx, tb, shuffled(ev[:len(ev)/3], 2))
	commit(t, tx)
	tx = begin(t, m, Options{})
	deleteRows(t, tx, tb, shuffled(ev[len(ev)/3:], 3))
	stall := func() {
		fmt.Printf("stalled %d %d\n", tb.rows, tb.index)
		time.Sleep(time.Minute) // killed long before
	}
	fs.beforeSync.Store(&stall)
	commit(t, tx)
}

// TestTx_Rollback_HugeRandomBatchLeavesFilesByteIdentical buffers a delete
// of every row, in random order, in a store with a 16-page cache (pages
// the batch touched would spill to the log), then rolls back: the
// database file and the log are byte for byte what they were.
func TestTx_Rollback_HugeRandomBatchLeavesFilesByteIdentical(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "huge.db")
	o := storeOpts(nil, storage.SyncFull)
	o.CacheSize = 16 * 4096
	s := openStore(t, path, o)
	m := NewManager(s)
	const n = 20_000
	tb := newTable(t, m, n)
	files := func() map[string][]byte {
		out := map[string][]byte{}
		for _, name := range []string{path, path + "-wal"} {
			b, err := os.ReadFile(name)
			if err == nil {
				out[filepath.Base(name)] = b
			}
		}
		return out
	}
	want := files()
	require.NotEmpty(t, want)

	tx := begin(t, m, Options{})
	require.NoError(t, tx.StartStatement(ctx))
	deleteRows(t, tx, tb, shuffled(ints(0, n), 4))
	require.NoError(t, tx.EndStatement(nil))
	require.NoError(t, tx.StartStatement(ctx))
	require.NoError(t, tx.ClearTree(tb.index))
	require.Error(t, tx.EndStatement(errStmt)) // a failed statement undoes its part
	require.Equal(t, int64(2*n), tx.Stats().TombstonesBuffered)
	require.Equal(t, int64(0), count(t, tx.Tree(tb.rows)))
	require.NoError(t, tx.Rollback())

	got := files()
	require.Equal(t, len(want), len(got))
	for name, b := range want {
		require.True(t, slices.Equal(b, got[name]), "%s changed (%d bytes before, %d after)", name, len(b), len(got[name]))
	}
	checkTable(t, m, tb, ints(0, n))
}
