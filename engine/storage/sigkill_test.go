package storage

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/engine/keycodec"
)

const childEnv = "LADYBUG_STORAGE_CRASH_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		if err := crashChild(path); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	if spec := os.Getenv(killPointEnv); spec != "" {
		os.Exit(killPointChild(spec))
	}
	os.Exit(m.Run())
}

// Commit i of the kill workload inserts keys i*10..i*10+9 (every tenth
// one with an overflow value), deletes key (i-5)*10+3 and records i in
// meta slot 1, so the expected contents follow from the counter alone.
func killKey(n int) []byte { return keycodec.RowidKey(int64(n)) }

func killValue(i, j int) []byte {
	v := fmt.Sprintf("commit %d row %d ", i, j)
	if j == 0 && i%10 == 0 {
		v += strings.Repeat("overflow", 1000)
	}
	return []byte(v)
}

// crashChild runs kill-workload commits forever, printing each counter
// after its commit returns, until the parent kills it.
func crashChild(path string) error {
	s, err := Open(path, Options{Create: true, CacheSize: 64 * 4096, CheckpointFrames: 300})
	if err != nil {
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	for {
		tx, err := s.BeginWrite(context.Background())
		if err != nil {
			return err
		}
		root := uint32(tx.Meta(0))
		if root == 0 {
			if root, err = tx.CreateTree(); err != nil {
				return err
			}
			tx.SetMeta(0, uint64(root))
		}
		i := int(tx.Meta(1)) + 1
		tr := tx.Tree(root)
		for j := 0; j < 10; j++ {
			if err := tr.Put(killKey(i*10+j), killValue(i, j)); err != nil {
				return err
			}
		}
		if i > 5 {
			if _, err := tr.Delete(killKey((i-5)*10 + 3)); err != nil {
				return err
			}
		}
		tx.SetMeta(1, uint64(i))
		if err := tx.Commit(); err != nil {
			return err
		}
		fmt.Fprintf(out, "%d\n", i)
		out.Flush()
	}
}

// TestStore_SIGKILL_CommittedSurvive kills a child process that commits in
// a loop at random moments, then checks that every commit it reported is
// present, nothing beyond the next one is, and the integrity check passes.
func TestStore_SIGKILL_CommittedSurvive(t *testing.T) {
	kills := 20
	if os.Getenv("LADYBUG_STRESS") == "1" {
		kills = 200
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/kill.db"
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	counter := 0 // commits found by the last verification
	for k := 0; k < kills; k++ {
		d := time.Duration(20+r.IntN(120)) * time.Millisecond
		if raceEnabled {
			d *= 2
		}
		// A child killed before it printed anything still had every
		// earlier commit acknowledged.
		acked := max(runAndKill(t, exe, path, d), counter)
		counter = verifyKillDB(t, path, acked)
	}
	t.Logf("%d kills, %d commits survived", kills, counter)
	if counter == 0 {
		t.Fatal("the child never committed")
	}
}

// runAndKill starts the child, kills it after d, and returns the last
// counter it reported.
func runAndKill(t *testing.T, exe, path string, d time.Duration) int {
	t.Helper()
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan int)
	go func() {
		last := 0
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if n, err := strconv.Atoi(sc.Text()); err == nil {
				last = n
			}
		}
		done <- last
	}()
	time.Sleep(d)
	cmd.Process.Signal(syscall.SIGKILL)
	last := <-done
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("child exited on its own: %v\n%s", err, stderr.String())
	}
	return last
}

// verifyKillDB checks the database after a kill and returns its counter.
func verifyKillDB(t *testing.T, path string, acked int) int {
	t.Helper()
	if _, err := os.Stat(path); os.IsNotExist(err) && acked == 0 {
		return 0 // killed before it created the file
	}
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("reopen after kill (acked %d): %v", acked, err)
	}
	defer s.Close()
	checkIntegrity(t, s)
	rt := mustRead(t, s)
	defer rt.Rollback()
	n := int(rt.Meta(1))
	if n < acked || n > acked+1 {
		t.Fatalf("counter %d after kill, child acknowledged %d", n, acked)
	}
	if n == 0 {
		return 0
	}
	tr := rt.Tree(uint32(rt.Meta(0)))
	want := 0
	for i := 1; i <= n; i++ {
		for j := 0; j < 10; j++ {
			deleted := j == 3 && i+5 <= n
			v, ok, err := tr.Get(killKey(i*10 + j))
			if err != nil || ok == deleted || (ok && string(v) != string(killValue(i, j))) {
				t.Fatalf("commit %d row %d: present=%v err=%v (counter %d)", i, j, ok, err, n)
			}
			if !deleted {
				want++
			}
		}
	}
	if _, ok, _ := tr.Get(killKey((n+1)*10 + 0)); ok {
		t.Fatalf("uncommitted row of commit %d present", n+1)
	}
	if c, err := tr.Count(); err != nil || int(c) != want {
		t.Fatalf("count %d (%v), want %d", c, err, want)
	}
	return n
}
