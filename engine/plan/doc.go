// Package plan turns parsed statements into immutable logical plans: the
// binder resolves names against a catalog snapshot into bound expressions
// and plan nodes, and a named, ordered list of small rewrite rules
// optimises them. Plans never execute themselves; engine/exec builds
// operators from them.
//
// The rules (optimize.go, in order): pushdown-filters (WHERE conjuncts
// into join sides, through views and FROM subqueries; cross-side
// equalities become hash keys), rowid-lookup, index-lookup (equality
// prefix plus a range), without-rowid-order, order-by-index (drop a Sort
// the scan order satisfies; top-N over an index), hash-join-build-side
// (build on the smaller estimated input). EstimateRows gives the row
// counts they use: SQLite's defaults (a million rows a table, ten per
// index key) until ANALYZE statistics exist. Each rule has an EXPLAIN
// golden file in engine/testdata/explain.
//
// Invariants: every column reference in a bound expression is an index into
// its input node's output columns (or, for correlated subqueries, an
// OuterRef into an enclosing row); a plan node's Columns never change after
// construction; a plan may be shared by concurrent executions.
package plan
