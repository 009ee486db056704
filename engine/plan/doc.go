// Package plan turns parsed statements into immutable logical plans: the
// binder resolves names against a catalog snapshot into bound expressions
// and plan nodes, and a named, ordered list of small rewrite rules
// optimises them. Plans never execute themselves; engine/exec builds
// operators from them.
//
// Invariants: every column reference in a bound expression is an index into
// its input node's output columns (or, for correlated subqueries, an
// OuterRef into an enclosing row); a plan node's Columns never change after
// construction; a plan may be shared by concurrent executions.
package plan
