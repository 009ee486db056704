// Package engine is ladybug's SQL engine behind the database/sql driver: a DB
// owns one store and its transaction manager, a Session is one connection's
// state (its open transaction), a Stmt is a prepared script, and Rows stream
// a statement's result.
//
// Prepare parses through a plan cache keyed by SQL text and invalidated by
// the schema version, binds names against the catalog, plans and keeps the
// result; Exec and Query run it inside the session's transaction or an
// autocommit one per statement.
//
// Invariants: every error returned is an *errs.Error; no panic escapes Exec,
// Query or Prepare (they recover into an internal error); a Session is used by
// one goroutine at a time (database/sql guarantees this per connection), while
// a DB is shared by many Sessions.
package engine
