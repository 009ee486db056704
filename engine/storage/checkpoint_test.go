package storage

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/vfs"
)

const (
	soakAccounts = 64
	soakBalance  = 1000
)

// soakConfig drives runSoak: readers whose read transactions always
// overlap (each begins its next one before ending the last, so some
// reader is always open, usually on an older commit than the newest),
// and writers moving money between accounts.
type soakConfig struct {
	readers, writers int
	commits          int           // per writer, when duration is 0
	duration         time.Duration // run this long instead
	frames           int           // CheckpointFrames
}

type soakResult struct {
	maxLog           int64 // largest log file size seen after a commit
	commits, busy    int
	reads            int64
	heapMid, heapEnd uint64
	store            *Store
	fs               vfs.FS
}

// logBound is the log size the checkpointer must stay under: four times
// the size at which it checkpoints.
func logBound(frames, ps int) int64 { return 4 * (walHeaderSize + int64(frames)*frameSize(ps)) }

func heapNow() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// runSoak runs cfg and fails the test on any error other than ErrBusy and
// on any snapshot whose accounts do not add up. The store is left open.
func runSoak(t *testing.T, cfg soakConfig) soakResult {
	t.Helper()
	fsys := vfs.NewMemFS()
	s := openT(t, fsys, Options{CheckpointFrames: cfg.frames})
	root := newTreeT(t, s)
	tx := mustWrite(t, s)
	for i := range soakAccounts {
		if err := tx.Tree(root).Put(key(i), []byte(strconv.Itoa(soakBalance))); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var (
		stop    atomic.Bool
		failed  atomic.Pointer[error]
		reads   atomic.Int64
		maxLog  atomic.Int64
		commits atomic.Int64
		busy    atomic.Int64
		wg      sync.WaitGroup
	)
	fail := func(err error) {
		failed.CompareAndSwap(nil, &err)
		stop.Store(true)
	}
	sum := func(rt *Tx) error {
		c := rt.Tree(root).Cursor()
		defer c.Close()
		total, n := 0, 0
		for ok := c.First(); ok; ok = c.Next() {
			v, err := c.Value()
			if err != nil {
				return err
			}
			b, err := strconv.Atoi(string(v))
			if err != nil {
				return err
			}
			total, n = total+b, n+1
		}
		if c.Err() != nil {
			return c.Err()
		}
		if n != soakAccounts || total != soakAccounts*soakBalance {
			return fmt.Errorf("snapshot %d: %d accounts hold %d, want %d and %d", rt.snap, n, total, soakAccounts, soakAccounts*soakBalance)
		}
		return nil
	}
	for range cfg.readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prev, err := s.BeginRead()
			if err != nil {
				fail(err)
				return
			}
			for !stop.Load() {
				next, err := s.BeginRead()
				if err != nil {
					fail(err)
					break
				}
				if err := sum(next); err != nil {
					fail(err)
				}
				prev.Rollback()
				prev = next
				reads.Add(1)
			}
			prev.Rollback()
		}()
	}
	transfer := func(r *rand.Rand) error {
		tx, err := s.BeginWrite(context.Background())
		if err != nil {
			return err
		}
		defer tx.Rollback()
		a, b := r.IntN(soakAccounts), r.IntN(soakAccounts)
		amount := r.IntN(50)
		for _, m := range []struct {
			k     int
			delta int
		}{{a, -amount}, {b, amount}} {
			v, _, err := tx.Tree(root).Get(key(m.k))
			if err != nil {
				return err
			}
			n, err := strconv.Atoi(string(v))
			if err != nil {
				return err
			}
			if err := tx.Tree(root).Put(key(m.k), []byte(strconv.Itoa(n+m.delta))); err != nil {
				return err
			}
		}
		return tx.Commit()
	}
	var heapMid atomic.Uint64
	start := time.Now()
	var writers sync.WaitGroup
	for w := range cfg.writers {
		writers.Add(1)
		go func() {
			defer writers.Done()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for i := 0; !stop.Load(); i++ {
				if cfg.duration == 0 && i >= cfg.commits {
					return
				}
				if cfg.duration > 0 && time.Since(start) > cfg.duration {
					return
				}
				if err := transfer(r); errors.Is(err, ErrBusy) {
					busy.Add(1)
					continue
				} else if err != nil {
					fail(err)
					return
				}
				n := commits.Add(1)
				size, err := fsys.Stat("/db-wal")
				if err != nil {
					fail(err)
					return
				}
				if size > maxLog.Load() {
					maxLog.Store(size)
				}
				if w == 0 && heapMid.Load() == 0 && (cfg.duration > 0 && time.Since(start) > cfg.duration/4 ||
					cfg.duration == 0 && int(n) >= cfg.commits*cfg.writers/4) {
					heapMid.Store(heapNow())
				}
			}
		}()
	}
	writers.Wait()
	stop.Store(true)
	wg.Wait()
	if e := failed.Load(); e != nil {
		t.Fatal(*e)
	}
	return soakResult{maxLog: maxLog.Load(), commits: int(commits.Load()), busy: int(busy.Load()),
		reads: reads.Load(), heapMid: heapMid.Load(), heapEnd: heapNow(), store: s, fs: fsys}
}

