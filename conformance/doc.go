// Package conformance proves ladybug's SQL semantics against SQLite.
//
// It has two halves, both run through database/sql against ladybug (driver
// "ladybug") and against SQLite as the oracle (modernc.org/sqlite, driver
// "sqlite"):
//
//   - A sqllogictest runner: ParseFile reads a .test file into Records,
//     Target runs each record on one engine, and Check compares the outcome
//     with the record's expectation. The tests in this module run every file
//     under testdata/ against both engines, one subtest per record.
//   - A differential runner (Differ) that feeds the statements of the random
//     generator in package gen to both engines and compares results,
//     success or failure, and table contents after writes.
//
// Invariants: the oracle passes every record written for it (a record the
// oracle fails is a bug in the test file); a ladybug failure is a
// regression unless the record is listed in
// testdata/ladybug_known_failures.txt. Intended differences are recorded in
// DIFFERENCES.md and kept out of the comparison with skipif/onlyif.
//
// Caveats: values are compared in sqllogictest's text form (see
// FormatValue), so a REAL 2.0 under type I prints as 2, as sqllogictest does;
// storage classes are checked with typeof() in the files and exactly by the
// differential runner.
package conformance
