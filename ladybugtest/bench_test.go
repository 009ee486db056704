package ladybugtest_test

import (
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug"
	"github.com/ladybugsql/ladybug/ladybugtest"
)

// scopeTB is a testing.TB whose cleanups run when its scope ends, so a
// benchmark loop can open and close one database per iteration.
type scopeTB struct {
	testing.TB
	cleanups []func()
}

func (s *scopeTB) Cleanup(f func()) { s.cleanups = append(s.cleanups, f) }

func (s *scopeTB) end() {
	for i := len(s.cleanups) - 1; i >= 0; i-- {
		s.cleanups[i]()
	}
	s.cleanups = s.cleanups[:0]
}

// BenchmarkOpen: a fresh empty database per iteration, opened, pinged and
// closed (with the cleanup's leak check). Target: ≤ 50 µs.
func BenchmarkOpen(b *testing.B) {
	tb := &scopeTB{TB: b}
	ladybugtest.Open(tb) // the empty template is built once per binary
	tb.end()
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		db := ladybugtest.Open(tb)
		if err := db.Ping(); err != nil {
			b.Fatal(err)
		}
		tb.end()
	}
	reportCPU(b, cpu)
}

// reportCPU reports the process CPU time per op since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkOpen_LiveHeap: the heap 1,000 fresh databases (each pinged,
// so its engine and one connection exist) keep alive, per database.
// Target: ≤ 64 KiB.
func BenchmarkOpen_LiveHeap(b *testing.B) {
	const n = 1000
	tb := &scopeTB{TB: b}
	for b.Loop() {
		before := liveHeap()
		for range n {
			if err := ladybugtest.Open(tb).Ping(); err != nil {
				b.Fatal(err)
			}
		}
		after := liveHeap()
		b.ReportMetric(float64(after-before)/n, "live-B/db")
		tb.end()
	}
}

// liveHeap is the heap in use after enough collections for the engine's
// program caches to drop what sat idle through two of them.
func liveHeap() uint64 {
	for range 4 {
		runtime.GC()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// sizedTemplate is a template of about mb MiB: one table of 400-byte
// random blobs (2,000 rows per MiB) with an index on a second column.
func sizedTemplate(mb int) *ladybugtest.Template {
	return ladybugtest.NewTemplate(fmt.Sprintf("%dMB", mb), func(db *sql.DB) error {
		_, err := db.Exec(fmt.Sprintf(`CREATE TABLE blobs (id INTEGER PRIMARY KEY, k INTEGER, data BLOB);
			INSERT INTO blobs SELECT value, value * 7 %% 1000, randomblob(400) FROM generate_series(1, %d);
			CREATE INDEX blobs_k ON blobs (k)`, mb*2000))
		return err
	})
}

// BenchmarkTemplateOpen: a clone of a 1, 10 and 100 MB template per
// iteration (cloned, pinged, leak-checked and closed). Target: ≤ 50 µs,
// flat.
func BenchmarkTemplateOpen(b *testing.B) {
	for _, mb := range []int{1, 10, 100} {
		tmpl := sizedTemplate(mb)
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			tb := &scopeTB{TB: b}
			var n int // build outside the timing, and check the size
			if err := tmpl.Open(tb).QueryRow(`SELECT count(*) FROM blobs`).Scan(&n); err != nil || n != mb*2000 {
				b.Fatal(n, err)
			}
			tb.end()
			runtime.GC() // the build's garbage is not the clones' cost
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				if err := tmpl.Open(tb).Ping(); err != nil {
					b.Fatal(err)
				}
				tb.end()
			}
			reportCPU(b, cpu)
		})
		tmpl.Close()
	}
}

