package ladybug_test

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug"
)

// Many processes on one database file: these tests run this test binary
// again as child processes (mpChildEnv names the role, the file and the
// child's number), which open the database through the driver as any
// program would, and kill them with SIGKILL at random points.

const mpChildEnv = "LADYBUG_MP_CHILD"

const (
	mpAccounts = 50
	mpBalance  = 1000
	mpWriters  = 4 // rows of w: one acknowledged-commit counter per writer
)

// mpDSN: a small autocheckpoint, so checkpoints and log restarts happen
// all the time while the others read and write.
func mpDSN(path string) string {
	return path + "?busy_timeout=10s&_pragma=wal_autocheckpoint(40)"
}

func skipWithoutProcesses(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("on Windows a database is used by one process at a time (TestDriver_Open_LockedFileIsBusy)")
	}
}

// mpChild runs one role until killed (or, for "once" roles, until done):
//
//	writer  transfers between accounts, each commit also counting its
//	        writer's row of w; prints "ack N" once Commit returned N
//	reader  checks in every snapshot that the balances sum to the total
//	        and that no writer's counter went backwards; prints "ok N"
//	hold    takes the writer lock (a write transaction that updated a row)
//	        and prints "holding", then waits to be killed
//	put     commits w.n = 1000+id for its row and prints "done"
//	wait    reads until w's row 0 holds 777, then prints "seen"
func mpChild(spec string) int {
	role, rest, _ := strings.Cut(spec, ":")
	idText, path, _ := strings.Cut(rest, ":")
	id, _ := strconv.Atoi(idText)
	dsn := mpDSN(path)
	if role == "reader" && id%2 == 1 {
		dsn = path + "?mode=ro"
	}
	db, err := sql.Open("ladybug", dsn)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	fail := func(err error) int {
		say("error: %s %d: %v", role, id, err)
		return 1
	}
	switch role {
	case "writer":
		for {
			n, err := mpTransfer(db, id)
			if errors.Is(err, ladybug.ErrBusy) {
				say("busy")
				continue
			}
			if err != nil {
				return fail(err)
			}
			say("ack %d", n)
		}
	case "reader":
		last := make([]int64, mpWriters)
		for i := 0; ; i++ {
			if err := mpCheck(db, last); err != nil {
				return fail(err)
			}
			if i%50 == 0 {
				say("ok %d", i)
			}
		}
	case "hold":
		tx, err := db.Begin()
		if err != nil {
			return fail(err)
		}
		if _, err := tx.Exec(`UPDATE w SET n = -1 WHERE id = 0`); err != nil {
			return fail(err)
		}
		say("holding")
		select {}
	case "put":
		if _, err := db.Exec(`UPDATE w SET n = ? WHERE id = ?`, 1000+id, id); err != nil {
			return fail(err)
		}
		say("done")
		return 0
	case "wait":
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
			var n int64
			if err := db.QueryRow(`SELECT n FROM w WHERE id = 0`).Scan(&n); err != nil {
				return fail(err)
			}
			if n == 777 {
				say("seen")
				return 0
			}
			time.Sleep(time.Millisecond)
		}
		return fail(errors.New("777 never seen"))
	}
	return fail(fmt.Errorf("unknown role %q", role))
}

// mpTransfer moves a random amount between two random accounts and counts
// the commit in writer id's row; it returns the counter committed.
func mpTransfer(db *sql.DB, id int) (int64, error) {
	tx, err := db.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	from, to := rand.IntN(mpAccounts), rand.IntN(mpAccounts)
	amount := rand.IntN(100)
	if _, err := tx.Exec(`UPDATE acct SET bal = bal - ? WHERE id = ?`, amount, from); err != nil {
		return 0, err
	}
	if _, err := tx.Exec(`UPDATE acct SET bal = bal + ? WHERE id = ?`, amount, to); err != nil {
		return 0, err
	}
	if rand.IntN(10) == 0 {
		// Now and then a bigger commit, so the log grows by more than a
		// page or two and commits spill.
		if _, err := tx.Exec(`INSERT INTO pad(v) VALUES (randomblob(3000))`); err != nil {
			return 0, err
		}
		if _, err := tx.Exec(`DELETE FROM pad WHERE rowid < (SELECT max(rowid) FROM pad) - 20`); err != nil {
			return 0, err
		}
	}
	var n int64
	if err := tx.QueryRow(`UPDATE w SET n = n + 1 WHERE id = ? RETURNING n`, id).Scan(&n); err != nil {
		return 0, err
	}
	return n, tx.Commit()
}

