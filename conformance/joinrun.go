package conformance

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"time"
)

// Time limits of the join runner: a query SQLite takes longer than
// joinOracleLimit over is skipped (its answer is too big to be a useful
// check); a query is slow when ladybug's time is over joinSlowFactor ×
// SQLite's and over joinSlowFloor. Ladybug is stopped after joinSlowFactor
// × joinStopMargin × SQLite's clock time, at least joinStopFloor and at
// most joinStopAfter.
//
// Time is measured as CPU time: the process's user + system CPU time
// (getrusage RUSAGE_SELF) before and after each query. Neither engine
// starts goroutines that compute (database/sql only parks one per query
// to watch its context), and the test runs the engines one at a time, so
// the difference is the query's own work plus the garbage collection it
// causes — and it does not grow when other processes share the cores, as
// clock time does. Clock time is kept as a second measure. A query
// suspected slow by either measure runs joinConfirmRuns more times on
// each engine, each run after a forced garbage collection (so no run pays
// for an earlier query's garbage), and each measure keeps its smallest
// value: only a query still slow by CPU time fails; one slow only by the
// clock is counted (JoinStats.SlowWall). Where CPU time is not measured
// (not unix), the clock decides.
const (
	joinOracleLimit = 3 * time.Second
	joinSlowFactor  = 10
	joinSlowFloor   = 50 * time.Millisecond
	joinStopMargin  = 4
	joinStopFloor   = time.Second
	joinStopAfter   = time.Minute
	joinConfirmRuns = 3
	joinMaxRows     = 20000
)

// queryTime is the time of one run of a query: CPU time (the clock time
// where the platform does not measure CPU time) and clock time.
type queryTime struct{ CPU, Wall time.Duration }

// slowAgainst reports whether ladybug's time lb is slow against SQLite's
// time sq.
func slowAgainst(lb, sq time.Duration) bool {
	return lb > joinSlowFloor && lb > joinSlowFactor*sq
}

// JoinFailure is a query on which ladybug gave another answer than SQLite
// (Detail says how) or was slow: over joinSlowFactor × SQLite's CPU time
// and over joinSlowFloor, the least of joinConfirmRuns + 1 runs each (a
// run stopped at the limit is tried three times before it counts as no
// answer).
type JoinFailure struct {
	Seed   uint64
	Index  int
	Slow   bool
	Detail string
	DB     *JoinDB
	Query  *JoinQuery
}

// Repro formats the failure as a script: the setup, then the query.
func (f JoinFailure) Repro() string {
	kind := "mismatch"
	if f.Slow {
		kind = "slow"
	}
	return fmt.Sprintf("-- seed %d query %d: %s: %s\n%s;\n%s;", f.Seed, f.Index, kind, f.Detail,
		strings.Join(f.DB.setupOf(f.Query), ";\n"), f.Query.SQL())
}

// JoinStats counts a run of the join generator.
type JoinStats struct {
	Queries    int
	Skipped    int // SQLite took over joinOracleLimit or returned over joinMaxRows rows
	OracleErrs int // queries SQLite rejected (ladybug must reject them too)
	Mismatches int
	Slow       int // slow by CPU time: failures
	SlowWall   int // slow by clock time after the confirming runs (counted, not failed)
	// CPU and clock times summed over the queries compared, one run each.
	Ladybug, SQLite         time.Duration
	LadybugWall, SQLiteWall time.Duration
	// Worst is the largest ladybug/SQLite CPU time ratio over queries
	// SQLite took ≥ 1 ms of CPU for.
	Worst    float64
	WorstSQL string
	Failures []JoinFailure // shrunk, the first few
	// FailedAt lists the index of every query that failed (slow or
	// mismatch), kept or not.
	FailedAt []int
}

