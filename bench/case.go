package main

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// Case is one row of the table: a workload variant with an untimed setup
// and a run that times exactly one region through Env.Measure and then
// verifies its answer.
type Case struct {
	Name     string // workload/variant, e.g. "delete_batch/spread"
	Workload string // the -only name, e.g. "delete_batch"
	Unit     string // what one op is: "query", "row", "lookup"
	FileOnly bool   // meaningless in memory (a page cache bound)
	Heap     bool   // report the peak Go heap of the measured region
	Opts     func(p Params) openOpts
	Setup    func(e *Env) error // once per cell, untimed
	Run      func(e *Env) error // once per run
}

// caseCtors builds fresh cases: a case keeps its data model in closures,
// so each cell gets its own.
var caseCtors = []func() []*Case{
	select1Cases,
	pointCases,
	insertTxCases,
	insertAutocommitCases,
	deleteBatchCases,
	updateTxCases,
	scanAggCases,
	groupJoinCases,
	indexRangeCases,
	concurrentReadCases,
	bigDBCases,
	graphCases,
}

// allCases returns a fresh instance of every case, in table order.
func allCases() []*Case {
	var out []*Case
	for _, ctor := range caseCtors {
		out = append(out, ctor()...)
	}
	return out
}

// findCase returns a fresh instance of the named case.
func findCase(name string) (*Case, error) {
	for _, c := range allCases() {
		if c.Name == name {
			return c, nil
		}
	}
	return nil, fmt.Errorf("unknown case %q", name)
}

// selectCases filters by -only: each entry names a workload or a case.
func selectCases(only string) ([]*Case, error) {
	all := allCases()
	if only == "" {
		return all, nil
	}
	var out []*Case
	for _, want := range strings.Split(only, ",") {
		want = strings.TrimSpace(want)
		n := len(out)
		for _, c := range all {
			if (c.Workload == want || c.Name == want) && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("-only: no workload or case named %q", want)
		}
	}
	return out, nil
}

// valOf is the deterministic integer column of row id.
func valOf(id int) int64 { return int64(id) * 2654435761 % 1000003 }

// nameOf is the deterministic text column of row id.
func nameOf(id int) string { return fmt.Sprintf("name-%08d", id) }

// execAll runs statements in order, stopping at the first error.
func execAll(db *sql.DB, stmts ...string) error {
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			return fmt.Errorf("%s: %w", clip(s, 60), err)
		}
	}
	return nil
}

// load inserts rows 1..n in one transaction through one prepared
// statement; args(i) gives the row's values.
func load(db *sql.DB, insert string, n int, args func(i int) []any) error {
	tx, err := db.Begin()
	if err != nil {
		return fmt.Errorf("load: begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	st, err := tx.Prepare(insert)
	if err != nil {
		return fmt.Errorf("load: prepare: %w", err)
	}
	for i := 1; i <= n; i++ {
		if _, err := st.Exec(args(i)...); err != nil {
			return fmt.Errorf("load: row %d: %w", i, err)
		}
	}
	if err := st.Close(); err != nil {
		return fmt.Errorf("load: close statement: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("load: commit: %w", err)
	}
	return nil
}

// pointTable creates t(id, val, name) with rows 1..n.
func pointTable(db *sql.DB, n int) error {
	if err := execAll(db, "CREATE TABLE t (id INTEGER PRIMARY KEY, val INTEGER NOT NULL, name TEXT NOT NULL)"); err != nil {
		return err
	}
	return load(db, "INSERT INTO t (id, val, name) VALUES (?, ?, ?)", n, func(i int) []any {
		return []any{i, valOf(i), nameOf(i)}
	})
}

// queryInts runs a query returning one row of integers.
func queryInts(db *sql.DB, q string, args ...any) ([]int64, error) {
	rows, err := db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %s returned no row", errWrong, q)
	}
	vals := make([]sql.NullInt64, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, err
	}
	out := make([]int64, len(cols))
	for i, v := range vals {
		out[i] = v.Int64
	}
	return out, rows.Close()
}

// checkCountSum verifies count(*) and sum(col) of a table against a model.
func checkCountSum(e *Env, table, col string, wantCount, wantSum int64) error {
	got, err := queryInts(e.DB, fmt.Sprintf("SELECT count(*), sum(%s) FROM %s", col, table))
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if err := e.Check(table+" count", got[0], wantCount); err != nil {
		return err
	}
	return e.Check(table+" sum("+col+")", got[1], wantSum)
}
