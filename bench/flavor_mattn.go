//go:build mattn && !ladybug

package main

import (
	"database/sql"
	"errors"

	_ "github.com/mattn/go-sqlite3" // the cgo driver named "sqlite3"
)

// flavor names the variant of this binary; see flavor_default.go.
const flavor = "mattn"

// hookedDeletes is ladybug's counter of hook-applied deletes, which only
// the ladybug binary links.
func hookedDeletes(*sql.DB) (int64, error) {
	return 0, errors.New("ladybug is not linked in this binary")
}
