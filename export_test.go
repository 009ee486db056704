package ladybug

import (
	"context"
	"database/sql"
)

// SetEagerZero switches db's block pool to eager zeroing, for A/B benchmarks.
func SetEagerZero(db *sql.DB, on bool) error {
	c, err := db.Conn(context.Background())
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Raw(func(dc any) error {
		dc.(*conn).db.SetEagerZero(on)
		return nil
	})
}

// OpenEngines is how many file and named-memory engines the process holds.
func OpenEngines() int {
	registry.Lock()
	defer registry.Unlock()
	return len(registry.dbs)
}
