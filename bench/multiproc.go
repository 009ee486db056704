package main

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// The multi-process rows: several processes on one database file, each a
// worker of this harness opening it through its driver (`go run .
// -multiproc`). For each driver:
//
//	read   4 reader processes run autocommit point reads for the duration;
//	       the row is their total reads per second
//	write  1 writer process runs autocommit one-row updates while 1 reader
//	       process reads as above; the row is the writer's commits per
//	       second and its latency percentiles
//
// SQLite runs in WAL mode (the drivers' DSNs in drivers.go), ladybug with
// its -shm index; both at sync=normal.

// mpConfig is one worker's job.
type mpConfig struct {
	Driver string        `json:"driver"`
	Path   string        `json:"path"`
	Role   string        `json:"role"` // setup, read or write
	Rows   int           `json:"rows"`
	Dur    time.Duration `json:"dur"`
	Sync   string        `json:"sync"`
}

// mpResult is what a worker reports.
type mpResult struct {
	Ops  int64           `json:"ops"`
	Lats []time.Duration `json:"lats,omitempty"` // writers: every commit's latency
	Err  string          `json:"err,omitempty"`
}

func multiprocMain(args []string) error {
	fs := flag.NewFlagSet("multiproc", flag.ContinueOnError)
	drivers := fs.String("drivers", "ladybug,modernc", "comma-separated drivers")
	dur := fs.Duration("dur", 3*time.Second, "measured time per row")
	rows := fs.Int("rows", 10000, "rows in the table")
	readers := fs.Int("readers", 4, "reader processes of the read row")
	sync := fs.String("sync", "normal", "durability: full, normal or off")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "ladybug-mp-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins := newBinaries(tmp)
	fmt.Printf("multi-process rows: %d rows, %v per row, sync=%s\n\n", *rows, *dur, *sync)
	fmt.Printf("%-10s %18s %16s %12s %12s %12s\n", "driver", "reads/s (N procs)", "writes/s +1 rdr", "write p50", "write p99", "reads/s 1 rdr")
	for _, d := range strings.Split(*drivers, ",") {
		spec, ok := specs[d]
		if !ok {
			return fmt.Errorf("unknown driver %q", d)
		}
		bin, err := bins.forSpec(spec)
		if err != nil {
			return err
		}
		dir := filepath.Join(tmp, d)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		cfg := mpConfig{Driver: d, Path: filepath.Join(dir, dbFile), Rows: *rows, Dur: *dur, Sync: *sync}
		if _, err := mpRunWorkers(bin, cfg, []string{"setup"}); err != nil {
			return fmt.Errorf("%s setup: %w", d, err)
		}
		roles := slices.Repeat([]string{"read"}, *readers)
		reads, err := mpRunWorkers(bin, cfg, roles)
		if err != nil {
			return fmt.Errorf("%s read: %w", d, err)
		}
		var nReads int64
		for _, r := range reads {
			nReads += r.Ops
		}
		mixed, err := mpRunWorkers(bin, cfg, []string{"write", "read"})
		if err != nil {
			return fmt.Errorf("%s write: %w", d, err)
		}
		w := mixed[0]
		slices.Sort(w.Lats)
		pct := func(p float64) time.Duration {
			if len(w.Lats) == 0 {
				return 0
			}
			return w.Lats[min(len(w.Lats)-1, int(p*float64(len(w.Lats))))]
		}
		secs := dur.Seconds()
		fmt.Printf("%-10s %18.0f %16.0f %12v %12v %12.0f\n", d, float64(nReads)/secs,
			float64(w.Ops)/secs, pct(0.5).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), float64(mixed[1].Ops)/secs)
	}
	return nil
}

// mpRunWorkers starts one worker per role at once and waits for them.
func mpRunWorkers(bin string, cfg mpConfig, roles []string) ([]mpResult, error) {
	out := make([]mpResult, len(roles))
	errs := make([]error, len(roles))
	var wg sync.WaitGroup
	for i, role := range roles {
		c := cfg
		c.Role = role
		js, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, "-mpworker", string(js))
			cmd.Stderr = os.Stderr
			b, err := cmd.Output()
			if err != nil {
				errs[i] = fmt.Errorf("%s worker: %w", role, err)
				return
			}
			sc := bufio.NewScanner(strings.NewReader(string(b)))
			sc.Buffer(nil, 1<<26)
			for sc.Scan() {
				if rest, ok := strings.CutPrefix(sc.Text(), linePrefix); ok {
					errs[i] = json.Unmarshal([]byte(rest), &out[i])
					if errs[i] == nil && out[i].Err != "" {
						errs[i] = errors.New(out[i].Err)
					}
					return
				}
			}
			errs[i] = fmt.Errorf("%s worker printed no result", role)
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// mpWorkerMain runs one multi-process job and prints its result.
func mpWorkerMain(cfgJSON string) int {
	var cfg mpConfig
	if err := json.Unmarshal([]byte(cfgJSON), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bench mpworker:", err)
		return 2
	}
	res, err := mpWork(cfg)
	if err != nil {
		res.Err = err.Error()
	}
	b, _ := json.Marshal(res)
	fmt.Printf("%s%s\n", linePrefix, b)
	return 0
}

func mpWork(cfg mpConfig) (mpResult, error) {
	var res mpResult
	spec := specs[cfg.Driver]
	db, err := sql.Open(spec.sqlName, spec.dsn(cfg.Path, "", openOpts{mode: "file", sync: cfg.Sync}))
	if err != nil {
		return res, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	switch cfg.Role {
	case "setup":
		if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL, pad TEXT)`); err != nil {
			return res, err
		}
		tx, err := db.Begin()
		if err != nil {
			return res, err
		}
		for i := range cfg.Rows {
			if _, err := tx.Exec(`INSERT INTO t VALUES (?, ?, ?)`, i, i, strings.Repeat("x", 40)); err != nil {
				return res, err
			}
		}
		return res, tx.Commit()
	case "read":
		stmt, err := db.Prepare(`SELECT v FROM t WHERE id = ?`)
		if err != nil {
			return res, err
		}
		defer stmt.Close()
		var v int64
		for end := time.Now().Add(cfg.Dur); time.Now().Before(end); {
			for range 64 {
				if err := stmt.QueryRow(rand.IntN(cfg.Rows)).Scan(&v); err != nil {
					return res, err
				}
				res.Ops++
			}
		}
		return res, nil
	case "write":
		stmt, err := db.Prepare(`UPDATE t SET v = v + 1 WHERE id = ?`)
		if err != nil {
			return res, err
		}
		defer stmt.Close()
		for end := time.Now().Add(cfg.Dur); time.Now().Before(end); {
			start := time.Now()
			if _, err := stmt.Exec(rand.IntN(cfg.Rows)); err != nil {
				return res, err
			}
			res.Lats = append(res.Lats, time.Since(start))
			res.Ops++
		}
		return res, nil
	}
	return res, fmt.Errorf("unknown role %q", cfg.Role)
}
