package ladybug

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkCloneFile: a clone of a 1, 10 and 100 MB database file per
// iteration (cloned, one row read by its key, closed), while the file
// stays open. Target: flat (the clone reads the file, it does not copy it);
// compare with ladybugtest's BenchmarkTemplateOpen for memory templates.
func BenchmarkCloneFile(b *testing.B) {
	ctx := context.Background()
	for _, mb := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "tmpl.db")
			src, err := sql.Open("ladybug", path+"?_synchronous=off")
			if err != nil {
				b.Fatal(err)
			}
			defer src.Close()
			if _, err := src.Exec(fmt.Sprintf(`CREATE TABLE blobs (id INTEGER PRIMARY KEY, k INTEGER, data BLOB);
				INSERT INTO blobs SELECT value, value * 7 %% 1000, randomblob(400) FROM generate_series(1, %d);
				CREATE INDEX blobs_k ON blobs (k)`, mb*2000)); err != nil {
				b.Fatal(err)
			}
			if _, err := src.Exec(`PRAGMA wal_checkpoint`); err != nil {
				b.Fatal(err)
			}
			runtime.GC() // the build's garbage is not the clones' cost
			b.ReportAllocs()
			stop := reportCPU(b)
			for i := 0; b.Loop(); i++ {
				c, err := Clone(ctx, src)
				if err != nil {
					b.Fatal(err)
				}
				id := 1 + i*7919%(mb*2000)
				var k int
				if err := c.QueryRow(`SELECT k FROM blobs WHERE id = ?`, id).Scan(&k); err != nil || k != id*7%1000 {
					b.Fatal(k, err)
				}
				if err := c.Close(); err != nil {
					b.Fatal(err)
				}
			}
			stop()
		})
	}
}