// JoinRunner runs generated join queries on both engines.
type JoinRunner struct {
	// PerDB is how many queries run against one random database.
	PerDB int
	// Keep is how many failures are shrunk and kept.
	Keep int
	// NoTiming turns the slowness check off (under the race detector, whose
	// overhead differs between the two engines).
	NoTiming bool
	// OracleLimit skips queries SQLite takes longer than this for (default
	// joinOracleLimit); ShrinkTime bounds the shrinking of one failure
	// (default joinShrinkTime).
	OracleLimit, ShrinkTime time.Duration
	// From skips the queries before index From: they and their databases
	// are generated, so query From is the one a full run would check, but
	// nothing runs until then. (A run where a query broke ladybug's
	// connection drew a fresh database there; a run started later does not.)
	From int

	db     *JoinDB
	lb, sq *Target
}

// Run generates and checks n queries from seed.
func (jr *JoinRunner) Run(seed uint64, n int) (JoinStats, error) {
	r := rand.New(rand.NewPCG(seed, 0x6a6f696e))
	var st JoinStats
	defer jr.close()
	var pending *JoinDB // generated, not yet loaded
	for i := range n {
		if i%max(jr.PerDB, 1) == 0 || (jr.lb != nil && jr.lb.Broken() != nil) {
			pending = NewJoinDB(r)
		}
		q := NewJoinQuery(r)
		if i < jr.From {
			continue
		}
		if pending != nil {
			if err := jr.load(pending); err != nil {
				return st, err
			}
			pending = nil
		}
		out := jr.check(q)
		st.add(out, q)
		if out.slowWall {
			st.SlowWall++
		}
		if out.fail == "" {
			continue
		}
		st.FailedAt = append(st.FailedAt, i)
		if out.slow {
			st.Slow++
		} else {
			st.Mismatches++
		}
		if len(st.Failures) < jr.Keep {
			f := JoinFailure{Seed: seed, Index: i, Slow: out.slow, Detail: out.fail, DB: jr.db, Query: q}
			st.Failures = append(st.Failures, jr.shrink(f))
			if err := jr.load(jr.db); err != nil {
				return st, err
			}
		}
	}
	return st, nil
}

func (st *JoinStats) add(o joinOutcome, q *JoinQuery) {
	switch {
	case o.skipped:
		st.Skipped++
		return
	case o.oracleErr:
		st.OracleErrs++
	}
	st.Queries++
	st.Ladybug += o.lb.CPU
	st.SQLite += o.sq.CPU
	st.LadybugWall += o.lb.Wall
	st.SQLiteWall += o.sq.Wall
	if o.sq.CPU >= time.Millisecond {
		if ratio := float64(o.lb.CPU) / float64(o.sq.CPU); ratio > st.Worst {
			st.Worst, st.WorstSQL = ratio, q.SQL()
		}
	}
}

func (jr *JoinRunner) close() {
	for _, t := range []*Target{jr.lb, jr.sq} {
		if t != nil {
			t.Close()
		}
	}
	jr.lb, jr.sq = nil, nil
}

// load opens fresh databases holding db.
func (jr *JoinRunner) load(db *JoinDB) error {
	jr.close()
	jr.db = db
	jr.lb, jr.sq = OpenTarget(EngineLadybug), OpenTarget(EngineSQLite)
	for _, s := range db.Setup() {
		if _, err := jr.sq.Exec(s); err != nil {
			return fmt.Errorf("conformance: oracle join setup %q: %w", s, err)
		}
		if _, err := jr.lb.Exec(s); err != nil {
			return fmt.Errorf("conformance: ladybug join setup %q: %w", s, err)
		}
	}
	return nil
}

// joinOutcome is one query's result: fail says how ladybug failed ("" when
// it did not; slow when by CPU time), slowWall that it was slow by clock
// time, skipped that SQLite's answer was too slow or too big.
type joinOutcome struct {
	fail      string
	slow      bool
	slowWall  bool
	skipped   bool
	oracleErr bool
	lb, sq    queryTime
}

// timedQuery runs q on t under a clock limit and reports its time.
func timedQuery(t *Target, q string, limit time.Duration) (*Rows, queryTime, error) {
	t.Timeout = limit
	cpu0, measured := processCPU()
	start := time.Now()
	rows, err := t.Query(q)
	qt := queryTime{Wall: time.Since(start)}
	cpu1, _ := processCPU()
	qt.CPU = cpu1 - cpu0
	if !measured {
		qt.CPU = qt.Wall
	}
	return rows, qt, err
}

