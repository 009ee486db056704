package main

import (
	"database/sql"
	"fmt"
)

// select1Cases: warm SELECT 1 through db.QueryRow, prepared and not — the
// fixed cost of the smallest query an ORM sends.
func select1Cases() []*Case {
	return []*Case{
		{Name: "select1/prepared", Workload: "select1", Unit: "query", Run: runSelect1(true)},
		{Name: "select1/unprepared", Workload: "select1", Unit: "query", Run: runSelect1(false)},
	}
}

func runSelect1(prepared bool) func(e *Env) error {
	return func(e *Env) error {
		n := e.P.scaled(100_000, 2_000)
		var st *sql.Stmt
		if prepared {
			var err error
			if st, err = e.DB.Prepare("SELECT 1"); err != nil {
				return fmt.Errorf("prepare: %w", err)
			}
			defer st.Close()
		}
		var sum int64
		err := e.Measure(n, func() error {
			var v int64
			for range n {
				var err error
				if st != nil {
					err = st.QueryRow().Scan(&v)
				} else {
					err = e.DB.QueryRow("SELECT 1").Scan(&v)
				}
				if err != nil {
					return err
				}
				sum += v
			}
			return nil
		})
		if err != nil {
			return err
		}
		return e.Check("sum of SELECT 1", sum, int64(n))
	}
}
