package conformance

import (
	"context"
	"database/sql"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/conformance/gen"
)

// BenchmarkCorpus_OneOffQueries runs a corpus of distinct SELECTs of the
// differential generator's kinds once each, on ladybug and on SQLite over
// the same data: every text is new to the engine, so each is parsed,
// planned and compiled before it runs, as the one-off statements of an
// ORM, a report or a shell. LADYBUG_CORPUS_N sets the corpus size
// (default 2000). It reports each engine's time per statement and
// ladybug's time over SQLite's (x-sqlite), and the same ratio in process
// CPU time (x-sqlite-cpu: garbage collection included, other processes'
// load excluded, so it is the figure to compare on a shared machine);
// queries either engine rejects are timed too.
func BenchmarkCorpus_OneOffQueries(b *testing.B) {
	n := corpusN()
	g := gen.New(11)
	var writes, queries []string
	seen := map[string]bool{}
	for len(writes) < 300 {
		writes = append(writes, g.Write().SQL)
	}
	for len(queries) < n {
		if q := g.Query().SQL; !seen[q] {
			seen[q] = true
			queries = append(queries, q)
		}
	}
	setup := append(gen.Schema(), writes...)
	benchCorpus(b, setup, queries, func(ctx context.Context, conn *sql.Conn, q string) {
		_, _ = readRows(ctx, conn, q) // unguarded: no goroutine and timer per query
	})
}

// corpusN is the corpus size: LADYBUG_CORPUS_N, or 2000.
func corpusN() int {
	if v, err := strconv.Atoi(os.Getenv("LADYBUG_CORPUS_N")); err == nil {
		return v
	}
	return 2000
}

// benchCorpus runs stmts once each through run, on ladybug and on SQLite,
// each on a fresh target where setup ran first (errors of setup
// statements past the schema are ignored: the generator's writes may
// break constraints). It reports each engine's time per statement,
// ladybug's over SQLite's (x-sqlite) and the same ratio in process CPU
// time (x-sqlite-cpu).
func benchCorpus(b *testing.B, setup, stmts []string, run func(ctx context.Context, conn *sql.Conn, stmt string)) {
	schema := len(gen.Schema())
	var took [2]time.Duration
	var cpu [2]int64
	for i := 0; i < b.N; i++ {
		for k, engine := range []string{EngineLadybug, EngineSQLite} {
			t := OpenTarget(engine)
			for j, s := range setup {
				if _, err := t.Exec(s); err != nil && j < schema {
					b.Fatal(err)
				}
			}
			runtime.GC() // the setup's garbage is not charged to the statements
			start, cpu0 := time.Now(), cpuTime()
			ctx := context.Background()
			for _, s := range stmts {
				run(ctx, t.conn, s)
			}
			runtime.GC() // the statements' garbage is charged to their engine
			took[k] += time.Since(start)
			cpu[k] += cpuTime() - cpu0
			if err := t.Broken(); err != nil {
				b.Fatal(err)
			}
			t.Close()
		}
	}
	per := func(d time.Duration) float64 { return float64(d) / float64(b.N*len(stmts)) }
	b.ReportMetric(per(took[0]), "ladybug-ns/stmt")
	b.ReportMetric(per(took[1]), "sqlite-ns/stmt")
	b.ReportMetric(float64(took[0])/float64(took[1]), "x-sqlite")
	b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "x-sqlite-cpu")
}
