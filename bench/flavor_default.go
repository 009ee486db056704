//go:build !mattn && !ladybug

package main

import (
	"database/sql"
	"errors"

	// The database/sql driver named "sqlite3". Since v0.37.0 the SQLite
	// build ships as Go code in github.com/ncruces/go-sqlite3-wasm/v6, which
	// the driver pulls in itself; the old embed package is deprecated and
	// only prints a warning, so it is not imported.
	_ "github.com/ncruces/go-sqlite3/driver"
	_ "github.com/ncruces/go-sqlite3/vfs/memdb" // registers the "memdb" VFS
)

// flavor names the variant of this binary. The default one links modernc
// and ncruces; see doc.go for why mattn and ladybug get binaries of their
// own.
const flavor = "default"

// hookedDeletes is ladybug's counter of hook-applied deletes, which only
// the ladybug binary links.
func hookedDeletes(*sql.DB) (int64, error) {
	return 0, errors.New("ladybug is not linked in this binary")
}
