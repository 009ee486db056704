package main

import "math/rand/v2"

// updateTxCases: update 10k random rows of 100k (at scale 1) by primary
// key in one transaction with a prepared UPDATE, commit inside the timer.
// The Go model of the column follows every run, so runs need no reload.
func updateTxCases() []*Case {
	var rows int
	var model []int64 // model[id] is val of row id
	return []*Case{{
		Name: "update_tx", Workload: "update_tx", Unit: "row",
		Setup: func(e *Env) error {
			rows = e.P.scaled(100_000, 1_000)
			model = make([]int64, rows+1)
			for i := 1; i <= rows; i++ {
				model[i] = valOf(i)
			}
			return pointTable(e.DB, rows)
		},
		Run: func(e *Env) error {
			m := rows / 10
			perm := rand.New(rand.NewPCG(uint64(e.run), 13)).Perm(rows)[:m]
			newVal := make([]int64, m)
			args := make([][]any, m)
			for i, p := range perm {
				newVal[i] = int64(e.run)*1_000_000 + int64(p)
				args[i] = []any{newVal[i], p + 1}
			}
			var affected int64
			err := e.Measure(m, func() error {
				var err error
				affected, err = execEachInTx(e.DB, "UPDATE t SET val = ? WHERE id = ?", args, true)
				return err
			})
			if err != nil {
				return err
			}
			var sum int64
			for i, p := range perm {
				model[p+1] = newVal[i]
			}
			for _, v := range model {
				sum += v
			}
			if err := e.Check("rows affected", affected, int64(m)); err != nil {
				return err
			}
			return checkCountSum(e, "t", "val", int64(rows), sum)
		},
	}}
}
