package conformance

import (
	"context"
	"database/sql"
	"testing"

	"github.com/ladybugsql/ladybug/conformance/gen"
)

// BenchmarkCorpus_OneOffWrites runs a corpus of distinct INSERT, upsert,
// UPDATE and DELETE texts of the differential generator's kinds once each,
// in order, on ladybug and on SQLite over the same schema: every text is
// new to the engine, as the one-off writes of an ORM, a migration or a
// test's fixtures. LADYBUG_CORPUS_N sets the corpus size (default 2000).
// It reports what BenchmarkCorpus_OneOffQueries reports; writes either
// engine rejects (constraint errors) are timed too, and writes with
// RETURNING read their rows.
func BenchmarkCorpus_OneOffWrites(b *testing.B) {
	n := corpusN()
	g := gen.New(12)
	var writes []string
	returns := map[string]bool{}
	for len(writes) < n {
		w := g.Write()
		if _, dup := returns[w.SQL]; !dup {
			returns[w.SQL] = w.Returns
			writes = append(writes, w.SQL)
		}
	}
	benchCorpus(b, gen.Schema(), writes, func(ctx context.Context, conn *sql.Conn, w string) {
		if returns[w] {
			_, _ = readRows(ctx, conn, w)
			return
		}
		_, _ = conn.ExecContext(ctx, w) // unguarded: no goroutine and timer per write
	})
}
