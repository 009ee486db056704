// Package sqlite is ladybug's gorm dialector: gorm on a pure-Go database,
// with no cgo and no SQLite anywhere in the build.
//
//	import (
//		"gorm.io/gorm"
//		sqlite "github.com/ladybugsql/ladybug/gorm"
//	)
//
//	db, err := gorm.Open(sqlite.Open("app.db"), &gorm.Config{})
//	db, err := gorm.Open(sqlite.New(sqlite.Config{Conn: sqlDB}), &gorm.Config{})
//
// The package is named sqlite, and its API (Open, New, Config, Dialector)
// is shaped like gorm.io/driver/sqlite's, so switching a program from
// SQLite to ladybug changes one import line.
//
// Dialector.Name returns "sqlite". ladybug speaks SQLite's dialect and
// catalog (sqlite_master, the pragmas, RETURNING, ON CONFLICT), and gorm
// and its plugins branch on the dialector's name: "sqlite" makes them take
// the paths written for that dialect (gorm.io/datatypes picks JSON
// functions and column types by it, gorm's own code and tests skip
// features SQLite lacks). A name of its own would send them to their
// generic fallbacks, which are written for no database in particular.
//
// Where ladybug does better than SQLite the dialector uses it:
//   - Migrator.AlterColumn changes a column in place with ALTER TABLE …
//     ALTER COLUMN (type, NOT NULL, DEFAULT): no table copy, so indexes,
//     triggers, views and foreign keys that name the table are untouched.
//     SQLite's dialector has to create a new table, copy every row, drop
//     the old one and rename.
//   - DefaultValueOf writes the field's default, so a batch insert where
//     some rows leave a defaulted field zero works (SQLite's dialector
//     writes DEFAULT, which SQLite refuses in VALUES).
//   - CreateConstraint and DropConstraint work in place too: a CHECK or
//     FOREIGN KEY with ALTER TABLE … ADD/DROP CONSTRAINT (the rows already
//     there are checked), a UNIQUE written in CREATE TABLE with DROP
//     CONSTRAINT (its automatic index goes with it), and a new unique
//     constraint as a unique index named after it.
//
// Errors: Translate maps ladybug's constraint errors, by their SQLite
// extended result code, to gorm.ErrDuplicatedKey,
// gorm.ErrForeignKeyViolated and gorm.ErrCheckConstraintViolated when
// gorm.Config.TranslateError is set.
package sqlite
