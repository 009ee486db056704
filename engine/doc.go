// Package engine is ladybug's SQL engine behind the database/sql driver: a DB
// owns one store, its transaction manager and the plan cache; a Session is
// one connection's state (its open transaction, the catalog of that
// transaction's uncommitted DDL, changes() and last_insert_rowid()); a Stmt
// is a prepared script; Rows stream a statement's result sets.
//
// # Pipeline
//
// Prepare parses through the plan cache (an LRU keyed by SQL text, so a
// repeated statement is never parsed twice) and binds each statement
// against a catalog snapshot (engine/plan); a bound plan is cached per
// snapshot, so a schema change rebinds without reparsing. Executing a
// plan takes an idle compiled program of that plan from the database's
// program cache (engine/exec operator trees and writers are reused, one
// execution at a time; the cache is bounded in bytes and count and drops
// programs idle through two garbage collections) and runs it in the
// session's explicit transaction or an autocommit one (engine/txn).
//
// # Catalog
//
// The schema lives in a catalog tree whose root is meta slot 0, one entry
// per object (type, name, tbl_name, rootpage, original CREATE text) —
// what sqlite_master shows. Loading re-parses the CREATE texts, so the text
// is the single source of truth; ALTER TABLE edits the text and rebuilds
// from it. Meta slot 1 is the schema cookie (the catalog version): a
// transaction whose cookie differs from the cached catalog's loads its own
// snapshot, so readers of an older snapshot see the old schema. DDL inside a
// transaction stays private to it until COMMIT.
//
// # Invariants
//
//   - Every error returned is an *errs.Error; no panic escapes Prepare,
//     Exec, Query or Rows.Next (they recover into an internal error, and
//     the statement still ends, releasing its locks).
//   - A Session is used by one goroutine at a time (database/sql guarantees
//     this per connection); a DB is shared by many Sessions.
//   - A streaming autocommit query keeps its read transaction (snapshot)
//     until its Rows close; writes never block readers.
//
// # Caveats
//
// A view with an INSTEAD OF trigger accepts that trigger's INSERT, UPDATE
// or DELETE (UPDATE … FROM, RETURNING and upserts on a view are not
// supported); as in SQLite the statement itself changes no row.
//
// TEMP tables, views and triggers live in the session's temp schema, an
// in-memory store of its own opened at the first temp object and closed
// with the session (tempdb.go). ATTACH and virtual tables are refused by
// design, each with a "not supported" error. Deferred foreign keys are
// verified by scanning the child tables they touched before COMMIT.
package engine
