// Package funcs is ladybug's library of SQL functions with SQLite's exact
// semantics: scalar functions, aggregates and window-function helpers. It
// imports only engine/types, engine/errs and the standard library.
//
// Lookup. Lookup / Resolve find the overload of a name for an argument
// count (min(x) is an aggregate, min(x, y) a scalar); Resolve returns
// SQLite's messages ("wrong number of arguments to function substr()",
// "no such function: x"). Each Func says whether it is deterministic.
//
// Scalars run as ScalarFunc(ctx, args): results may alias the arguments
// or ctx's arena, valid until ctx.Reset (the executor resets per batch and
// copies what it keeps). Session state (changes(), last_insert_rowid(), the
// statement clock for 'now') comes from the Env in the Context.
//
// Aggregates (aggregate.go) are objects stepped per row without allocating;
// DISTINCT, FILTER and ORDER BY inside the call are the executor's job.
// Window functions (window.go) are helpers over a sorted partition;
// FrameAggregator runs aggregates over frames, with Inverter for O(1)
// sliding. Use Value for ROWS frames, ValuePeers for RANGE and GROUPS, and
// ValueLagged for RANGE/GROUPS frames that start "N FOLLOWING"; pass frame
// bounds unclipped (i-2, i+4): SQLite's results depend on the order rows
// enter and leave, which those methods reproduce.
//
// Fidelity. Results are pinned by tables recorded from SQLite 3.54.1
// (testdata/oracle_*.tsv). Known differences, by design:
//   - math functions use Go's math package: the last bit of transcendental
//     results (exp, log, trig) can differ from SQLite's C library;
//   - JSONB (JSON as BLOB) is not supported: a BLOB argument to a JSON
//     function is read as JSON text;
//   - LIKE and GLOB match BLOBs as text, as SQLite documents (the oracle's
//     build does not);
//   - iif() and likelihood() are evaluated eagerly; the executor should
//     rewrite iif to CASE for lazy evaluation and check likelihood's
//     constant probability at bind time;
//   - min()/max() scalars compare with BINARY; aggregates take a collation
//     through CollationSetter.
//
// Limits. No result exceeds MaxLength (1e9 bytes, SQLite's default): larger
// ones fail with CodeTooBig. No function panics on any input.
package funcs
