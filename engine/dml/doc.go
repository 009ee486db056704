// Package dml is the write side of the engine: compiled INSERT, UPDATE and
// DELETE programs (InsertProg, UpdateProg, DeleteProg) and upserts, table
// and index writers with NOT NULL, CHECK, STRICT and unique checks and
// SQLite's conflict resolution (ABORT, FAIL, IGNORE, REPLACE, ROLLBACK),
// foreign-key maintenance (the violations a statement leaves, ON DELETE /
// ON UPDATE actions), the per-row calls of a table's triggers, and the row
// rewrites and index builds of ALTER TABLE and CREATE INDEX.
//
// A write runs in the executor's statement context (exec.Ctx), reads its
// input through exec's operators and evaluates its expressions with exec's
// compiled evaluators (execapi.go names what it uses); exec never calls
// back into this package except through Ctx.Triggers, which the engine
// sets.
//
// A row, throughout, is a table's column values followed by its rowid.
//
// Caveat: the writers still read syntax at execution (grammar's conflict
// actions, and stored DEFAULT text parsed by ConstValue and defaultValue).
package dml