// TestStore_Checkpoint_SteadyReadersKeepLogBounded: with readers whose
// read transactions always overlap, the log still checkpoints and
// restarts, and never grows past four times the checkpoint size; every
// reader's snapshot stays consistent (the accounts' total is constant).
func TestStore_Checkpoint_SteadyReadersKeepLogBounded(t *testing.T) {
	commits := 800
	if raceEnabled {
		commits = 300
	}
	cfg := soakConfig{readers: 8, writers: 1, commits: commits, frames: 32}
	r := runSoak(t, cfg)
	s := r.store
	bound := logBound(cfg.frames, s.ps)
	t.Logf("%d commits, %d reads, log at most %d bytes (bound %d), %d checkpoints",
		r.commits, r.reads, r.maxLog, bound, s.Stats().Checkpoints)
	if r.maxLog > bound {
		t.Fatalf("the log grew to %d bytes under steady readers; bound %d", r.maxLog, bound)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if size, err := r.fs.Stat("/db-wal"); err != nil || size != 0 {
		t.Fatalf("log after Close: %d bytes, %v; want 0", size, err)
	}
	s = openT(t, r.fs, Options{})
	defer s.Close()
	checkIntegrity(t, s)
}

// TestStore_Checkpoint_Soak is the long run: 8 readers and 2 writers, for
// 10 minutes under LADYBUG_STRESS=1 (a few thousand commits otherwise).
// The log stays under its bound, the heap does not grow between the first
// quarter and the end, and the only errors allowed are ErrBusy.
func TestStore_Checkpoint_Soak(t *testing.T) {
	cfg := soakConfig{readers: 8, writers: 2, commits: 400, frames: 64}
	if raceEnabled {
		cfg.commits = 150
	}
	if os.Getenv("LADYBUG_STRESS") == "1" {
		cfg.duration = 10 * time.Minute
	}
	r := runSoak(t, cfg)
	defer r.store.Close()
	// Twice the steady-readers test's bound: over ten minutes on a loaded
	// machine the writer's wait for old readers can give up several times
	// in a row, deferring a restart each time (peak seen: 5.0x).
	bound := 2 * logBound(cfg.frames, r.store.ps)
	t.Logf("%d commits (%d busy), %d reads, log at most %d bytes (bound %d), heap %d -> %d",
		r.commits, r.busy, r.reads, r.maxLog, bound, r.heapMid, r.heapEnd)
	if r.maxLog > bound {
		t.Fatalf("the log grew to %d bytes; bound %d", r.maxLog, bound)
	}
	if r.heapMid > 0 && r.heapEnd > r.heapMid+r.heapMid/2+8<<20 {
		t.Fatalf("heap grew from %d to %d bytes", r.heapMid, r.heapEnd)
	}
}

// TestStore_Checkpoint_PartialUnderOldReader: a reader held on an old
// commit no longer stops the checkpoint: every version older than its
// snapshot goes to the main file and leaves the log's index, the reader
// still reads its own snapshot, and once it ends the log restarts.
func TestStore_Checkpoint_PartialUnderOldReader(t *testing.T) {
	s := openT(t, nil, Options{CheckpointFrames: 1 << 20})
	defer s.Close()
	root := newTreeT(t, s)
	put := func(k int, v string) {
		t.Helper()
		tx := mustWrite(t, s)
		if err := tx.Tree(root).Put(key(k), []byte(v)); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 200 {
		put(i, "old")
	}
	rt := mustRead(t, s)
	defer rt.Rollback()
	for i := range 200 {
		put(i, "new")
	}
	before := s.Stats().WALFrames
	r, err := s.Checkpoint(t.Context(), CheckpointPassive)
	if err != nil {
		t.Fatal(err)
	}
	after := s.Stats().WALFrames
	if r.Busy || r.Checkpointed == 0 || after >= before {
		t.Fatalf("passive checkpoint under an old reader: %+v, index %d -> %d frames", r, before, after)
	}
	if v, _, err := rt.Tree(root).Get(key(7)); err != nil || string(v) != "old" {
		t.Fatalf("old reader reads %q, %v", v, err)
	}
	nt := mustRead(t, s)
	if v, _, err := nt.Tree(root).Get(key(7)); err != nil || string(v) != "new" {
		t.Fatalf("new reader reads %q, %v", v, err)
	}
	nt.Rollback()
	// FULL waits for the old reader up to the busy timeout, then answers
	// busy with the frames still in the log.
	ctx := WithBusyTimeout(t.Context(), 10*time.Millisecond)
	if r, err := s.Checkpoint(ctx, CheckpointFull); err != nil || !r.Busy || r.Checkpointed >= r.LogFrames {
		t.Fatalf("full checkpoint with an old reader: %+v, %v", r, err)
	}
	rt.Rollback()
	r, err = s.Checkpoint(t.Context(), CheckpointRestart)
	if err != nil || r.Busy || r.LogFrames == 0 || r.Checkpointed != r.LogFrames || s.Stats().WALFrames != 0 {
		t.Fatalf("restart checkpoint: %+v, %v, %d frames left", r, err, s.Stats().WALFrames)
	}
	if s.wal.end != walHeaderSize {
		t.Fatalf("log end %d after restart", s.wal.end)
	}
	checkIntegrity(t, s)
}

// TestStore_Checkpoint_TruncateEmptiesLog: wal_checkpoint(TRUNCATE) cuts
// the log to 0 bytes and answers 0/0/0; the next commit writes a fresh
// log header and survives a crash; a restart cuts the file to the
// journal size limit.
func TestStore_Checkpoint_TruncateEmptiesLog(t *testing.T) {
	cfs := vfs.NewCrashFS()
	s := openT(t, cfs, Options{CheckpointFrames: 1 << 20, JournalSizeLimit: 8192})
	root := newTreeT(t, s)
	tx := mustWrite(t, s)
	for i := range 300 {
		tx.Tree(root).Put(key(i), []byte("v"))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	r, err := s.Checkpoint(t.Context(), CheckpointTruncate)
	if err != nil || r != (CheckpointResult{}) {
		t.Fatalf("truncate: %+v, %v", r, err)
	}
	if size, _ := cfs.Stat("/db-wal"); size != 0 {
		t.Fatalf("log is %d bytes after TRUNCATE", size)
	}
	tx = mustWrite(t, s)
	tx.Tree(root).Put(key(1000), []byte("after"))
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	img := cfs.CrashClone(0)
	// A large commit, then a restart: the file is cut to the limit.
	tx = mustWrite(t, s)
	for i := range 300 {
		tx.Tree(root).Put(key(i), []byte("w"))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Checkpoint(t.Context(), CheckpointPassive); err != nil || r.Busy {
		t.Fatalf("passive: %+v, %v", r, err)
	}
	if size, _ := cfs.Stat("/db-wal"); size > 8192 {
		t.Fatalf("log is %d bytes after a restart; limit 8192", size)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := Open("/db", Options{FS: img})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rt := mustRead(t, c)
	defer rt.Rollback()
	if v, _, err := rt.Tree(root).Get(key(1000)); err != nil || string(v) != "after" {
		t.Fatalf("commit after TRUNCATE lost in a crash: %q, %v", v, err)
	}
	checkIntegrity(t, c)
}
