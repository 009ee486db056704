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

// SetMemoryBudget caps the bytes that the materialising operators (sorts,
// hash joins and aggregates, DISTINCT, set operations, recursive CTEs,
// windows) of all statements on all connections of the process hold at
// once; n <= 0 removes the cap. It returns the previous cap. A statement
// that would pass it fails with ErrNoMem ("query exceeds the process
// memory budget …"); a sort spills to a temp file first, as under
// memory_limit. Each connection's memory_limit still applies on its own.
func SetMemoryBudget(n int64) int64 { return engine.SetMemoryBudget(n) }

// MemoryBudgetUsed is the bytes those operators hold now, process-wide.
func MemoryBudgetUsed() int64 { return engine.MemoryBudgetUsed() }
