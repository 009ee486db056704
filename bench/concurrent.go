package main

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// concurrentReadCases: 2 and 8 goroutines doing random primary-key lookups
// through one *sql.DB, alone or beside a writer that keeps committing
// single-row updates to the same table. The time per op is wall time over
// all lookups; reader and writer errors are counted and reported, not
// fatal; a lookup that returns a wrong value fails the cell.
func concurrentReadCases() []*Case {
	mk := func(readers int, writer bool) *Case {
		name := fmt.Sprintf("concurrent_read/r%d", readers)
		if writer {
			name += "+w"
		}
		var rows int
		return &Case{
			Name: name, Workload: "concurrent_read", Unit: "lookup",
			Setup: func(e *Env) error {
				rows = e.P.scaled(100_000, 1_000)
				e.DB.SetMaxOpenConns(readers + 2)
				e.DB.SetMaxIdleConns(readers + 2)
				return pointTable(e.DB, rows)
			},
			Run: func(e *Env) error { return runConcurrent(e, rows, readers, writer) },
		}
	}
	return []*Case{mk(2, false), mk(8, false), mk(2, true), mk(8, true)}
}

// concurrentTally is what the goroutines of one run counted.
type concurrentTally struct {
	mu        sync.Mutex
	errs      int
	firstErr  error
	wrong     atomic.Int64
	commits   atomic.Int64
	writeErrs atomic.Int64
}

func (t *concurrentTally) fail(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.errs++
	if t.firstErr == nil {
		t.firstErr = err
	}
}

func runConcurrent(e *Env, rows, readers int, writer bool) error {
	per := e.P.scaled(20_000, 500)
	st, err := e.DB.Prepare("SELECT val FROM t WHERE id = ?")
	if err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	defer st.Close()
	var t concurrentTally
	err = e.Measure(readers*per, func() error {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		if writer {
			wg.Go(func() { writeLoop(e.DB, rows, uint64(e.run), stop, &t) })
		}
		var rg sync.WaitGroup
		for g := range readers {
			rg.Go(func() { readLoop(st, rows, per, uint64(e.run*100+g), &t) })
		}
		rg.Wait()
		close(stop)
		wg.Wait()
		return nil
	})
	if err != nil {
		return err
	}
	e.CountError(t.errs+int(t.writeErrs.Load()), t.firstErr)
	if writer {
		e.Note(fmt.Sprintf("w=%d", t.commits.Load()))
	}
	return e.Check("lookups with a wrong value", t.wrong.Load(), int64(0))
}

func readLoop(st *sql.Stmt, rows, n int, seed uint64, t *concurrentTally) {
	r := rand.New(rand.NewPCG(seed, 29))
	for range n {
		id := 1 + r.IntN(rows)
		var v int64
		if err := st.QueryRow(id).Scan(&v); err != nil {
			t.fail(fmt.Errorf("reader: %w", err))
			continue
		}
		if v != valOf(id) {
			t.wrong.Add(1)
		}
	}
}

// writeLoop rewrites random rows with their own values, one autocommit
// statement each, until stop closes: pages change, answers do not.
func writeLoop(db *sql.DB, rows int, seed uint64, stop <-chan struct{}, t *concurrentTally) {
	r := rand.New(rand.NewPCG(seed, 31))
	for {
		select {
		case <-stop:
			return
		default:
		}
		id := 1 + r.IntN(rows)
		if _, err := db.Exec("UPDATE t SET val = ? WHERE id = ?", valOf(id), id); err != nil {
			t.writeErrs.Add(1)
			t.fail(fmt.Errorf("writer: %w", err))
			continue
		}
		t.commits.Add(1)
	}
}
