package txn

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/stretchr/testify/require"
)

const killChildEnv = "LADYBUG_TXN_KILL_CHILD"

// TestTx_Commit_BatchDeleteSurvivesSIGKILL runs a child process that commits
// a batch delete, starts another one it never commits, and is then killed
// with SIGKILL: no Close, no checkpoint. The parent reopens the file.
func TestTx_Commit_BatchDeleteSurvivesSIGKILL(t *testing.T) {
	if path := os.Getenv(killChildEnv); path != "" {
		killChild(t, path)
		return
	}
	path := filepath.Join(t.TempDir(), "kill.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestTx_Commit_BatchDeleteSurvivesSIGKILL$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+path)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	var tb table
	sc := bufio.NewScanner(out)
	found := false
	for sc.Scan() {
		if _, err := fmt.Sscanf(sc.Text(), "committed %d %d", &tb.rows, &tb.index); err == nil {
			found = true
			break
		}
	}
	require.True(t, found, "child did not report its commit")
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()

	s := openStore(t, path, storeOpts(nil, storage.SyncFull))
	_, odd := evens(killRows)
	checkTable(t, NewManager(s), tb, odd)
	probs, err := s.IntegrityCheck()
	require.NoError(t, err)
	require.Empty(t, probs)
}

const killRows = 2000

// killChild is the child side: commit, report, start more work, wait to die.
func killChild(t *testing.T, path string) {
	s, err := storage.Open(path, storeOpts(nil, storage.SyncFull))
	require.NoError(t, err)
	m := NewManager(s)
	tb := newTable(t, m, killRows)
	ev, odd := evens(killRows)
	tx := begin(t, m, Options{})
	deleteRows(t, tx, tb, ev)
	commit(t, tx)
	pending := begin(t, m, Options{})
	deleteRows(t, pending, tb, odd)
	fmt.Println(strings.TrimSpace(fmt.Sprintf("committed %d %d", tb.rows, tb.index)))
	time.Sleep(time.Minute) // killed long before
}
