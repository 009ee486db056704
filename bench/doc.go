// Command bench is ladybug's comparison harness: it runs the same workloads
// through database/sql against ladybug and the three SQLite drivers Go
// programs use today (modernc.org/sqlite, github.com/mattn/go-sqlite3 and
// github.com/ncruces/go-sqlite3), in file and in-memory modes, and prints
// medians, ratios to the best driver, allocations and peak heap.
//
//	cd bench && go run . -scale 0.1
//
// # How a run is organised
//
// A cell is one case (for example "delete_batch/spread") for one driver in
// one mode. The parent process runs every cell in a child process of its own
// (the same binary with -worker), so a crash, a runaway goroutine or a hang
// in one engine cannot take the harness down: a child that exceeds -timeout
// is killed and its cell reads "timeout". Inside the child each case's setup
// runs once, untimed, then -warmup discarded runs and -runs measured runs.
// Only the region a case passes to Env.Measure is timed; allocations and
// bytes come from runtime.MemStats deltas around that region, and the peak
// Go heap is sampled during it for the cases where memory matters.
//
// # Invariants
//
//   - Every case verifies its own answer against values computed in Go from
//     the same deterministic generator; a failed check marks the cell WRONG
//     and it never counts as the best.
//   - Any error (at setup or during a run) turns the cell into
//     "unsupported: <first line of the error>"; nothing is skipped silently.
//
// # Caveats
//
// mattn/go-sqlite3 and ncruces/go-sqlite3 both register the database/sql
// name "sqlite3" at init, so they cannot live in one binary. The binary that
// go run builds links modernc and ncruces; for mattn's cells and ladybug's
// the harness builds a copy of itself with -tags mattn or -tags ladybug
// (once per run, into the run's temporary directory; the go build cache
// makes repeats quick). A side effect is wanted: when the root ladybug
// package does not compile, only the ladybug cells say so
// ("unsupported: build ladybug worker: …") and the SQLite drivers still run.
//
// Allocation figures count Go allocations only: memory that cgo code
// (mattn) allocates in C is invisible to runtime.MemStats; the max RSS
// column of the heap table covers it.
package main
