package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// writeCSV writes a CSV of about size bytes: a header and rows of an
// integer id, a name, an email, a real, a timestamp and a note.
func writeCSV(b *testing.B, path string, size int64) int64 {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintln(w, "id,name,email,score,created,note")
	var n, rows int64
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for rows = 1; n < size; rows++ {
		k, _ := fmt.Fprintf(w, "%d,user %d,user%d@example.com,%d.%02d,%s,\"note, with a comma %d\"\n",
			rows, rows%100000, rows, rows%1000, rows%100, t0.Add(time.Duration(rows)*time.Second).Format("2006-01-02 15:04:05"), rows%7)
		n += int64(k)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return rows - 1
}

// timed runs cmd and returns its wall time and peak resident memory.
func timed(b *testing.B, cmd *exec.Cmd) (time.Duration, int64) {
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	el := time.Since(start)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return el, ru.Maxrss * 1024
}

// BenchmarkImport_CSV loads a generated CSV with .import into a new
// table, through the ladybug command (this test binary standing in for it)
// and, when installed, through sqlite3 -csv .import, in the same run.
// LADYBUG_IMPORT_MB sets the file size (default 16; the figure is
// 1024): LADYBUG_IMPORT_MB=1024 go test -run X -bench Import -benchtime 1x
func BenchmarkImport_CSV(b *testing.B) {
	mb := int64(16)
	if v := os.Getenv("LADYBUG_IMPORT_MB"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		mb = n
	}
	dir := b.TempDir()
	csv := filepath.Join(dir, "data.csv")
	rows := writeCSV(b, csv, mb<<20)
	st, _ := os.Stat(csv)
	b.SetBytes(st.Size())
	b.ResetTimer()
	var lbTime, liteTime time.Duration
	var lbRSS, liteRSS int64
	for i := 0; i < b.N; i++ {
		db := filepath.Join(dir, fmt.Sprintf("lb%d.db", i))
		cmd := exec.Command(os.Args[0], db, ".import "+csv+" t")
		cmd.Env = append(os.Environ(), "LADYBUG_SHELL_MAIN=1")
		el, rss := timed(b, cmd)
		lbTime += el
		lbRSS = max(lbRSS, rss)
		if sq, err := exec.LookPath("sqlite3"); err == nil {
			b.StopTimer()
			cmd := exec.Command(sq, filepath.Join(dir, fmt.Sprintf("lite%d.db", i)), "-cmd", ".mode csv", ".import "+csv+" t")
			el, rss := timed(b, cmd)
			liteTime += el
			liteRSS = max(liteRSS, rss)
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/lbTime.Seconds(), "rows/s")
	b.ReportMetric(float64(lbRSS)/(1<<20), "peak-MiB")
	if liteTime > 0 {
		b.ReportMetric(float64(rows)*float64(b.N)/liteTime.Seconds(), "sqlite3-rows/s")
		b.ReportMetric(float64(liteRSS)/(1<<20), "sqlite3-peak-MiB")
		b.ReportMetric(liteTime.Seconds()/lbTime.Seconds(), "speed-vs-sqlite3")
	}
}