// mpCheck reads one snapshot: the balances must sum to the total, and no
// writer's counter may be below what an earlier snapshot showed.
func mpCheck(db *sql.DB, last []int64) error {
	tx, err := db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var sum, count int64
	if err := tx.QueryRow(`SELECT sum(bal), count(*) FROM acct`).Scan(&sum, &count); err != nil {
		return err
	}
	if sum != mpAccounts*mpBalance || count != mpAccounts {
		return fmt.Errorf("invariant violated: %d accounts sum to %d", count, sum)
	}
	rows, err := tx.Query(`SELECT id, n FROM w ORDER BY id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, n int64
		if err := rows.Scan(&id, &n); err != nil {
			return err
		}
		if n < last[id] {
			return fmt.Errorf("writer %d's counter went back from %d to %d", id, last[id], n)
		}
		last[id] = n
	}
	return rows.Err()
}

// mpSetup creates the bank: mpAccounts accounts of mpBalance, a counter
// row per writer, and a table of padding.
func mpSetup(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bank.db")
	db, err := sql.Open("ladybug", path)
	require.NoError(t, err)
	defer db.Close()
	mustExec(t, db, `CREATE TABLE acct (id INTEGER PRIMARY KEY, bal INTEGER NOT NULL)`)
	mustExec(t, db, `CREATE TABLE w (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`)
	mustExec(t, db, `CREATE TABLE pad (v BLOB)`)
	for i := range mpAccounts {
		mustExec(t, db, `INSERT INTO acct VALUES (?, ?)`, i, mpBalance)
	}
	for i := range mpWriters {
		mustExec(t, db, `INSERT INTO w VALUES (?, 0)`, i)
	}
	return path
}

// mpProc is a running child and the lines it printed.
type mpProc struct {
	role string
	id   int
	cmd  *exec.Cmd
	done chan struct{}
}

type mpRun struct {
	t     *testing.T
	path  string
	mu    sync.Mutex
	acked []int64  // per writer: the highest counter a Commit returned
	errs  []string // "error" lines
	busy  int
	oks   int
}

func (r *mpRun) start(role string, id int) *mpProc {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s:%d:%s", mpChildEnv, role, id, r.path))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(r.t, err)
	require.NoError(r.t, cmd.Start())
	p := &mpProc{role: role, id: id, cmd: cmd, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			line := sc.Text()
			r.mu.Lock()
			switch {
			case strings.HasPrefix(line, "ack "):
				n, _ := strconv.ParseInt(line[4:], 10, 64)
				r.acked[id] = max(r.acked[id], n)
			case line == "busy":
				r.busy++
			case strings.HasPrefix(line, "ok "):
				r.oks++
			case strings.HasPrefix(line, "error"):
				r.errs = append(r.errs, line)
			}
			r.mu.Unlock()
		}
	}()
	return p
}

func (p *mpProc) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
	_ = p.cmd.Wait()
}

// TestMultiProcess_BankInvariantUnderKills: reader processes (half of
// them mode=ro) check in every snapshot that transfers keep the total
// constant, while writer processes commit transfers; every so often a
// random child is killed with SIGKILL and started again. At the end no
// invariant broke, no acknowledged commit is missing, the only errors
// were ErrBusy, and the file passes integrity_check. LADYBUG_STRESS=1 runs
// it for a minute (LADYBUG_MP_SECONDS to choose) with more processes.
func TestMultiProcess_BankInvariantUnderKills(t *testing.T) {
	skipWithoutProcesses(t)
	dur, writers, readers := 3*time.Second, 2, 2
	if os.Getenv("LADYBUG_STRESS") != "" {
		dur, writers, readers = time.Minute, mpWriters, 4
		if s, err := strconv.Atoi(os.Getenv("LADYBUG_MP_SECONDS")); err == nil {
			dur = time.Duration(s) * time.Second
		}
	}
	r := &mpRun{t: t, path: mpSetup(t), acked: make([]int64, mpWriters)}
	var procs []*mpProc
	for i := range writers {
		procs = append(procs, r.start("writer", i))
	}
	for i := range readers {
		procs = append(procs, r.start("reader", i))
	}
	kills, walPeak := 0, int64(0)
	killed := make([]int64, mpWriters) // per writer: instances killed
	for end := time.Now().Add(dur); time.Now().Before(end); {
		time.Sleep(time.Duration(100+rand.IntN(300)) * time.Millisecond)
		if fi, err := os.Stat(r.path + "-wal"); err == nil {
			walPeak = max(walPeak, fi.Size())
		}
		i := rand.IntN(len(procs))
		procs[i].kill()
		kills++
		if procs[i].role == "writer" {
			killed[procs[i].id]++
		}
		procs[i] = r.start(procs[i].role, procs[i].id)
	}
	for _, p := range procs {
		p.kill()
		if p.role == "writer" {
			killed[p.id]++
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	require.Empty(t, r.errs)
	t.Logf("%d kills, acknowledged commits %v, %d busy retries, %d reader reports, log peak %d bytes", kills, r.acked, r.busy, r.oks, walPeak)
	var total int64
	for _, n := range r.acked {
		total += n
	}
	require.Positive(t, total, "no writer committed")
	require.Positive(t, r.oks, "no reader checked")

	db, err := sql.Open("ladybug", r.path)
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, mpCheck(db, make([]int64, mpWriters)))
	for id, acked := range r.acked {
		var n int64
		require.NoError(t, db.QueryRow(`SELECT n FROM w WHERE id = ?`, id).Scan(&n))
		// Killed between its commit and its print (Commit returns after
		// the checkpoint it may run), each instance of a writer may leave
		// one commit more than it acknowledged.
		assert.GreaterOrEqual(t, n, acked, "writer %d lost an acknowledged commit", id)
		assert.LessOrEqual(t, n, acked+killed[id], "writer %d", id)
	}
	integrityOK(t, db)
}

// TestMultiProcess_CommitVisibleAcrossProcesses: a commit of this process
// is seen by another process's next read, and the other way round.
func TestMultiProcess_CommitVisibleAcrossProcesses(t *testing.T) {
	skipWithoutProcesses(t)
	r := &mpRun{t: t, path: mpSetup(t), acked: make([]int64, mpWriters)}
	db, err := sql.Open("ladybug", mpDSN(r.path))
	require.NoError(t, err)
	defer db.Close()
	var n int64
	require.NoError(t, db.QueryRow(`SELECT n FROM w WHERE id = 1`).Scan(&n))
	require.Equal(t, int64(0), n)

	w := r.start("wait", 0)
	mustExec(t, db, `UPDATE w SET n = 777 WHERE id = 0`)
	<-w.done
	require.NoError(t, w.cmd.Wait())

	p := r.start("put", 1)
	<-p.done
	require.NoError(t, p.cmd.Wait())
	require.NoError(t, db.QueryRow(`SELECT n FROM w WHERE id = 1`).Scan(&n))
	assert.Equal(t, int64(1001), n, "the other process's commit is visible to the next read")
	assert.Empty(t, r.errs)
}

// TestMultiProcess_WriterHeldElsewhere: while another process holds the
// writer lock, this process's reads go on (and see the last commit), its
// writes wait busy_timeout and fail with ErrBusy; once that process is
// killed mid-transaction, its lock is gone and its change never happened.
func TestMultiProcess_WriterHeldElsewhere(t *testing.T) {
	skipWithoutProcesses(t)
	path := mpSetup(t)
	lines := make(chan string, 10)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=hold:0:%s", mpChildEnv, path))
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	require.Equal(t, "holding", <-lines)

	db, err := sql.Open("ladybug", path+"?busy_timeout=100")
	require.NoError(t, err)
	defer db.Close()
	var n int64
	require.NoError(t, db.QueryRow(`SELECT n FROM w WHERE id = 0`).Scan(&n))
	assert.Equal(t, int64(0), n, "a reader does not wait for the other process's writer")
	start := time.Now()
	_, err = db.Exec(`UPDATE w SET n = 5 WHERE id = 1`)
	assert.True(t, errors.Is(err, ladybug.ErrBusy), "%v", err)
	assert.GreaterOrEqual(t, time.Since(start), 90*time.Millisecond, "the writer waited busy_timeout")

	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	mustExec(t, db, `UPDATE w SET n = 5 WHERE id = 1`)
	require.NoError(t, db.QueryRow(`SELECT n FROM w WHERE id = 0`).Scan(&n))
	assert.Equal(t, int64(0), n, "the killed process's uncommitted change never happened")
	integrityOK(t, db)
}

// TestMultiProcess_ReadOnlyOpenWritesNothing: a mode=ro open of a file
// whose writer was killed (its log holds commits no checkpoint copied)
// reads every commit and changes no byte and no modification time of the
// database, its log or its -shm file.
func TestMultiProcess_ReadOnlyOpenWritesNothing(t *testing.T) {
	skipWithoutProcesses(t)
	r := &mpRun{t: t, path: mpSetup(t), acked: make([]int64, mpWriters)}
	w := r.start("writer", 0)
	for {
		r.mu.Lock()
		acked := r.acked[0]
		r.mu.Unlock()
		if acked >= 30 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	w.kill()
	type fileState struct {
		data  string
		mtime time.Time
	}
	files := func() map[string]fileState {
		m := map[string]fileState{}
		for _, suf := range []string{"", "-wal", "-shm"} {
			fi, err := os.Stat(r.path + suf)
			require.NoError(t, err, suf)
			data, err := os.ReadFile(r.path + suf)
			require.NoError(t, err)
			m[suf] = fileState{string(data), fi.ModTime()}
		}
		return m
	}
	before := files()
	require.NotEmpty(t, before["-wal"].data, "the killed writer left a log")
	db, err := sql.Open("ladybug", r.path+"?mode=ro")
	require.NoError(t, err)
	require.NoError(t, mpCheck(db, make([]int64, mpWriters)))
	var n int64
	require.NoError(t, db.QueryRow(`SELECT n FROM w WHERE id = 0`).Scan(&n))
	r.mu.Lock()
	assert.GreaterOrEqual(t, n, r.acked[0], "the read-only open reads the log's commits")
	r.mu.Unlock()
	_, err = db.Exec(`UPDATE w SET n = 0`)
	assert.Error(t, err)
	require.NoError(t, db.Close())
	assert.Equal(t, before, files(), "a read-only open changed a file")
}
