package main

import (
	"database/sql"
	"fmt"
)

// execEachInTx runs one prepared statement once per argument list inside
// one transaction and commits — the shape of every batch write the
// workloads time. With count set it sums RowsAffected. Argument lists are
// built by the caller before its timer starts, so boxing is not charged to
// the driver.
func execEachInTx(db *sql.DB, query string, args [][]any, count bool) (int64, error) {
	tx, err := db.Begin()
	if err != nil {
		return 0, fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	st, err := tx.Prepare(query)
	if err != nil {
		return 0, fmt.Errorf("prepare: %w", err)
	}
	affected, err := execEach(st, args, count)
	if err != nil {
		return affected, err
	}
	if err := tx.Commit(); err != nil {
		return affected, fmt.Errorf("commit: %w", err)
	}
	return affected, nil
}

// execEach runs st once per argument list, stopping at the first error.
func execEach(st *sql.Stmt, args [][]any, count bool) (int64, error) {
	var affected int64
	for i, a := range args {
		res, err := st.Exec(a...)
		if err != nil {
			return affected, fmt.Errorf("statement %d %v: %w", i+1, a, err)
		}
		if !count {
			continue
		}
		n, err := res.RowsAffected()
		if err != nil {
			return affected, fmt.Errorf("rows affected: %w", err)
		}
		affected += n
	}
	return affected, nil
}