// stopAfter is the clock limit of a ladybug run of a query SQLite ran in sq.
func stopAfter(sq queryTime) time.Duration {
	return min(max(joinStopFloor, sq.Wall*joinSlowFactor*joinStopMargin), joinStopAfter)
}

// check runs q on both engines: the answers must agree, and ladybug must
// not be slow (confirmed by further runs, see joinSlowFactor).
func (jr *JoinRunner) check(q *JoinQuery) joinOutcome {
	sql := q.SQL()
	var o joinOutcome
	sqRows, sqTime, sqErr := timedQuery(jr.sq, sql, jr.oracleLimit())
	o.sq = sqTime
	if jr.sq.Broken() != nil || isTimeout(sqErr) || (sqRows != nil && len(sqRows.Values) > joinMaxRows) {
		o.skipped = true
		if jr.sq.Broken() != nil {
			_ = jr.load(jr.db)
		}
		return o
	}
	stop := stopAfter(sqTime)
	lbRows, lbTime, lbErr := timedQuery(jr.lb, sql, stop)
	// A pause of the machine can stop a query that is not slow: a stopped
	// one runs twice more, on a fresh load, before it counts as no answer.
	for retry := 0; retry < 2 && (jr.lb.Broken() != nil || isTimeout(lbErr)); retry++ {
		if err := jr.load(jr.db); err != nil {
			break
		}
		lbRows, lbTime, lbErr = timedQuery(jr.lb, sql, stop)
	}
	o.lb = lbTime
	o.oracleErr = sqErr != nil
	switch {
	case jr.lb.Broken() != nil || isTimeout(lbErr):
		o.fail, o.slow = fmt.Sprintf("no answer after %v (SQLite: %v)", lbTime.Wall.Round(time.Millisecond), sqTime.Wall), true
		_ = jr.load(jr.db)
		return o
	case sqErr != nil || lbErr != nil:
		o.fail = compareOutcome(sqErr, lbErr)
		return o
	}
	if msg := compareRows(sqRows, lbRows, false, canonValue); msg != "" {
		o.fail = msg
		return o
	}
	if jr.NoTiming {
		return o
	}
	if slowAgainst(lbTime.CPU, sqTime.CPU) || slowAgainst(lbTime.Wall, sqTime.Wall) {
		lbMin, sqMin := jr.confirm(sql, lbTime, sqTime)
		if slowAgainst(lbMin.CPU, sqMin.CPU) {
			o.fail, o.slow = fmt.Sprintf("ladybug %v CPU (%v clock), SQLite %v CPU (%v clock)",
				lbMin.CPU.Round(time.Microsecond), lbMin.Wall.Round(time.Microsecond),
				sqMin.CPU.Round(time.Microsecond), sqMin.Wall.Round(time.Microsecond)), true
		}
		o.slowWall = slowAgainst(lbMin.Wall, sqMin.Wall)
	}
	return o
}

// confirm runs sql joinConfirmRuns more times on each engine, each run
// after a forced garbage collection, and returns each engine's least CPU
// and least clock time, the first runs' (lb, sq) included.
func (jr *JoinRunner) confirm(sql string, lb, sq queryTime) (queryTime, queryTime) {
	least := func(a, b queryTime) queryTime { return queryTime{min(a.CPU, b.CPU), min(a.Wall, b.Wall)} }
	for range joinConfirmRuns {
		runtime.GC()
		_, t, err := timedQuery(jr.sq, sql, jr.oracleLimit())
		if err == nil {
			sq = least(sq, t)
		}
		runtime.GC()
		_, t, err = timedQuery(jr.lb, sql, stopAfter(sq))
		if err == nil {
			lb = least(lb, t)
		}
		if jr.lb.Broken() != nil || jr.sq.Broken() != nil {
			_ = jr.load(jr.db)
		}
	}
	return lb, sq
}

