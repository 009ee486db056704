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
// compiled evaluators (execapi.go names what it uses). Triggers fire
// through Ctx.Triggers, an exec.TriggerFirer the engine's session
// implements: for each row a writer calls FireTriggers(ctx, timing, event,
// table, old, new, set columns) at BEFORE, AFTER and INSTEAD OF, and the
// session runs the matching trigger programs (themselves dml programs) in
// a child context; a writer whose table has no trigger in the statement's
// catalog skips the call. exec never calls back into this package.
//
// Nothing here parses or binds: a write's plan (plan.Insert, plan.Update,
// plan.Delete) carries its conflict resolution (plan.Conflict), its bound
// DEFAULT, CHECK, generated-column and index-key expressions, and the
// foreign keys referencing its table (plan.Referencing) with, for an
// action that writes, the child table's bound index keys, CHECKs,
// generated columns and DEFAULTs.
// The programs compile those once and evaluate them per row (a
// non-constant DEFAULT such as random() or CURRENT_TIMESTAMP is evaluated
// for each row it fills). DDL hands in what it bound against the schema it
// builds (RewriteRows' index keys, ConstValue's expression).
//
// A row, throughout, is a table's column values followed by its rowid.
package dml
