package engine

import (
	"strings"
	"sync"
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/grammar"
)

// planCacheSize is how many distinct SQL texts keep their parse and plans.
const planCacheSize = 512

// planCache maps SQL text to its parsed script and bound plans, so a
// repeated statement is never parsed twice; plans are rebound when the
// schema version changes.
type planCache struct {
	lru               *lru.Cache[string, *script]
	hits, miss, binds atomic.Int64
}

func newPlanCache(n int) *planCache {
	c, _ := lru.New[string, *script](n)
	return &planCache{lru: c}
}

func (pc *planCache) counters() (hits, miss, binds int64) {
	return pc.hits.Load(), pc.miss.Load(), pc.binds.Load()
}

// script is one parsed SQL text: its statements, their placeholders and
// their bound plans for the schema version they were bound at.
type script struct {
	sql      string
	stmts    []grammar.Statement
	numInput int
	names    []string // per position: the placeholder's name or ""
	// namesRepeat is set when a name appears in names twice (:a and @a).
	namesRepeat bool

	mu sync.Mutex
	// plans holds per statement the plans of the two catalogs it was last
	// bound against, newest first: sessions with temp objects bind against
	// catalogs of their own (see Session.compose), and two ways keep such a
	// session and the others from rebinding each other's plans in turn.
	plans [][planWays]*boundPlan
}

// planWays is how many bound plans a statement keeps.
const planWays = 2

type boundPlan struct {
	// cat is the catalog snapshot the plan was bound against; a snapshot is
	// immutable, so pointer identity is exact even across rolled-back DDL
	// that reused a version number.
	cat  *catalog.Catalog
	plan plan.Statement
	// opensTemp marks a statement that reads the temp schema itself, which
	// opens the session's temp database (see needsTemp).
	opensTemp bool
	// idle holds the compiled programs of plan (operator trees, writers)
	// no execution uses, for reuse; the database's progCache owns the
	// entries and guards the slice.
	idle []*idleProg
	size progSize
	// cols caches the engine columns of a query's result.
	colsOnce sync.Once
	cols     []Column
	// sizes are the size classes the binder gave the tables ANALYZE has
	// not measured: the plan is rebound when one no longer holds (see
	// Session.sizesHold). sizedAt and sizedTempAt are the main and temp
	// commits at which they were last found to hold (unverified: never).
	sizes                []plan.TableSize
	sizedAt, sizedTempAt atomic.Uint64
}

// columns returns the result columns of rc, computed once per plan.
func (bp *boundPlan) columns(rc []plan.ResultColumn) []Column {
	bp.colsOnce.Do(func() { bp.cols = resultColumns(rc) })
	return bp.cols
}

// cachedFor returns the plan of statement i bound against cat, if any.
func (s *script) cachedFor(i int, cat *catalog.Catalog) (*boundPlan, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, bp := range s.plans[i] {
		if bp != nil && bp.cat == cat {
			return bp, true
		}
	}
	return nil, false
}

// storeFor keeps bp as statement i's newest plan, complete before other
// sessions can find it, in old's place when old (a plan bp replaces: the
// same catalog, other table sizes) is still kept.
func (s *script) storeFor(i int, bp, old *boundPlan) *boundPlan {
	s.mu.Lock()
	ways := &s.plans[i]
	at := planWays - 1
	for w, p := range ways {
		if old != nil && p == old {
			at = w
		}
	}
	copy(ways[1:at+1], ways[:at])
	ways[0] = bp
	s.mu.Unlock()
	return bp
}

// txControl returns statement i bound when it is BEGIN, COMMIT, ROLLBACK,
// SAVEPOINT or RELEASE, which need no catalog.
func (s *script) txControl(i int) (*plan.TxControl, bool) {
	switch s.stmts[i].(type) {
	case *grammar.BeginStmt, *grammar.CommitStmt, *grammar.RollbackStmt,
		*grammar.SavepointStmt, *grammar.ReleaseStmt:
		p, err := plan.NewBinder(nil, nil).Bind(s.stmts[i])
		if err != nil {
			return nil, false
		}
		tc, ok := p.(*plan.TxControl)
		return tc, ok
	}
	return nil, false
}

// parse returns the script of sql, from the cache or by parsing it.
func (db *DB) parse(sql string) (*script, error) {
	if s, ok := db.cache.lru.Get(sql); ok {
		db.cache.hits.Add(1)
		return s, nil
	}
	db.cache.miss.Add(1)
	db.parses.Add(1)
	stmts, err := grammar.ParseLimited(sql, db.opts.Limits.grammarLimits())
	if err != nil {
		return nil, syntaxError(err)
	}
	s := &script{sql: sql, stmts: stmts, plans: make([][planWays]*boundPlan, len(stmts))}
	s.numInput, s.names = numberParams(sql, stmts)
	s.namesRepeat = repeats(s.names)
	db.cache.lru.Add(sql, s)
	return s, nil
}

// numberParams numbers the placeholders of a script in text order, as
// SQLite numbers one statement's, and returns the placeholder count and
// the names by position. Bare ? placeholders number on from the previous
// statements', so a script consumes its arguments in order, statement by
// statement (as SQLite drivers' Exec does); ?NNN, $N and names are
// absolute.
func numberParams(sql string, stmts []grammar.Statement) (int, []string) {
	if !strings.ContainsAny(sql, "?:@$") {
		return 0, nil
	}
	var pn grammar.ParamNumbering
	for _, st := range stmts {
		pn.Number(st)
	}
	return pn.Max, pn.Names
}

// repeats reports whether a non-empty name appears twice in names.
func repeats(names []string) bool {
	seen := map[string]bool{}
	for _, n := range names {
		if n != "" && seen[n] {
			return true
		}
		seen[n] = true
	}
	return false
}
