package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain lets the test binary stand in for the ladybug command: run with
// LADYBUG_SHELL_MAIN=1 it is the shell.
func TestMain(m *testing.M) {
	if os.Getenv("LADYBUG_SHELL_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// ptyTerm is the shell running on a pseudo-terminal, with everything it
// printed so far.
type ptyTerm struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	seen int // output before this offset has been matched
}

func startTerm(t *testing.T, history string, args ...string) *ptyTerm {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "LADYBUG_SHELL_MAIN=1", "LADYBUG_HISTORY="+history, "TERM=xterm")
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 100})
	require.NoError(t, err)
	tm := &ptyTerm{t: t, cmd: cmd, ptmx: ptmx}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			tm.mu.Lock()
			tm.out.Write(buf[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		ptmx.Close()
	})
	return tm
}

func (tm *ptyTerm) send(s string) {
	_, err := tm.ptmx.Write([]byte(s))
	require.NoError(tm.t, err)
}

// expect waits until want appears in output not matched before, and
// returns the output up to and including it.
func (tm *ptyTerm) expect(want string, timeout time.Duration) string {
	tm.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		tm.mu.Lock()
		all := tm.out.String()
		tm.mu.Unlock()
		if i := strings.Index(all[tm.seen:], want); i >= 0 {
			got := all[tm.seen : tm.seen+i+len(want)]
			tm.seen += i + len(want)
			return got
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("waited %v for %q; output since last match:\n%s", timeout, want, all[tm.seen:])
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestShell_Terminal_EditCancelExit(t *testing.T) {
	dir := t.TempDir()
	history := filepath.Join(dir, "history")
	tm := startTerm(t, history, filepath.Join(dir, "app.db"))
	tm.expect("ladybug> ", 10*time.Second)

	tm.send("CREATE TABLE t(name TEXT, n INTEGER);\r")
	tm.expect("ladybug> ", 5*time.Second)
	tm.send("INSERT INTO t VALUES ('Zoë 日本', 1), ('bob', 22);\r")
	tm.expect("ladybug> ", 5*time.Second)

	// A statement over three lines: continuation prompts, then a table.
	tm.send("SELECT name,\r")
	tm.expect("...> ", 5*time.Second)
	tm.send("  n FROM t\r")
	tm.expect("...> ", 5*time.Second)
	tm.send("ORDER BY n;\r")
	table := tm.expect("└", 5*time.Second)
	tm.expect("ladybug> ", 5*time.Second)
	assert.Contains(t, table, "│ name     │ n  │")
	assert.Contains(t, table, "│ Zoë 日本 │  1 │")
	assert.Contains(t, table, "│ bob      │ 22 │")

	// Ctrl-C cancels a statement that would run forever; the prompt comes back.
	tm.send("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c;\r")
	tm.expect("FROM c;", 5*time.Second) // the echo: the statement now runs
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	tm.send("\x03")
	tm.expect("Error: interrupted", 5*time.Second)
	tm.expect("ladybug> ", 5*time.Second)
	took := time.Since(start)
	t.Logf("Ctrl-C to prompt: %v", took)
	assert.Less(t, took, time.Second, "the prompt should be back well within 200 ms; 1 s leaves room for a loaded machine")

	// Ctrl-C at the prompt drops a half-typed statement.
	tm.send("SELECT 'half\r")
	tm.expect("...> ", 5*time.Second)
	tm.send("\x03")
	tm.expect("ladybug> ", 5*time.Second)
	tm.send("SELECT 40 + 2 AS n;\r")
	tm.expect("│ 42 │", 5*time.Second)
	tm.expect("ladybug> ", 5*time.Second)

	// Ctrl-D exits with status 0.
	tm.send("\x04")
	require.NoError(t, tm.cmd.Wait())
	assert.Equal(t, 0, tm.cmd.ProcessState.ExitCode())

	// The history is kept across sessions: one entry per statement.
	hist, err := os.ReadFile(history)
	require.NoError(t, err)
	assert.Contains(t, string(hist), "SELECT name,   n FROM t ORDER BY n;\n")

	tm2 := startTerm(t, history, filepath.Join(dir, "app.db"))
	tm2.expect("ladybug> ", 10*time.Second)
	tm2.send("\x1b[A") // up arrow: the last statement of the previous session
	tm2.expect("SELECT 40 + 2 AS n;", 5*time.Second)
	tm2.send("\r")
	tm2.expect("│ 42 │", 5*time.Second)
	tm2.expect("ladybug> ", 5*time.Second)
	tm2.send("\x04")
	require.NoError(t, tm2.cmd.Wait())
}
