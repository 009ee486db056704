package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// bigDBCases: random lookups in a file several times larger than the page
// cache (about 10×: ~90 MB against 8 MiB at scale 1). ladybug gets
// cache_size, SQLite the same bound through PRAGMA cache_size; the
// database is reopened after loading so the lookups start cold.
func bigDBCases() []*Case {
	var rows int
	opts := func(p Params) openOpts {
		return openOpts{cacheBytes: int64(max(256<<10, int(float64(8<<20)*p.Scale)))}
	}
	return []*Case{{
		Name: "big_db", Workload: "big_db", Unit: "lookup", FileOnly: true, Heap: true, Opts: opts,
		Setup: func(e *Env) error {
			rows = e.P.scaled(200_000, 2_000)
			if err := execAll(e.DB, "CREATE TABLE b (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)"); err != nil {
				return err
			}
			if err := load(e.DB, "INSERT INTO b (id, payload) VALUES (?, ?)", rows, func(i int) []any {
				return []any{i, payloadOf(i)}
			}); err != nil {
				return err
			}
			return e.Open(opts(e.P))
		},
		Run: func(e *Env) error {
			n := e.P.scaled(20_000, 500)
			r := rand.New(rand.NewPCG(uint64(e.run), 37))
			ids := make([]int, n)
			var want int64
			for i := range ids {
				ids[i] = 1 + r.IntN(rows)
				want += textSum(payloadOf(ids[i]))
			}
			st, err := e.DB.Prepare("SELECT payload FROM b WHERE id = ?")
			if err != nil {
				return fmt.Errorf("prepare: %w", err)
			}
			defer st.Close()
			var got int64
			err = e.Measure(n, func() error {
				var s string
				for _, id := range ids {
					if err := st.QueryRow(id).Scan(&s); err != nil {
						return fmt.Errorf("id %d: %w", id, err)
					}
					got += textSum(s)
				}
				return nil
			})
			if err != nil {
				return err
			}
			if fi, err := os.Stat(filepath.Join(e.dir, dbFile)); err == nil {
				e.Note("db " + fmtBytes(float64(fi.Size())))
			}
			return e.Check("byte sum of payloads", got, want)
		},
	}}
}

// payloadOf is row id's 400-byte text, distinct per row.
func payloadOf(id int) string {
	unit := fmt.Sprintf("%08d|%06d;", id, valOf(id))
	return strings.Repeat(unit, 400/len(unit)+1)[:400]
}
