//go:build !mattn

package main

import (
	// The database/sql driver named "sqlite3". Since v0.37.0 the SQLite
	// build ships as Go code in github.com/ncruces/go-sqlite3-wasm/v6, which
	// the driver pulls in itself; the old embed package is deprecated and
	// only prints a warning, so it is not imported.
	_ "github.com/ncruces/go-sqlite3/driver"
	_ "github.com/ncruces/go-sqlite3/vfs/memdb" // registers the "memdb" VFS
)

// flavor names the variant of this binary: the default one links ncruces,
// the "mattn" one links mattn instead (both register "sqlite3").
const flavor = "ncruces"
