package main

import (
	"database/sql"
	"fmt"
)

// insertTxCases: 100k rows (at scale 1) in one transaction through one
// prepared INSERT, commit inside the timer.
func insertTxCases() []*Case {
	return []*Case{{
		Name: "insert_tx", Workload: "insert_tx", Unit: "row", Heap: true,
		Run: func(e *Env) error {
			n := e.P.scaled(100_000, 1_000)
			if err := freshInsTable(e.DB); err != nil {
				return err
			}
			rows := insRows(n)
			err := e.Measure(n, func() error {
				_, err := execEachInTx(e.DB, insSQL, rows, false)
				return err
			})
			if err != nil {
				return err
			}
			return checkIns(e, n)
		},
	}}
}

// insertAutocommitCases: N rows, each its own autocommitted statement, so
// each pays a commit (an fsync at -sync full).
func insertAutocommitCases() []*Case {
	return []*Case{{
		Name: "insert_autocommit", Workload: "insert_autocommit", Unit: "row",
		Run: func(e *Env) error {
			n := e.P.scaled(10_000, 200)
			if err := freshInsTable(e.DB); err != nil {
				return err
			}
			rows := insRows(n)
			st, err := e.DB.Prepare(insSQL)
			if err != nil {
				return fmt.Errorf("prepare: %w", err)
			}
			defer st.Close()
			err = e.Measure(n, func() error {
				_, err := execEach(st, rows, false)
				return err
			})
			if err != nil {
				return err
			}
			return checkIns(e, n)
		},
	}}
}

func freshInsTable(db *sql.DB) error {
	return execAll(db, "DROP TABLE IF EXISTS ins",
		"CREATE TABLE ins (id INTEGER PRIMARY KEY, val INTEGER NOT NULL, name TEXT NOT NULL)")
}

// insSQL inserts one row of ins.
const insSQL = "INSERT INTO ins (id, val, name) VALUES (?, ?, ?)"

// insRows are the argument lists of rows 1..n, built before a timer
// starts so formatting and boxing are not charged to the driver.
func insRows(n int) [][]any {
	out := make([][]any, n)
	for i := range out {
		out[i] = []any{i + 1, valOf(i + 1), nameOf(i + 1)}
	}
	return out
}

// checkIns verifies that ins holds exactly rows 1..n.
func checkIns(e *Env, n int) error {
	var sum int64
	for i := 1; i <= n; i++ {
		sum += valOf(i)
	}
	return checkCountSum(e, "ins", "val", int64(n), sum)
}
