// Package catalog holds ladybug's schema: tables, their columns and
// constraints, indexes and views, as immutable snapshots.
//
// A Catalog is never modified once published: DDL clones it (Clone), changes
// the clone, and the engine publishes the clone when the transaction commits.
// The persistent form is one Entry per object (type, name, tbl_name,
// rootpage, sql), the rows sqlite_master shows; the engine rebuilds tables
// and indexes from their original CREATE text when it loads a catalog, so the
// text is the single source of truth.
//
// Names are case-insensitive (ASCII), as in SQLite; maps are keyed by the
// lower-cased name and objects keep the spelling they were created with.
package catalog
