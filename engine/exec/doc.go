// Package exec runs logical plans: it compiles bound expressions once per
// execution into evaluators over batches and builds pull-based operators
// from plan nodes. Writes (INSERT, UPDATE, DELETE) are engine/dml's, which
// runs in this package's Ctx with its evaluators (writeside.go lists what
// it uses); the foreign-key checks that reads need too (parent lookups,
// foreign_key_check, deferred verification) stay here (fkcheck.go).
//
// Data moves in batches of up to BatchSize rows stored column by column,
// with an optional selection vector naming the live rows, so per-row work is
// a tight loop and no operator calls an interface per row. Pipeline
// breakers (sort, aggregation, hash-join build, DISTINCT, set operations,
// CTE and window tables) materialise rows in factorized tables; results
// are not collected, they stream to the engine's Rows a batch at a time.
// An expression's intermediate results (an operand's values, a CASE's
// pending rows) are borrowed for one call from its operator tree's
// scratch stack (scratch.go), so a tree holds buffers for its deepest
// nesting, not one per expression node, and compiling a node allocates
// none. Operators' own buffers (scratch, sized by fit) and the output
// batches of scans, joins, sorts, aggregates, windows and held rows
// (emptyBatch, reserve) start empty and grow to the batches they meet, so
// a statement over a few rows allocates for those rows, not BatchSize per
// expression node or operator; GrownBytes counts that growth for the
// engine's program cache. A scan read for its first row only (EXISTS, a
// scalar subquery) hands out one row, then twice as many per batch
// (rowBudget.firstRow).
//
// Invariants: a Batch returned by Next is valid until the next call to Next
// or Close on the same operator; values in it may alias page memory and
// must be cloned by anyone who keeps them longer. Every long loop checks
// the context through Ctx.Check.
package exec
