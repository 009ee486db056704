package storage

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/vfs"
)

// Processes killed at named points of the multi-process protocol (see
// Store.crashAt): the test binary runs again as a child that opens the
// database beside a Store of the parent, commits, and kills itself with
// SIGKILL at the point; the parent's Store, still open, then continues.

const killPointEnv = "LADYBUG_STORAGE_KILLPOINT_CHILD"

// kpValue is the value of key i written by phase tag: long enough that a
// few hundred keys span many leaf pages.
func kpValue(tag string, i int) string {
	return fmt.Sprintf("%s-%d-", tag, i) + strings.Repeat("x", 200)
}

// killPointChild runs the child (spec "point:root:n:path"): it commits
// keys 1..n of tree root in commits of ten keys ("v1"), printing "ack K"
// once the commit holding key K returned, then arms the point and does
// what reaches it, where it kills itself:
//
//	commit-unpublished  commits keys n+1..n+10 ("v1")
//	commit-begin        commits keys n+1..n+100 ("v1") in one transaction
//	restart-begin, restart-header
//	                    a full checkpoint (which restarts the log)
//	truncate-cut        a truncating checkpoint (which cuts the log)
//	checkpoint-copy     a full checkpoint; keys n/2+1..n again ("v2");
//	                    prints "half" and waits for a line on stdin (the
//	                    parent opens a reader); keys 1..n again ("v3");
//	                    prints "ready" and waits for a line (the parent
//	                    reads the newest commit); a full checkpoint
//	clone               (no point) a full checkpoint (the log restarts:
//	                    "v1" is all in the main file), prints "v1" and
//	                    waits for a line (the parent clones); keys 1..n
//	                    again ("v2"), a full checkpoint, keys 1..n again
//	                    ("v3"), a full checkpoint
//
// It prints "survived" if the point was never reached.
func killPointChild(spec string) int {
	f := strings.SplitN(spec, ":", 4)
	if len(f) != 4 {
		fmt.Println("bad spec", spec)
		return 2
	}
	point, path := f[0], f[3]
	root, _ := strconv.Atoi(f[1])
	n, _ := strconv.Atoi(f[2])
	var armed atomic.Bool
	// A small cache: a transaction of 100 keys spills pages to the log.
	opts := Options{FS: vfs.OS(), CheckpointFrames: 1 << 20, CacheSize: 16 << 10, crashPoint: func(p string) {
		if armed.Load() && p == point {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	}}
	s, err := Open(path, opts)
	if err != nil {
		fmt.Println("error:", err)
		return 2
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	fail := func(err error) int {
		say("error: %v", err)
		return 2
	}
	put := func(lo, hi int, tag string) error {
		for k := lo; k <= hi; k += 10 {
			tx, err := s.BeginWrite(context.Background())
			if err != nil {
				return err
			}
			last := min(k+9, hi)
			if hi-lo == 99 {
				last = hi // one transaction
			}
			for i := k; i <= last; i++ {
				if err := tx.Tree(uint32(root)).Put(key(i), []byte(kpValue(tag, i))); err != nil {
					tx.Rollback()
					return err
				}
			}
			if err := tx.Commit(); err != nil {
				return err
			}
			say("ack %d", last)
		}
		return nil
	}
	full := func() error {
		_, err := s.Checkpoint(context.Background(), CheckpointFull)
		return err
	}
	if err := put(1, n, "v1"); err != nil {
		return fail(err)
	}
	switch point {
	case "commit-unpublished":
		armed.Store(true)
		err = put(n+1, n+10, "v1")
	case "commit-begin":
		armed.Store(true)
		err = put(n+1, n+100, "v1")
	case "restart-begin", "restart-header":
		armed.Store(true)
		err = full()
	case "truncate-cut":
		armed.Store(true)
		_, err = s.Checkpoint(context.Background(), CheckpointTruncate)
	case "clone":
		if err = full(); err == nil {
			say("v1")
			_, err = bufio.NewReader(os.Stdin).ReadString('\n')
		}
		if err == nil {
			err = put(1, n, "v2")
		}
		if err == nil {
			err = full()
		}
		if err == nil {
			err = put(1, n, "v3")
		}
		if err == nil {
			err = full()
		}
	case "checkpoint-copy":
		in := bufio.NewReader(os.Stdin)
		if err = full(); err == nil {
			err = put(n/2+1, n, "v2")
		}
		if err == nil {
			say("half")
			_, err = in.ReadString('\n')
		}
		if err == nil {
			err = put(1, n, "v3")
		}
		if err == nil {
			say("ready")
			_, err = in.ReadString('\n')
		}
		if err == nil {
			armed.Store(true)
			err = full()
		}
	default:
		err = fmt.Errorf("unknown point %q", point)
	}
	if err != nil {
		return fail(err)
	}
	say("survived")
	return 0
}

// kpChild is a running child of killPointChild.
type kpChild struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	acked int // the last key whose commit the child acknowledged
	err   strings.Builder
}

func startKillPoint(t *testing.T, point string, root uint32, n int, path string) *kpChild {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c := &kpChild{lines: make(chan string, 1000)}
	c.cmd = exec.Command(exe, "-test.run=^$")
	c.cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s:%d:%d:%s", killPointEnv, point, root, n, path))
	c.cmd.Stderr = &c.err
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	return c
}

// until reads the child's lines, counting acknowledgements, until want
// (or, want empty, until the child's output ends); it fails on anything
// unexpected.
func (c *kpChild) until(t *testing.T, want string) {
	t.Helper()
	for line := range c.lines {
		if a, ok := strings.CutPrefix(line, "ack "); ok {
			c.acked, _ = strconv.Atoi(a)
			continue
		}
		if line == want {
			return
		}
		t.Fatalf("child: %s\n%s", line, c.err.String())
	}
	if want != "" {
		t.Fatalf("child ended before %q\n%s", want, c.err.String())
	}
}

// killed waits for the child to end and fails unless SIGKILL ended it.
func (c *kpChild) killed(t *testing.T) {
	t.Helper()
	c.until(t, "")
	err := c.cmd.Wait()
	ws, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child was not killed at its point: %v\n%s", err, c.err.String())
	}
}

