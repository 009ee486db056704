package main

import (
	"bytes"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runShell runs the command in-process with stdin read from a file.
func runShell(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	in := filepath.Join(t.TempDir(), "stdin")
	require.NoError(t, os.WriteFile(in, []byte(stdin), 0o644))
	f, err := os.Open(in)
	require.NoError(t, err)
	defer f.Close()
	var out, errOut bytes.Buffer
	code = run(args, f, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestRun_Arguments_EachStatementInTurn(t *testing.T) {
	db := filepath.Join(t.TempDir(), "app.db")
	code, out, errOut := runShell(t, "", db, "CREATE TABLE t(a, b)", "INSERT INTO t VALUES (1, 'x'), (2, NULL)", ".mode csv", "SELECT * FROM t")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "1,x\n2,\n", out)

	code, out, _ = runShell(t, "", "-json", db, "SELECT a FROM t ORDER BY a DESC")
	assert.Equal(t, 0, code)
	assert.Equal(t, "[{\"a\":2},\n{\"a\":1}]\n", out)
}

func TestRun_ErrorExitsNonZero_WithPositionAndCaret(t *testing.T) {
	code, out, errOut := runShell(t, "", ":memory:", "SELECT 1", "SELECT 2 FROM WHERE", "SELECT 3")
	assert.Equal(t, 1, code)
	assert.Equal(t, "1\n3\n", out, "without -bail the statements after the error still run")
	assert.Equal(t, "Error: arg2:1:15: near \"WHERE\": syntax error\n  SELECT 2 FROM WHERE\n                ^\n", errOut)

	code, out, _ = runShell(t, "", "-bail", ":memory:", "SELECT 1", "SELECT nosuch", "SELECT 3")
	assert.Equal(t, 1, code)
	assert.Equal(t, "1\n", out, "-bail stops at the first error")
}

func TestRun_StdinScript_AndCmd(t *testing.T) {
	script := "CREATE TABLE t(a);\nINSERT INTO t\n  VALUES (1), (2);\nSELECT sum(a) AS total FROM t;\n"
	code, out, errOut := runShell(t, script, "-cmd", ".headers on", "-cmd", ".mode csv", ":memory:")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "total\n3\n", out)

	code, _, errOut = runShell(t, "SELECT 1;\nSELECT * FROM nope;\n", ":memory:")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "Error: stdin:2:15: no such table: nope")
}

func TestRun_ReadOnly_RefusesWrites(t *testing.T) {
	db := filepath.Join(t.TempDir(), "app.db")
	code, _, _ := runShell(t, "", db, "CREATE TABLE t(a)")
	require.Equal(t, 0, code)
	code, out, errOut := runShell(t, "", "-readonly", db, "SELECT count(*) FROM t", "INSERT INTO t VALUES (1)")
	assert.Equal(t, 1, code)
	assert.Equal(t, "0\n", out)
	assert.Contains(t, errOut, "readonly")
}

func TestRun_ForeignFiles_OneClearLine_FileUntouched(t *testing.T) {
	dir := t.TempDir()
	lite := filepath.Join(dir, "app.sqlite")
	header := append([]byte("SQLite format 3\x00"), make([]byte, 4080)...)
	require.NoError(t, os.WriteFile(lite, header, 0o644))
	code, _, errOut := runShell(t, "", lite, ".tables")
	assert.Equal(t, 1, code)
	assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	assert.Contains(t, errOut, "is an SQLite database, not a ladybug one")
	after, _ := os.ReadFile(lite)
	assert.Equal(t, header, after, "the SQLite file is not modified")

	txt := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(txt, []byte("hello, world\n"), 0o644))
	code, _, errOut = runShell(t, "", txt, ".tables")
	assert.Equal(t, 1, code)
	assert.Equal(t, "Error: "+txt+" is not a ladybug database (its first bytes are not ladybug's header)\n", errOut)

	// A ladybug file of a newer format version.
	newer := filepath.Join(dir, "newer.db")
	code, _, _ = runShell(t, "", newer, "CREATE TABLE t(a)")
	require.Equal(t, 0, code)
	raw, err := os.ReadFile(newer)
	require.NoError(t, err)
	raw[11] = 9 // the format version after the 8-byte magic
	require.NoError(t, os.WriteFile(newer, raw, 0o644))
	code, _, errOut = runShell(t, "", newer, ".tables")
	assert.Equal(t, 1, code)
	assert.Equal(t, "Error: "+newer+" is in ladybug file format version 9, which this ladybug cannot read: it was written by a newer ladybug\n", errOut)

	code, _, errOut = runShell(t, "", "-nosuch")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "unknown option -nosuch")
}

