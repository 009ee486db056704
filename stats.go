package ladybug

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/ladybugsql/ladybug/engine"
)

// Stats are the engine's counters for the database behind a *sql.DB: plan
// cache hits and parses, storage (page cache reads, writes, hits, misses,
// evictions, pinned pages, commits), and transactions.
type Stats = engine.Stats

// DBStats returns the counters of the ladybug database behind db. It
// borrows one pooled connection for the call.
func DBStats(ctx context.Context, db *sql.DB) (Stats, error) {
	c, err := db.Conn(ctx)
	if err != nil {
		return Stats{}, err
	}
	defer c.Close()
	var st Stats
	err = c.Raw(func(dc any) error {
		cn, ok := dc.(*conn)
		if !ok {
			return fmt.Errorf("ladybug: DBStats: not a ladybug connection (%T)", dc)
		}
		st = cn.db.Stats()
		return nil
	})
	return st, err
}
