// Package types holds ladybug's SQL values and the rules SQLite gives them:
// storage classes, affinity, comparison and collation, arithmetic and
// conversion. It imports no other ladybug package.
package types
