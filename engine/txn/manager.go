package txn

import (
	"context"
	"sync/atomic"

	"github.com/ladybugsql/ladybug/engine/errs"
)

// Options choose how a transaction locks.
type Options struct {
	// ReadOnly rejects every write with an errs.CodeReadOnly error.
	ReadOnly bool
	// Immediate takes the writer lock and the newest snapshot at Begin
	// (BEGIN IMMEDIATE / EXCLUSIVE, and autocommit statements that write).
	// Otherwise the transaction is deferred: the snapshot is taken at the
	// first statement and the writer lock at the first write.
	Immediate bool
}

// Manager starts transactions over one store. It is safe for concurrent use;
// each Tx it returns belongs to one goroutine at a time.
type Manager struct {
	store kvStore
	total counters // summed over finished transactions
}

// counters are the Manager's running totals, updated when a Tx ends.
type counters struct {
	ends                                endStripes
	busySnapshot                        atomic.Int64
	tombstonesApplied, applyRuns, pages atomic.Int64
	statementsUndone, savepointsRolled  atomic.Int64
	nextStripe                          atomic.Uint32 // the stripe of the next new Tx
}

// endStripes are the counts every transaction adds when it ends
// (committed, rolled back), spread over stripes 128 bytes apart: each Tx
// (a session reuses one for its autocommit statements) adds to its own, so
// readers on several cores write different cache lines instead of all
// bouncing one. The totals are the stripes' sums.
type endStripes [8]struct {
	committed, rolledBack atomic.Int64
	_                     [112]byte
}

func (e *endStripes) sum() (committed, rolledBack int64) {
	for i := range e {
		committed += e[i].committed.Load()
		rolledBack += e[i].rolledBack.Load()
	}
	return committed, rolledBack
}

func newManager(s kvStore) *Manager { return &Manager{store: s} }

// Begin starts a transaction. A deferred transaction holds nothing until its
// first statement; an immediate one waits for the writer lock (up to the
// store's busy timeout, then an error matching errs.ErrBusy).
func (m *Manager) Begin(ctx context.Context, o Options) (*Tx, error) {
	if o.ReadOnly && o.Immediate {
		return nil, errs.New(errs.CodeMisuse, "a read-only transaction cannot be immediate")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return begun(newTx(m, o, ctx))
}

// BeginReuse is Begin starting the transaction in old, a finished
// transaction of m that nothing refers to any more (its trees, cursors and
// rows ended with it), so that a session's autocommit statements allocate
// no Tx: a Tx is about a kilobyte, most of the bytes a point lookup
// allocates. A nil, unfinished or foreign old is left alone and a new Tx
// begun.
func (m *Manager) BeginReuse(ctx context.Context, o Options, old *Tx) (*Tx, error) {
	if old == nil || !old.done || old.m != m {
		return m.Begin(ctx, o)
	}
	if o.ReadOnly && o.Immediate {
		return nil, errs.New(errs.CodeMisuse, "a read-only transaction cannot be immediate")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	// gen carries on, so a Tree the previous transaction handed out can
	// never pass for a current one.
	gen, stripe := old.gen+1, old.stripe
	*old = Tx{}
	initTx(old, m, o, ctx)
	old.gen, old.stripe = gen, stripe
	return begun(old)
}

// begun finishes starting tx: an immediate transaction takes the writer
// lock now.
func begun(tx *Tx) (*Tx, error) {
	if tx.opts.Immediate {
		if err := tx.lockWrite(); err != nil {
			return nil, err
		}
	}
	return tx, nil
}

// ManagerStats are totals over every finished transaction of a Manager.
type ManagerStats struct {
	Committed, RolledBack, BusySnapshot int64
	TombstonesApplied, ApplyRuns        int64
	PagesModified                       int64 // pages modified by tombstone applies
	StatementsUndone, SavepointsRolled  int64
}

// Stats returns the Manager's totals.
func (m *Manager) Stats() ManagerStats {
	t := &m.total
	committed, rolledBack := t.ends.sum()
	return ManagerStats{
		Committed: committed, RolledBack: rolledBack,
		BusySnapshot: t.busySnapshot.Load(), TombstonesApplied: t.tombstonesApplied.Load(),
		ApplyRuns: t.applyRuns.Load(), PagesModified: t.pages.Load(),
		StatementsUndone: t.statementsUndone.Load(), SavepointsRolled: t.savepointsRolled.Load(),
	}
}

// record adds a finished transaction's stats to the totals, its end to
// its own stripe.
func (m *Manager) record(s Stats, committed bool, stripe uint8) {
	t := &m.total
	e := &t.ends[int(stripe)%len(t.ends)]
	if committed {
		e.committed.Add(1)
	} else {
		e.rolledBack.Add(1)
	}
	if s == (Stats{}) {
		return // a plain reader: five atomic adds of zero saved
	}
	t.tombstonesApplied.Add(s.TombstonesApplied)
	t.applyRuns.Add(s.ApplyRuns)
	t.pages.Add(s.PagesModified)
	t.statementsUndone.Add(s.StatementsUndone)
	t.savepointsRolled.Add(s.SavepointsRolled)
}