func (jr *JoinRunner) oracleLimit() time.Duration { return cmp.Or(jr.OracleLimit, joinOracleLimit) }

func isTimeout(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "timeout") || strings.Contains(err.Error(), "deadline") ||
		strings.Contains(err.Error(), "interrupt"))
}

// errNotFailing stops a shrink step whose candidate no longer fails.
var errNotFailing = errors.New("conformance: candidate passes")

// shrink makes f minimal: it drops WHERE and ON conditions, select-list
// expressions and FROM items no condition reads, then halves the tables'
// rows, keeping each change that still fails the same way (a mismatch, or
// slowness). It runs at most joinShrinkSteps candidates, for at most
// joinShrinkTime.
func (jr *JoinRunner) shrink(f JoinFailure) JoinFailure {
	steps := 0
	deadline := time.Now().Add(cmp.Or(jr.ShrinkTime, joinShrinkTime))
	fails := func(db *JoinDB, q *JoinQuery) (string, bool) {
		steps++
		if err := jr.load(db); err != nil {
			return "", false
		}
		o := jr.check(q)
		return o.fail, o.fail != "" && o.slow == f.Slow
	}
	try := func(db *JoinDB, q *JoinQuery) bool {
		if steps >= joinShrinkSteps || time.Now().After(deadline) {
			return false
		}
		if detail, ok := fails(db, q); ok {
			f.DB, f.Query, f.Detail = db, q, detail
			return true
		}
		return false
	}
	for changed := true; changed && steps < joinShrinkSteps; {
		changed = false
		for _, cand := range f.Query.smaller() {
			if try(f.DB, cand) {
				changed = true
				break
			}
		}
		if changed {
			continue
		}
		for t := range joinTables {
			for len(f.DB.Rows[t]) > 0 {
				db := f.DB.clone()
				db.Rows[t] = db.Rows[t][:len(db.Rows[t])/2]
				if !try(db, f.Query) {
					break
				}
				changed = true
			}
		}
	}
	return f
}

const (
	joinShrinkSteps = 400
	joinShrinkTime  = time.Minute
)

// smaller lists the queries one part smaller than q.
func (q *JoinQuery) smaller() []*JoinQuery {
	var out []*JoinQuery
	for i := range q.Where {
		c := q.copy()
		c.Where = append(c.Where[:i:i], q.Where[i+1:]...)
		out = append(out, c)
	}
	for i := range q.Items {
		for k := range q.Items[i].on {
			c := q.copy()
			on := q.Items[i].on
			c.Items[i].on = append(on[:k:k], on[k+1:]...)
			out = append(out, c)
		}
	}
	for i := range q.Sel {
		if len(q.Sel) > 1 {
			c := q.copy()
			c.Sel = append(c.Sel[:i:i], q.Sel[i+1:]...)
			out = append(out, c)
		}
	}
	for i := range q.Items {
		if len(q.Items) > 1 && !q.reads(q.Items[i].alias) {
			c := q.copy()
			c.Items = append(c.Items[:i:i], q.Items[i+1:]...)
			c.Items[0].op = ","
			c.Where = append(c.Where, c.Items[0].on...)
			c.Items[0].on = nil
			out = append(out, c)
		}
	}
	for i := range q.Items {
		if q.Items[i].op != "," && q.Items[i].op != "JOIN" {
			c := q.copy()
			c.Items[i].op = "JOIN"
			out = append(out, c)
		}
	}
	return out
}

func (q *JoinQuery) copy() *JoinQuery {
	c := *q
	c.Where = append([]joinCond(nil), q.Where...)
	c.Sel = append([]joinCond(nil), q.Sel...)
	c.Items = append([]joinItem(nil), q.Items...)
	return &c
}

// reads reports whether any condition or select expression reads alias.
func (q *JoinQuery) reads(alias string) bool {
	all := append(append([]joinCond{}, q.Where...), q.Sel...)
	for _, it := range q.Items {
		all = append(all, it.on...)
	}
	for _, c := range all {
		for _, a := range c.reads {
			if a == alias {
				return true
			}
		}
	}
	return false
}
