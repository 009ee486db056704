// Package gen generates random SQL over a fixed schema for differential
// testing: queries (joins of every kind, derived tables, correlated and
// uncorrelated subqueries, aggregates with GROUP BY/HAVING, DISTINCT, set
// operations, window functions with ROWS/RANGE/GROUPS frames, common table
// expressions (plain and recursive), VALUES sources, CASE, CAST and scalar
// functions, date/time and JSON ones included) and writes (multi-row
// INSERT, INSERT OR <conflict>, REPLACE, upserts, INSERT … SELECT, UPDATE,
// DELETE, RETURNING) that often violate the schema's constraints. With
// Gen.Params, literals become placeholders of every spelling bound through
// Stmt.Args (params.go).
//
// Invariants: the same seed gives the same statements. Every statement is
// deterministic under SQLite's rules, so two correct engines must agree on
// it: scalar subqueries are aggregates (one row), LIMIT only follows an
// ORDER BY over every output column, window functions that see the order of
// peers order by the rowid too, INSERT … SELECT orders its rows,
// UPDATE and DELETE filter on columns no index covers (so SQLite visits rows
// in rowid order, as a simple engine does), group_concat orders its input,
// and LIKE/GLOB never see a BLOB (see DIFFERENCES.md, D1).
//
// Caveats: results are compared as multisets unless Stmt.Ordered; values
// that compare equal but print differently (1 and 1.0) could make DISTINCT
// or a LIMIT tie pick different representatives, so the data keeps REAL
// columns free of integral values.
package gen