// BenchmarkTemplate_ThousandClones: 1,000 live clones of a 10 MB
// template, each having inserted a row and read through an index. Reports
// the heap they add as a multiple of the template's file size, and the
// bytes they wrote (pages copied or allocated by their own writes). Target:
// ≤ 1.5× the template plus what the clones wrote.
func BenchmarkTemplate_ThousandClones(b *testing.B) {
	const n = 1000
	tmpl := sizedTemplate(10)
	defer tmpl.Close()
	tb := &scopeTB{TB: b}
	first := tmpl.Open(tb)
	st, err := ladybug.DBStats(context.Background(), first)
	if err != nil {
		b.Fatal(err)
	}
	tmplBytes := float64(st.Storage.PageCount) * 4096
	tb.end()
	for b.Loop() {
		before := liveHeap()
		var wrote float64
		for i := range n {
			db := tmpl.Open(tb)
			if _, err := db.Exec(`INSERT INTO blobs (k, data) VALUES (?, randomblob(100))`, i); err != nil {
				b.Fatal(err)
			}
			var c int
			if err := db.QueryRow(`SELECT count(*) FROM blobs WHERE k = ?`, i%1000).Scan(&c); err != nil || c < 20 {
				b.Fatal(c, err)
			}
			st, err := ladybug.DBStats(context.Background(), db)
			if err != nil {
				b.Fatal(err)
			}
			wrote += float64(st.Memory.CopiedChunks+st.Memory.FreshChunks) * 4096
		}
		added := float64(liveHeap() - before)
		b.ReportMetric(tmplBytes/(1<<20), "template-MiB")
		b.ReportMetric(added/(1<<20), "added-MiB")
		b.ReportMetric(wrote/(1<<20), "written-MiB")
		b.ReportMetric(added/tmplBytes, "added/template")
		b.ReportMetric((added-wrote)/tmplBytes, "(added-written)/template")
		b.ReportMetric((added-wrote)/n, "overhead-B/clone")
		tb.end()
	}
}

// suiteSchema is a migrated schema of 20 tables, each with two secondary
// indexes and 50 seed rows.
func suiteSchema() string {
	var s strings.Builder
	for i := range 20 {
		fmt.Fprintf(&s, `CREATE TABLE t%[1]d (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE,
			score REAL, created_at TIMESTAMP, parent INTEGER, note TEXT);
		CREATE INDEX t%[1]d_name ON t%[1]d (name);
		CREATE INDEX t%[1]d_parent ON t%[1]d (parent, score);
		INSERT INTO t%[1]d (name, email, score, parent, note)
			SELECT 'n' || value, 'e' || value || '@x', value * 1.5, value %% 7, printf('%%040d', value)
			FROM generate_series(1, 50);
		`, i)
	}
	return s.String()
}

// suiteTest is one test of the suite: a few writes and reads on two
// tables.
func suiteTest(b *testing.B, db *sql.DB, i int) {
	a, c := i%20, (i+7)%20
	if _, err := db.Exec(fmt.Sprintf(`INSERT INTO t%d (name, email, score, parent) VALUES (?, ?, 1, 2)`, a), "x", fmt.Sprint("x", i)); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(fmt.Sprintf(`UPDATE t%d SET score = score + 1 WHERE parent = 3`, c)); err != nil {
		b.Fatal(err)
	}
	var n int
	if err := db.QueryRow(fmt.Sprintf(`SELECT count(*) FROM t%d JOIN t%d USING (parent) WHERE t%d.name = 'n5'`, a, c, a)).Scan(&n); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSuite500: the same 500 tests, each needing the migrated schema,
// run with a template clone per test and with a migration per test.
// Reports both CPU times per suite (the process's, steadier than the wall
// clock on a shared machine) and the speedup. Target: ≥ 20×.
func BenchmarkSuite500(b *testing.B) {
	const tests = 500
	schema := suiteSchema()
	tmpl := ladybugtest.NewTemplate("suite", func(db *sql.DB) error {
		_, err := db.Exec(schema)
		return err
	})
	defer tmpl.Close()
	tb := &scopeTB{TB: b}
	tmpl.Open(tb)
	tb.end()
	var cloneT, migrateT time.Duration
	for b.Loop() {
		start := processCPU()
		for i := range tests {
			suiteTest(b, tmpl.Open(tb), i)
			tb.end()
		}
		cloneT += processCPU() - start
		start = processCPU()
		for i := range tests {
			db := ladybugtest.Open(tb)
			if _, err := db.Exec(schema); err != nil {
				b.Fatal(err)
			}
			suiteTest(b, db, i)
			tb.end()
		}
		migrateT += processCPU() - start
	}
	runs := float64(b.N)
	b.ReportMetric(cloneT.Seconds()*1000/runs, "clone-cpu-ms/suite")
	b.ReportMetric(migrateT.Seconds()*1000/runs, "migrate-cpu-ms/suite")
	b.ReportMetric(float64(migrateT)/float64(cloneT), "speedup")
}