// A database another process has open: the shell reads it, and a write
// while that process holds the write lock fails after busy_timeout with
// one line.
func TestRun_FileOpenInAnotherProcess_ReadsAndWaitsToWrite(t *testing.T) {
	db := filepath.Join(t.TempDir(), "app.db")
	holder, err := sql.Open("ladybug", db)
	require.NoError(t, err)
	defer holder.Close()
	_, err = holder.Exec("CREATE TABLE t(a); INSERT INTO t VALUES (1), (2)")
	require.NoError(t, err)

	run := func(args ...string) (int, string, string) {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "LADYBUG_SHELL_MAIN=1")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		_ = cmd.Run()
		return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
	}
	code, out, errOut := run(db, "SELECT count(*) FROM t")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "2\n", out)

	tx, err := holder.Begin()
	require.NoError(t, err)
	defer tx.Rollback() //nolint:errcheck
	_, err = tx.Exec("INSERT INTO t VALUES (3)")
	require.NoError(t, err)
	code, out, errOut = run(db, "PRAGMA busy_timeout=50", "SELECT count(*) FROM t", "INSERT INTO t VALUES (4)")
	assert.Equal(t, 1, code)
	assert.Equal(t, "50\n2\n", out, "a reader in another process sees the last commit, not the open transaction")
	assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	assert.Contains(t, errOut, "database is locked")
}

// Files the engine refuses at open: each one line naming the cause.
func TestRun_EngineRefusals_OneLine(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.db")
	require.NoError(t, os.WriteFile(junk, []byte("LADYBUG\x00garbage garbage garbage"), 0o644))
	empty := filepath.Join(dir, "empty.db")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{junk, ".tables"}, "Error: " + junk + " is not a ladybug database (bad magic)\n"},
		{[]string{"-readonly", empty, ".tables"}, "Error: " + empty + " is not a ladybug database (file is not a database)\n"},
		{[]string{filepath.Join(dir, "no", "such", "dir.db"), ".tables"}, "Error: cannot open " + filepath.Join(dir, "no", "such", "dir.db") + ": no such file or directory\n"},
	} {
		code, _, errOut := runShell(t, "", c.args...)
		assert.Equal(t, 1, code, c.args)
		assert.Equal(t, c.want, errOut, c.args)
	}
}

// SIGINT during a script cancels the running statement and stops the
// script, with a non-zero exit status.
func TestRun_ScriptInterrupted_StopsWithError(t *testing.T) {
	cmd := exec.Command(os.Args[0], ":memory:")
	cmd.Env = append(os.Environ(), "LADYBUG_SHELL_MAIN=1")
	cmd.Stdin = strings.NewReader("SELECT 'started';\nWITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c;\nSELECT 'not reached';\n")
	var out lockedBuffer
	var errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	require.NoError(t, cmd.Start())
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "started") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	err := cmd.Wait()
	require.Error(t, err)
	assert.Equal(t, 1, cmd.ProcessState.ExitCode())
	assert.Equal(t, "started\n", out.String())
	assert.Equal(t, "Error: interrupted\n", errOut.String())
}

// lockedBuffer is a bytes.Buffer the test reads while a process writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
