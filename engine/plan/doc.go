// Package plan turns parsed statements into immutable logical plans: the
// binder resolves names against a catalog snapshot into bound expressions
// and plan nodes, and a named, ordered list of small rewrite rules
// optimises them. Plans never execute themselves; engine/exec builds
// operators from them.
//
// Every node lists its inputs (Node.Children) and copies itself over other
// inputs (Node.WithChildren), so Walk and Transform reach every node of a
// tree without a type switch; a node's own fields it alone knows. A rule is
// a function from a node to its replacement, applied by Transform
// bottom-up; a node whose children a rule replaced is copied first rather
// than having its input fields assigned.
//
// The rules (the rules list in optimize.go, in the order Optimize runs
// them, each bottom-up over the whole tree, then again over every subquery
// plan): fold-constants (constant subexpressions computed once),
// decorrelate ([NOT] EXISTS and IN over a correlated subquery become semi
// and anti joins), pushdown-filters (WHERE conjuncts into join sides,
// through views and FROM subqueries and below an Aggregate; cross-side
// equalities become hash keys; outer joins the filter rejects made inner),
// rowid-lookup, rowid-in (rowid IN a list or a small subquery),
// index-lookup (equality prefix plus a range), decorrelate-scalar (a
// correlated scalar aggregate subquery becomes a LEFT join with a grouped
// input), without-rowid-order, order-by-index (drop a Sort the scan order
// satisfies; top-N over an index), limit-into-scan (Scan.RowLimit),
// count-from-tree (count(*) of a table as a TableCount),
// min-max-from-index, group-by-index (a sorted aggregate over an ordered
// scan), order-by-group (drop a Sort a sorted aggregate satisfies),
// group-limit, distinct-by-index, inner-below-left (an inner join moved
// below a LEFT join whose right side its condition does not read),
// join-order (outer joins a later condition rejects the NULLs of made
// inner, then a chain of inner and outer joins ordered by estimate, each
// outer join right above the inputs its ON reads), index-join (probe an index per left row),
// graph-lookups (a GraphExpand looks its edges up per vertex),
// hash-join-build-side (build on the smaller estimated input),
// group-by-rowid, eager-aggregate (aggregate one side before a join).
// EstimateRows gives the row counts they use: ANALYZE's statistics, else a
// table's size class (a half power of ten of its rows, which the binder
// reads from the table's tree through a TableSizer: Scan.Size), else
// SQLite's defaults (a million rows a table); ten rows per index key until
// ANALYZE measures the index. EXPLAIN golden files in
// engine/testdata/explain show the rules' rewrites (for tables at the
// default size, except *_sized files).
//
// Invariants: every column reference in a bound expression is an index into
// its input node's output columns (or, for correlated subqueries, an
// OuterRef into an enclosing row); a plan node's Columns never change after
// construction; a plan may be shared by concurrent executions.
package plan
