//go:build ladybug && !mattn

package main

import (
	"context"
	"database/sql"

	"github.com/ladybugsql/ladybug" // registers the "ladybug" driver
)

// flavor names the variant of this binary; see flavor_default.go.
const flavor = "ladybug"

// hookedDeletes returns the number of keys the ladybug database behind db
// has deleted through its commit hooks (the tombstone apply).
func hookedDeletes(db *sql.DB) (int64, error) {
	st, err := ladybug.DBStats(context.Background(), db)
	return st.Txn.TombstonesApplied, err
}
