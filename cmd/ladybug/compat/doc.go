// Package compat holds the shell's tests against other databases: a
// ladybug .dump loaded into SQLite (modernc.org/sqlite) and .dump
// --postgres loaded into a real PostgreSQL server, each answering the
// same queries as ladybug. It is a module of its own so the shell's
// binary never depends on either driver.
package compat
