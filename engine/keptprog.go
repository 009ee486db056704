package engine

import "github.com/ladybugsql/ladybug/engine/exec"

// keptProgMaxBytes bounds the program a session keeps for itself (see
// keptProg): large enough for a point lookup's (about 128 KiB, mostly its
// batch) and small beside a connection's share of the page cache, so that
// every open connection keeping one costs little.
const keptProgMaxBytes = 256 << 10

// keptProg is a session's last closed query program, of plan bp, held
// outside the database's program cache: a loop running one query on one
// connection (a prepared lookup, an ORM's SELECT 1) takes its program back
// without the cache's lock and recency list. A session keeps at most one,
// of at most keptProgMaxBytes; it goes with the session.
type keptProg struct {
	bp *boundPlan
	op exec.Operator
}

// takeQueryProg returns an idle program of bp: the session's kept one,
// else one from the database's cache, else one newly built by mk.
func (s *Session) takeQueryProg(bp *boundPlan, mk func() (exec.Operator, error)) (exec.Operator, error) {
	if k := &s.kept; k.bp == bp && k.op != nil {
		op := k.op
		*k = keptProg{}
		return op, nil
	}
	return build(s.db.progs, bp, mk)
}

// keepQueryProg keeps op, a closed program of bp, when the session holds
// none and op is small; it reports false when the caller must return op to
// the database's cache instead.
func (s *Session) keepQueryProg(bp *boundPlan, op exec.Operator) bool {
	if s.closed || s.kept.op != nil || s.db.family.Load() != nil {
		// A clone family shares one program cache: its connections keep
		// none of their own, so a thousand live clones (a test suite's)
		// do not hold a thousand copies of the same programs.
		return false
	}
	if size := bp.size.settle(); size <= 0 || size > keptProgMaxBytes {
		return false
	}
	s.kept = keptProg{bp: bp, op: op}
	return true
}