// exited waits for the child to print "survived" and exit.
func (c *kpChild) exited(t *testing.T) {
	t.Helper()
	c.until(t, "survived")
	c.until(t, "")
	if err := c.cmd.Wait(); err != nil {
		t.Fatalf("child: %v\n%s", err, c.err.String())
	}
}

// kpSetup opens the parent's Store on a new file and creates the tree.
func kpSetup(t *testing.T) (*Store, uint32, string) {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("processes share a database on Linux and macOS")
	}
	path := filepath.Join(t.TempDir(), "db")
	b, err := Open(path, Options{FS: vfs.OS(), Create: true, BusyTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, newTreeT(t, b), path
}

// kpRead returns the values of keys 1..n in a new read transaction of s,
// failing the test if that does not return within a long bound (a reader
// waiting for a dead process to finish its change would wait forever).
func kpRead(t *testing.T, s *Store, root uint32, n int) map[int]string {
	t.Helper()
	type result struct {
		m   map[int]string
		err error
	}
	done := make(chan result, 1)
	go func() {
		tx, err := s.BeginRead()
		if err != nil {
			done <- result{err: err}
			return
		}
		m, err := kpValues(tx, root, n)
		tx.Rollback() // before the result: the caller may close s next
		done <- result{m, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.m
	case <-time.After(20 * time.Second):
		t.Fatal("a read transaction still waits for the killed process")
		return nil
	}
}

// Keys the parent writes, apart from the child's 1..n.
const (
	kpAfter = 1_000_001 // kpFinish's commit
	kpNext  = 1_000_002 // the adopt test's commit
)

// kpValues returns every value of the tree by key number: keys 1..n+100
// (more than any child writes) and the parent's; the tree's row count
// must match.
func kpValues(tx *Tx, root uint32, n int) (map[int]string, error) {
	m := map[int]string{}
	tr := tx.Tree(root)
	for _, r := range [][2]int{{1, n + 100}, {kpAfter, kpNext}} {
		for i := r[0]; i <= r[1]; i++ {
			v, ok, err := tr.Get(key(i))
			if err != nil {
				return nil, err
			}
			if ok {
				m[i] = string(v)
			}
		}
	}
	if c, err := tr.Count(); err != nil || int(c) != len(m) {
		return nil, fmt.Errorf("tree counts %d rows (%v), the keys find %d", c, err, len(m))
	}
	return m, nil
}

// kpExpect fails unless the child's keys in got are 1..n, key i with
// want(i).
func kpExpect(t *testing.T, what string, got map[int]string, n int, want func(i int) string) {
	t.Helper()
	child := 0
	for i := range got {
		if i < kpAfter {
			child++
		}
	}
	if child != n {
		t.Fatalf("%s: %d keys, want %d", what, child, n)
	}
	for i := 1; i <= n; i++ {
		if got[i] != want(i) {
			t.Fatalf("%s: key %d = %.12q, want %.12q", what, i, got[i], want(i))
		}
	}
}

func v1(i int) string { return kpValue("v1", i) }

// kpFinish writes with s, then reopens the file after s closes (the
// first opener replays the log) and checks the contents and integrity.
func kpFinish(t *testing.T, s *Store, root uint32, path string, n int, want func(i int) string) {
	t.Helper()
	tx := mustWrite(t, s)
	if err := tx.Tree(root).Put(key(kpAfter), []byte("after")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	checkIntegrity(t, s)
	kpExpect(t, "after the parent's commit", kpRead(t, s, root, n), n, want)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path, Options{FS: vfs.OS()})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	checkIntegrity(t, r)
	kpExpect(t, "reopened", kpRead(t, r, root, n), n, want)
	if got := kpRead(t, r, root, n)[kpAfter]; got != "after" {
		t.Fatalf("reopened: the parent's commit reads %q", got)
	}
}

// A writer killed after its commit record is durable in the log but
// before it updated the shared state: the commit was not acknowledged,
// but a read-only process may already read it (it follows the log by its
// size), so the next writer adopts it rather than writing over it.
func TestKillPoint_CommitUnpublishedIsAdopted(t *testing.T) {
	b, root, path := kpSetup(t)
	const n = 50
	c := startKillPoint(t, "commit-unpublished", root, n, path)
	c.killed(t)
	if c.acked != n {
		t.Fatalf("child acknowledged %d, want %d", c.acked, n)
	}
	kpExpect(t, "before the next writer", kpRead(t, b, root, n), n, v1)
	ro, err := Open(path, Options{FS: vfs.OS(), ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	kpExpect(t, "read-only open", kpRead(t, ro, root, n+10), n+10, v1)
	// The next writer takes the dead writer's commit in, and writes after it.
	tx := mustWrite(t, b)
	if err := tx.Tree(root).Put(key(kpNext), []byte("next")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Store{b, ro} {
		tx := mustRead(t, s)
		m, err := kpValues(tx, root, n+10)
		tx.Rollback()
		if err != nil {
			t.Fatal(err)
		}
		kpExpect(t, "after the next commit", m, n+10, v1)
		if m[kpNext] != "next" {
			t.Fatalf("after the next commit: its key reads %q", m[kpNext])
		}
	}
	checkIntegrity(t, ro)
	ro.Close()
	kpFinish(t, b, root, path, n+10, v1)
}

// A process killed while it restarts the log (the shared change counter
// left odd, before or after the restarted log's header is written, or
// after wal_checkpoint(TRUNCATE) cut the log file to nothing): the
// other process's next reader repairs the shared state from the files
// instead of waiting forever, and loses no acknowledged commit.
func TestKillPoint_MidLogRestart(t *testing.T) {
	for _, point := range []string{"restart-begin", "restart-header", "truncate-cut"} {
		t.Run(point, func(t *testing.T) {
			b, root, path := kpSetup(t)
			const n = 200
			before := b.sh.word(shmGen).Load()
			c := startKillPoint(t, point, root, n, path)
			c.killed(t)
			if c.acked != n {
				t.Fatalf("child acknowledged %d, want %d", c.acked, n)
			}
			if b.sh.word(shmChg).Load()&1 == 0 {
				t.Fatal("the killed restart left the change counter even")
			}
			kpExpect(t, "after the kill", kpRead(t, b, root, n), n, v1)
			if b.sh.word(shmChg).Load()&1 != 0 || b.sh.word(shmGen).Load() == before {
				t.Fatal("the shared state was not repaired into a new generation")
			}
			// A third Store joining now reads the same.
			o, err := Open(path, Options{FS: vfs.OS()})
			if err != nil {
				t.Fatal(err)
			}
			kpExpect(t, "a new opener", kpRead(t, o, root, n), n, v1)
			checkIntegrity(t, o)
			if err := o.Close(); err != nil {
				t.Fatal(err)
			}
			kpFinish(t, b, root, path, n, v1)
		})
	}
}

// A process killed in the middle of a checkpoint, half of its pages
// copied into the main file, while a reader of another process holds an
// older snapshot: the copy stopped at that snapshot, so the reader keeps
// reading it (the pages it reads from the main file are not overwritten);
// the survivor's readers see every acknowledged commit, and its own
// checkpoints finish the job.
func TestKillPoint_MidCheckpoint(t *testing.T) {
	b, root, path := kpSetup(t)
	const n = 200
	c := startKillPoint(t, "checkpoint-copy", root, n, path)
	c.until(t, "half")
	v2 := func(i int) string {
		if i > n/2 {
			return kpValue("v2", i)
		}
		return v1(i)
	}
	// The reader reads nothing before the kill: the pages it reads from
	// the main file are not in this process's cache.
	rt := mustRead(t, b)
	defer rt.Rollback()
	if _, err := c.stdin.Write([]byte("go\n")); err != nil {
		t.Fatal(err)
	}
	// This process follows the newer commits: the oldest snapshot it
	// publishes must stay rt's.
	c.until(t, "ready")
	kpExpect(t, "a new reader before the checkpoint", kpRead(t, b, root, n), n, func(i int) string { return kpValue("v3", i) })
	if _, err := c.stdin.Write([]byte("go\n")); err != nil {
		t.Fatal(err)
	}
	c.killed(t)
	if c.acked != n {
		t.Fatalf("child acknowledged %d, want %d", c.acked, n)
	}
	v3 := func(i int) string { return kpValue("v3", i) }
	check := func(what string) {
		t.Helper()
		m, err := kpValues(rt, root, n)
		if err != nil {
			t.Fatal(err)
		}
		kpExpect(t, what+": the old snapshot", m, n, v2)
		kpExpect(t, what+": a new reader", kpRead(t, b, root, n), n, v3)
	}
	check("after the kill")
	// The survivor checkpoints (up to the old snapshot) and writes on.
	if _, err := b.Checkpoint(context.Background(), CheckpointPassive); err != nil {
		t.Fatal(err)
	}
	check("after the survivor's checkpoint")
	rt.Rollback()
	if r, err := b.Checkpoint(context.Background(), CheckpointFull); err != nil || r.Busy {
		t.Fatalf("full checkpoint: %+v, %v", r, err)
	}
	kpFinish(t, b, root, path, n, v3)
}

// A clone of a file database (which reads a snapshot of the file through
// its source Store) while another process commits and checkpoints: the
// other process's checkpoints stop at the clone's snapshot, so the pages
// the clone reads from the main file stay as they were; once the clone is
// gone, the log restarts.
func TestKillPoint_CloneWhileOtherProcessCheckpoints(t *testing.T) {
	b, root, path := kpSetup(t)
	const n = 200
	c := startKillPoint(t, "clone", root, n, path)
	c.until(t, "v1")
	cl, err := b.Clone(context.Background(), vfs.NewCowFS(), "/clone", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if _, err := c.stdin.Write([]byte("go\n")); err != nil {
		t.Fatal(err)
	}
	c.exited(t)
	// The clone reads its pages only now, none of them cached.
	kpExpect(t, "the clone", kpRead(t, cl, root, n), n, v1)
	v3 := func(i int) string { return kpValue("v3", i) }
	kpExpect(t, "a new reader", kpRead(t, b, root, n), n, v3)
	checkIntegrity(t, cl)
	restarts := b.Stats().LogRestarts
	if r, err := b.Checkpoint(context.Background(), CheckpointFull); err != nil || !r.Busy {
		t.Fatalf("checkpoint under the clone: %+v, %v", r, err)
	}
	if err := cl.Close(); err != nil {
		t.Fatal(err)
	}
	if r, err := b.Checkpoint(context.Background(), CheckpointFull); err != nil || r.Busy {
		t.Fatalf("checkpoint once the clone closed: %+v, %v", r, err)
	}
	if b.Stats().LogRestarts == restarts {
		t.Fatal("the log did not restart once the clone closed")
	}
	kpFinish(t, b, root, path, n, v3)
}

// A writer killed inside a large transaction, its spilled pages written
// to the log after the shared end but no commit record: the next writer
// adopts nothing and writes over them, and no process (the survivor, a
// read-only one following the log by its size) ever reads them.
func TestKillPoint_TornTransactionIsNotAdopted(t *testing.T) {
	b, root, path := kpSetup(t)
	const n = 50
	c := startKillPoint(t, "commit-begin", root, n, path)
	c.killed(t)
	if c.acked != n {
		t.Fatalf("child acknowledged %d, want %d", c.acked, n)
	}
	size, err := vfs.OS().Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if end := int64(b.sh.word(shmEnd).Load()); size <= end {
		t.Fatalf("the killed transaction spilled nothing: log %d bytes, shared end %d", size, end)
	}
	ro, err := Open(path, Options{FS: vfs.OS(), ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	kpExpect(t, "read-only open", kpRead(t, ro, root, n), n, v1)
	kpExpect(t, "the survivor", kpRead(t, b, root, n), n, v1)
	tx := mustWrite(t, b)
	if err := tx.Tree(root).Put(key(kpNext), []byte("next")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Store{b, ro} {
		m := kpRead(t, s, root, n)
		kpExpect(t, "after the next commit", m, n, v1)
		if m[kpNext] != "next" {
			t.Fatalf("after the next commit: its key reads %q", m[kpNext])
		}
	}
	checkIntegrity(t, ro)
	ro.Close()
	kpFinish(t, b, root, path, n, v1)
}
