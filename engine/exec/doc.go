// Package exec runs logical plans: it compiles bound expressions once per
// execution into evaluators over batches, builds pull-based operators from
// plan nodes, and executes writes (INSERT, UPDATE, DELETE) through txn.
//
// Data moves in batches of up to BatchSize rows stored column by column,
// with an optional selection vector naming the live rows, so per-row work is
// a tight loop and no operator calls an interface per row. Pipeline
// breakers (sort, aggregation, hash-join build, result collection)
// materialise rows.
//
// Invariants: a Batch returned by Next is valid until the next call to Next
// or Close on the same operator; values in it may alias page memory and
// must be cloned by anyone who keeps them longer. Every long loop checks
// the context through Ctx.Check.
package exec
