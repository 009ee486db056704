package conformance

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Time limits of the join runner: a query SQLite takes longer than
// joinOracleLimit over is skipped (its answer is too big to be a useful
// check); ladybug gets joinSlowFactor × SQLite's time, at least
// joinSlowFloor, before a query counts as slow, and is stopped after twice
// that (at most joinStopAfter).
const (
	joinOracleLimit = 3 * time.Second
	joinSlowFactor  = 10
	joinSlowFloor   = 50 * time.Millisecond
	joinStopAfter   = time.Minute
	joinMaxRows     = 20000
)

// JoinFailure is a query on which ladybug gave another answer than SQLite
// (Detail says how) or was slow: over joinSlowFactor × SQLite's time and
// over joinSlowFloor, the faster of three runs each (a run stopped at the
// limit is tried three times before it counts as no answer).
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
	Slow       int
	// Times summed over the queries compared, one run each.
	Ladybug, SQLite time.Duration
	Worst           float64 // the largest ladybug/SQLite time ratio over queries SQLite took ≥ 1 ms for
	WorstSQL        string
	Failures        []JoinFailure // shrunk, the first few
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

	db     *JoinDB
	lb, sq *Target
}

// Run generates and checks n queries from seed.
func (jr *JoinRunner) Run(seed uint64, n int) (JoinStats, error) {
	r := rand.New(rand.NewPCG(seed, 0x6a6f696e))
	var st JoinStats
	defer jr.close()
	for i := range n {
		if i%max(jr.PerDB, 1) == 0 || jr.lb.Broken() != nil {
			if err := jr.load(NewJoinDB(r)); err != nil {
				return st, err
			}
		}
		q := NewJoinQuery(r)
		out := jr.check(q)
		st.add(out, q)
		if out.fail == "" {
			continue
		}
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
	st.Ladybug += o.lbTime
	st.SQLite += o.sqTime
	if o.sqTime >= time.Millisecond {
		if ratio := float64(o.lbTime) / float64(o.sqTime); ratio > st.Worst {
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
// it did not), skipped that SQLite's answer was too slow or too big.
type joinOutcome struct {
	fail           string
	slow           bool
	skipped        bool
	oracleErr      bool
	lbTime, sqTime time.Duration
}

// timedQuery runs q on t under a limit and reports its time.
func timedQuery(t *Target, q string, limit time.Duration) (*Rows, time.Duration, error) {
	t.Timeout = limit
	start := time.Now()
	rows, err := t.Query(q)
	return rows, time.Since(start), err
}

// check runs q on both engines: the answers must agree, and ladybug must
// not be slow (confirmed by the faster of three runs of each).
func (jr *JoinRunner) check(q *JoinQuery) joinOutcome {
	sql := q.SQL()
	var o joinOutcome
	sqRows, sqTime, sqErr := timedQuery(jr.sq, sql, jr.oracleLimit())
	o.sqTime = sqTime
	if jr.sq.Broken() != nil || isTimeout(sqErr) || (sqRows != nil && len(sqRows.Values) > joinMaxRows) {
		o.skipped = true
		if jr.sq.Broken() != nil {
			_ = jr.load(jr.db)
		}
		return o
	}
	stop := min(max(joinSlowFloor, sqTime*joinSlowFactor)*2, joinStopAfter)
	lbRows, lbTime, lbErr := timedQuery(jr.lb, sql, stop)
	// A pause of the machine can stop a query that is not slow: a stopped
	// one runs twice more, on a fresh load, before it counts as no answer.
	for retry := 0; retry < 2 && (jr.lb.Broken() != nil || isTimeout(lbErr)); retry++ {
		if err := jr.load(jr.db); err != nil {
			break
		}
		lbRows, lbTime, lbErr = timedQuery(jr.lb, sql, stop)
	}
	o.lbTime = lbTime
	o.oracleErr = sqErr != nil
	switch {
	case jr.lb.Broken() != nil || isTimeout(lbErr):
		o.fail, o.slow = fmt.Sprintf("no answer after %v (SQLite: %v)", lbTime.Round(time.Millisecond), sqTime), true
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
	if !jr.NoTiming && jr.slow(sql, sqTime, lbTime) {
		o.fail, o.slow = fmt.Sprintf("ladybug %v, SQLite %v", lbTime.Round(time.Microsecond), sqTime.Round(time.Microsecond)), true
	}
	return o
}

// slow reports whether ladybug's time is over the limits, rerunning both
// engines twice to rule out a pause of the machine.
func (jr *JoinRunner) slow(sql string, sqTime, lbTime time.Duration) bool {
	isSlow := func() bool { return lbTime > joinSlowFloor && lbTime > joinSlowFactor*sqTime }
	for range 2 {
		if !isSlow() {
			return false
		}
		_, t, _ := timedQuery(jr.sq, sql, jr.oracleLimit())
		sqTime = min(sqTime, t)
		_, t, _ = timedQuery(jr.lb, sql, min(max(joinSlowFloor, sqTime*joinSlowFactor)*2, joinStopAfter))
		lbTime = min(lbTime, t)
	}
	return isSlow()
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
