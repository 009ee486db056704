package ladybug

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// diskWriteSpeed writes size bytes sequentially to a new file in dir, in
// 1 MiB writes, then fsyncs it: the disk's sequential write speed in
// bytes per second, measured the way a backup writes.
func diskWriteSpeed(b *testing.B, dir string, size int64) float64 {
	f, err := os.Create(filepath.Join(dir, "disk-speed"))
	if err != nil {
		b.Fatal(err)
	}
	defer os.Remove(f.Name())
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte(i * 31)
	}
	start := time.Now()
	for off := int64(0); off < size; off += int64(len(buf)) {
		if _, err := f.Write(buf); err != nil {
			b.Fatal(err)
		}
	}
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
	el := time.Since(start)
	f.Close()
	return float64(size) / el.Seconds()
}

// BenchmarkBackup100MB: Backup and VACUUM INTO of a 100 MB file database
// while a writer keeps committing one-row transactions, against the
// disk's sequential write speed measured in the same run (the same bytes
// written and fsynced). Target: ≥ 50 % of the disk's speed.
func BenchmarkBackup100MB(b *testing.B) {
	dir := b.TempDir()
	src := filepath.Join(dir, "src.db")
	db, err := sql.Open("ladybug", src+"?sync=normal")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(4)
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, data BLOB);
		INSERT INTO t SELECT value, value % 1000, randomblob(400) FROM generate_series(1, 230000)`); err != nil {
		b.Fatal(err)
	}
	var pages int64
	if err := db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		b.Fatal(err)
	}
	size := pages * 4096
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		// The disk's speed is measured before and after the copies, and
		// the faster run counts: the ratio is then a lower bound.
		disk := diskWriteSpeed(b, dir, size)
		run := func(name string, writer bool, copyDB func(dst string) error) (float64, int64) {
			stop := make(chan struct{})
			var commits atomic.Int64
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				if !writer {
					return
				}
				for {
					select {
					case <-stop:
						return
					default:
					}
					if _, err := db.Exec(`INSERT INTO t (k, data) VALUES (1, randomblob(100))`); err != nil {
						b.Error(err)
						return
					}
					commits.Add(1)
				}
			}()
			dst := filepath.Join(dir, fmt.Sprintf("%s-%d.db", name, i))
			start := time.Now()
			err := copyDB(dst)
			el := time.Since(start)
			close(stop)
			wg.Wait()
			if err != nil {
				b.Fatal(err)
			}
			os.Remove(dst)
			return float64(size) / el.Seconds(), commits.Load()
		}
		alone, _ := run("alone", false, func(dst string) error { return Backup(ctx, db, dst, nil) })
		backup, bc := run("backup", true, func(dst string) error { return Backup(ctx, db, dst, nil) })
		vac, vc := run("vacuum", true, func(dst string) error { _, err := db.Exec(`VACUUM INTO ?`, dst); return err })
		disk = max(disk, diskWriteSpeed(b, dir, size))
		b.ReportMetric(float64(size)/(1<<20), "db-MiB")
		b.ReportMetric(disk/(1<<20), "disk-MiB/s")
		b.ReportMetric(alone/(1<<20), "backup-no-writer-MiB/s")
		b.ReportMetric(backup/(1<<20), "backup-MiB/s")
		b.ReportMetric(backup/disk, "backup/disk")
		b.ReportMetric(vac/(1<<20), "vacuum-into-MiB/s")
		b.ReportMetric(vac/disk, "vacuum-into/disk")
		b.ReportMetric(float64(bc), "commits-during-backup")
		b.ReportMetric(float64(vc), "commits-during-vacuum-into")
	}
}
