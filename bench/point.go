package main

import (
	"fmt"
	"math/rand/v2"
)

// pointCases: random primary-key lookups through a prepared statement on a
// table of 100k rows (at scale 1).
func pointCases() []*Case {
	var rows int
	return []*Case{{
		Name: "point", Workload: "point", Unit: "lookup",
		Setup: func(e *Env) error {
			rows = e.P.scaled(100_000, 1_000)
			return pointTable(e.DB, rows)
		},
		Run: func(e *Env) error {
			n := e.P.scaled(100_000, 1_000)
			return lookups(e, rows, n, uint64(e.run))
		},
	}}
}

// lookups does n random lookups of rows 1..rows by primary key and checks
// the sum of the values and the byte sum of the names against the model.
func lookups(e *Env, rows, n int, seed uint64) error {
	st, err := e.DB.Prepare("SELECT val, name FROM t WHERE id = ?")
	if err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	defer st.Close()
	ids := make([]int, n)
	r := rand.New(rand.NewPCG(seed, 7))
	var wantVal, wantLen int64
	for i := range ids {
		ids[i] = 1 + r.IntN(rows)
		wantVal += valOf(ids[i])
		wantLen += textSum(nameOf(ids[i]))
	}
	var gotVal, gotLen int64
	err = e.Measure(n, func() error {
		var v int64
		var s string
		for _, id := range ids {
			if err := st.QueryRow(id).Scan(&v, &s); err != nil {
				return fmt.Errorf("id %d: %w", id, err)
			}
			gotVal += v
			gotLen += textSum(s)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := e.Check("sum of looked-up val", gotVal, wantVal); err != nil {
		return err
	}
	return e.Check("byte sum of looked-up names", gotLen, wantLen)
}

// textSum is a position-weighted byte sum: cheap enough for a timed loop,
// and it changes when any byte or the order of two bytes changes.
func textSum(s string) int64 {
	var h int64
	for i := 0; i < len(s); i++ {
		h += int64(s[i]) * int64(i+1)
	}
	return h
}
