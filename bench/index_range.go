package main

import (
	"fmt"
	"math/rand/v2"
)

// indexRangeCases: count and sum over a 5% range of a secondary index on a
// 200k-row table (at scale 1), 20 queries per run.
func indexRangeCases() []*Case {
	var rows int
	var cnt, sum []int64 // prefix sums over the key domain: [k] covers keys < k
	return []*Case{{
		Name: "index_range", Workload: "index_range", Unit: "query",
		Setup: func(e *Env) error {
			rows = e.P.scaled(200_000, 2_000)
			keys := rangeKeys(rows)
			cnt, sum = make([]int64, rows+1), make([]int64, rows+1)
			for i, k := range keys {
				cnt[k+1]++
				sum[k+1] += valOf(i + 1)
			}
			for k := 1; k <= rows; k++ {
				cnt[k] += cnt[k-1]
				sum[k] += sum[k-1]
			}
			if err := execAll(e.DB, "CREATE TABLE r (id INTEGER PRIMARY KEY, k INTEGER NOT NULL, val INTEGER NOT NULL)"); err != nil {
				return err
			}
			if err := load(e.DB, "INSERT INTO r (id, k, val) VALUES (?, ?, ?)", rows, func(i int) []any {
				return []any{i, keys[i-1], valOf(i)}
			}); err != nil {
				return err
			}
			return execAll(e.DB, "CREATE INDEX r_k ON r (k)")
		},
		Run: func(e *Env) error {
			const q = 20
			w := rows / 20
			r := rand.New(rand.NewPCG(uint64(e.run), 19))
			lo := make([]int, q)
			var wantCnt, wantSum int64
			for i := range lo {
				lo[i] = r.IntN(rows - w)
				wantCnt += cnt[lo[i]+w] - cnt[lo[i]]
				wantSum += sum[lo[i]+w] - sum[lo[i]]
			}
			st, err := e.DB.Prepare("SELECT count(*), sum(val) FROM r WHERE k >= ? AND k < ?")
			if err != nil {
				return fmt.Errorf("prepare: %w", err)
			}
			defer st.Close()
			var gotCnt, gotSum int64
			err = e.Measure(q, func() error {
				for _, l := range lo {
					var c, s int64
					if err := st.QueryRow(l, l+w).Scan(&c, &s); err != nil {
						return err
					}
					gotCnt += c
					gotSum += s
				}
				return nil
			})
			if err != nil {
				return err
			}
			if err := e.Check("rows in ranges", gotCnt, wantCnt); err != nil {
				return err
			}
			return e.Check("sum(val) in ranges", gotSum, wantSum)
		},
	}}
}

// rangeKeys gives each row a random key in 0..rows-1.
func rangeKeys(rows int) []int {
	r := rand.New(rand.NewPCG(3, 23))
	keys := make([]int, rows)
	for i := range keys {
		keys[i] = r.IntN(rows)
	}
	return keys
}
