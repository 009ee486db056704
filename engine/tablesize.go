package engine

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/storage"
	"github.com/ladybugsql/ladybug/engine/txn"
)

// unverified is a boundPlan's sizedAt when no snapshot alone says its
// sizes hold: they were read through a write transaction, whose own
// writes no commit number shows.
const unverified = ^uint64(0)

// tableSizer is the binder's plan.TableSizer for one statement: each
// table's storage.Tree.ApproxCount (a page per tree level), read in the
// statement's transactions when they have begun (the explicit
// transaction's, whose own writes count), else in a read snapshot of the
// store opened at the first table and closed when the bind ends, so that
// a bind never reads pages outside a registered snapshot (a concurrent
// writer, another process's checkpoint, a dropped table's reused page:
// a page that is no longer the table's gives a wrong estimate or none,
// and the statement's own catalog check rebinds). Temp tables are read in
// the session's temp store the same way.
type tableSizer struct {
	s       *Session
	tx, ttx *txn.Tx // the transactions to read in, when begun
	// fresh is set when tx and ttx hold no writes of their own (an
	// autocommit statement's, before it runs): the commit they read
	// then says all they see.
	fresh bool
	// main and temp are the snapshots opened for the bind; mainOpen and
	// tempOpen say whether they hold one.
	main, temp         storage.Tx
	mainOpen, tempOpen bool
	// at and tempAt are the commits the sizes were read at (unverified
	// when read through a write transaction), 0 before the first read.
	at, tempAt uint64
}

// begin readies z to size tables for a bind in st's transactions (nil
// when not begun).
func (z *tableSizer) begin(s *Session, st stmtTx) *tableSizer {
	z.s, z.tx, z.ttx, z.fresh, z.at, z.tempAt = s, st.tx, st.ttx, st.auto, 0, 0
	return z
}

// end closes the snapshots z opened.
func (z *tableSizer) end() {
	if z.mainOpen {
		z.main.Rollback()
		z.mainOpen = false
	}
	if z.tempOpen {
		z.temp.Rollback()
		z.tempOpen = false
	}
	z.tx, z.ttx = nil, nil
}

// ApproxRows implements plan.TableSizer.
func (z *tableSizer) ApproxRows(t *catalog.Table) (int64, bool) {
	switch {
	case t.Virtual:
		return 0, false
	case t.Temp:
		if z.s.temp == nil {
			return 0, false
		}
		return z.count(t.Root, z.ttx, z.s.temp.store, &z.temp, &z.tempOpen, &z.tempAt)
	}
	return z.count(t.Root, z.tx, z.s.db.store, &z.main, &z.mainOpen, &z.at)
}

// count estimates the tree at root in tx when it has a snapshot, else in
// a snapshot of st opened in room, recording the commit read at in *at.
func (z *tableSizer) count(root uint32, tx *txn.Tx, st *storage.Store, room *storage.Tx, open *bool, at *uint64) (int64, bool) {
	if tx != nil {
		if n, ok := tx.ApproxCount(root); ok {
			*at = snapAt(tx, z.fresh)
			return n, true
		}
		if tx.Snapshot() != 0 {
			return 0, false // a snapshot that cannot read the tree
		}
	}
	if !*open {
		if st.BeginReadIn(room) != nil {
			return 0, false
		}
		*open = true
	}
	n, err := room.ApproxCount(root)
	*at = room.Snapshot()
	return n, err == nil
}

// snapAt is the commit a transaction's reads show, unverified when it
// may have written (a write transaction not fresh).
func snapAt(tx *txn.Tx, fresh bool) uint64 {
	if !fresh && tx.Writable() {
		return unverified
	}
	return tx.Snapshot()
}

// sizesHold reports whether bp's tables are still in the size classes it
// was bound with, in the statement's transactions st. A plan whose sizes
// were confirmed at the commits st reads answers at once (the warm path:
// two loads and compares); otherwise the trees' estimates are read again
// and, when the classes hold, the commits are recorded.
func (s *Session) sizesHold(bp *boundPlan, st stmtTx) bool {
	main, temp := snapAt(st.tx, st.auto), uint64(0)
	if st.ttx != nil {
		temp = snapAt(st.ttx, st.auto)
	}
	if main != unverified && temp != unverified && bp.sizedAt.Load() == main && bp.sizedTempAt.Load() == temp {
		return true
	}
	z := s.sizer.begin(s, st)
	ok := plan.SizesHold(z, bp.sizes)
	z.end()
	if ok {
		bp.sizedAt.Store(main)
		bp.sizedTempAt.Store(temp)
	}
	return ok
}
