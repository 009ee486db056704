package engine

import (
	"context"
	"errors"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/dml"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
)

// stmtTx is the transaction one statement runs in.
type stmtTx struct {
	tx *txn.Tx
	// ttx is the transaction of the session's temp database, nil when the
	// session has none.
	ttx  *txn.Tx
	auto bool // autocommit: commit or roll back when the statement ends
}

// isWrite reports whether a bound statement may write.
func isWrite(p plan.Statement) bool {
	switch p := p.(type) {
	case *plan.Query, *plan.Explain, *plan.Nop, *plan.TxControl:
		return false
	case *plan.Pragma:
		return p.HasArg && pragmaWrites(p.Name) || p.Name == "optimize"
	}
	return true
}

// startStatement opens the statement's transaction: the session's explicit
// one, or an autocommit one, with its temp side when the session has a
// temp database. A write to temp objects only (tempOnly) reads main and
// so waits for no writer.
func (s *Session) startStatement(ctx context.Context, write, tempOnly bool) (stmtTx, error) {
	ctx = s.lockCtx(ctx) // the statement's writer-lock wait
	st := stmtTx{tx: s.tx, ttx: s.ttx}
	if st.tx == nil {
		tx, err := s.db.txm.BeginReuse(ctx, txn.Options{}, s.spareTx)
		s.spareTx = nil
		if err != nil {
			return st, err
		}
		st.tx, st.auto = tx, true
		if s.temp != nil {
			if st.ttx, err = s.temp.txm.Begin(ctx, txn.Options{}); err != nil {
				tx.Rollback()
				return st, err
			}
		}
	}
	var err error
	switch {
	case write && !tempOnly && s.readOnly():
		err = errs.New(errs.CodeReadOnly, "attempt to write a readonly database")
	case write && !tempOnly:
		err = st.tx.StartWriteStatement(ctx)
	default:
		err = st.tx.StartStatement(ctx)
	}
	if err == nil && st.ttx != nil {
		if write {
			err = st.ttx.StartWriteStatement(ctx)
		} else {
			err = st.ttx.StartStatement(ctx)
		}
		if err != nil {
			st.tx.EndStatement(err)
		}
	}
	if err != nil {
		if st.auto {
			st.rollback()
		}
		return st, err
	}
	return st, nil
}

// rollback rolls back both sides of an autocommit transaction.
func (st stmtTx) rollback() {
	st.tx.Rollback()
	if st.ttx != nil {
		st.ttx.Rollback()
	}
}

// endStatement closes the statement: in autocommit mode commit, or roll
// back on error; inside a transaction undo the statement on error.
func (s *Session) endStatement(st stmtTx, err error) error {
	if err != nil && st.auto {
		// The transaction exists for this statement alone: rolling it
		// back discards the statement's writes at once, with no need to
		// undo them row by row first.
		s.deferred = nil
		st.rollback()
		return err
	}
	if st.ttx != nil {
		if e := st.ttx.EndStatement(err); e != nil && err == nil {
			err = e
		}
	}
	if e := st.tx.EndStatement(err); e != nil && err == nil {
		err = e
	}
	if !st.auto {
		return err
	}
	if err == nil {
		err = s.verifyDeferred(st.tx, st.ttx)
	}
	s.deferred = nil
	if err != nil {
		st.rollback()
		return err
	}
	if cerr := st.tx.Commit(); cerr != nil {
		st.rollback()
		return cerr
	}
	// The statement is over and nothing refers to its transaction: the
	// next autocommit statement may begin in it.
	s.spareTx = st.tx
	if st.ttx != nil {
		return st.ttx.Commit()
	}
	return nil
}

// bindAt returns statement i of sc bound against cat, from the script's
// cache when it was bound against the same catalog. st holds the
// statement's transactions when it has begun (else the session's
// explicit ones, or none), which the binder's table sizes are read in.
func (s *Session) bindAt(sc *script, i int, cat *catalog.Catalog, st stmtTx) (*boundPlan, error) {
	if bp, ok := sc.cachedFor(i, cat); ok {
		return bp, nil
	}
	return s.bindNew(sc, i, cat, st, nil)
}

// sessionTx is the session's explicit transactions (none in autocommit
// mode), which a statement bound before it begins reads table sizes in.
func (s *Session) sessionTx() stmtTx { return stmtTx{tx: s.tx, ttx: s.ttx} }

// bindNew binds statement i of sc against cat and keeps the plan in the
// script's cache, in the place of old when old is given (a plan of the
// same catalog whose table sizes no longer hold).
func (s *Session) bindNew(sc *script, i int, cat *catalog.Catalog, st stmtTx, old *boundPlan) (*boundPlan, error) {
	s.db.cache.binds.Add(1)
	z := s.sizer.begin(s, st)
	b := plan.NewBinder(cat, s.db.opts.Limits.evaluator())
	if !s.db.unsized {
		b.SizeTables(z)
	}
	p, err := b.Bind(sc.stmts[i])
	z.end()
	if err == nil {
		err = s.db.opts.Limits.checkColumns(p)
	}
	if err != nil {
		return nil, err
	}
	bp := &boundPlan{cat: cat, plan: p, opensTemp: b.OpensTemp(), sizes: b.Sizes()}
	bp.sizedAt.Store(z.at)
	bp.sizedTempAt.Store(z.tempAt)
	return sc.storeFor(i, bp, old), nil
}

// newCtx builds the execution context of one statement, in mem when the
// caller has room for it.
func (s *Session) newCtx(ctx context.Context, tx *txn.Tx, cat *catalog.Catalog, args []types.Value, mem *stmtMem) *exec.Ctx {
	var c *exec.Ctx
	if mem != nil && !mem.ctxUsed {
		c, mem.ctxUsed = &mem.ctx, true
	} else {
		c = &exec.Ctx{}
	}
	if s.settingFn == nil {
		s.settingFn, s.deferFKFn, s.triggers.s = s.setting, s.deferFK, s
	}
	// Field by field, not a Ctx literal: see exec.Ctx.Reset.
	c.Reset()
	c.Go, c.Tx, c.Catalog, c.Args, c.Sess = ctx, tx, cat, args, s
	c.Pool, c.MemoryLimit, c.Setting, c.ForeignKeys = s.db.pool, s.db.opts.MemoryLimit, s.settingFn, s.foreignKeys
	c.DeferFK, c.Triggers = s.deferFKFn, &s.triggers
	if l := &s.db.opts.Limits; *l != (Limits{}) {
		c.LengthLimit, c.LikeLimit = l.ctxLimits()
	}
	return c
}

// stmtMem is room for the first statement's context and result set inside
// the Rows that will hold them, saving two allocations per query.
type stmtMem struct {
	ctx     exec.Ctx
	rs      resultSet
	ctxUsed bool
	rsUsed  bool
}

func (m *stmtMem) resultSet() *resultSet {
	if m != nil && !m.rsUsed {
		m.rsUsed = true
		return &m.rs
	}
	return &resultSet{}
}

// outcome is what running one statement produced.
type outcome struct {
	res  Result
	rows *resultSet // non-nil for statements that return rows
}

// runStatement runs statement i of sc. A query's result set keeps the
// statement open (and its autocommit transaction) until it is closed.
func (s *Session) runStatement(ctx context.Context, sc *script, i int, args []types.Value, mem *stmtMem) (out outcome, err error) {
	defer recoverInternal(&err)
	if err := ctx.Err(); err != nil {
		return out, exec.Interrupted(err)
	}
	// TxControl never needs a catalog or a statement transaction.
	if tc, ok := sc.txControl(i); ok {
		return out, s.txControl(ctx, tc)
	}
	cat0 := s.txCat
	if cat0 == nil {
		cat0 = s.db.cat.Load()
	}
	cat0 = s.compose(cat0)
	bp, err := s.bindAt(sc, i, cat0, s.sessionTx())
	if err != nil {
		return out, err
	}
	if isVacuum(bp.plan) {
		return out, s.vacuum(ctx)
	}
	if nop, ok := isVacuumInto(bp.plan); ok {
		return out, s.vacuumInto(s.newCtx(ctx, nil, cat0, args, mem), nop)
	}
	if q, ok := bp.plan.(*plan.Query); ok && q.NoTables && s.tx == nil {
		// Nothing to read: no transaction, no snapshot.
		return s.dispatch(s.newCtx(ctx, nil, cat0, args, mem), bp, mem)
	}
	if s.temp == nil && (needsTemp(bp.plan) || bp.opensTemp) {
		if err := s.ensureTemp(ctx); err != nil {
			return out, err
		}
	}
	st, err := s.startStatement(ctx, isWrite(bp.plan), tempOnly(cat0, bp.plan))
	if err != nil {
		return out, err
	}
	cat, err := s.catalogFor(st.tx)
	if err == nil {
		if cat = s.compose(cat); cat != cat0 {
			bp, err = s.bindAt(sc, i, cat, st)
		}
	}
	if err == nil && len(bp.sizes) > 0 && !s.sizesHold(bp, st) {
		// The plan was made for tables of other sizes (an empty table's
		// plan for one now holding a million rows): bind it again.
		bp, err = s.bindNew(sc, i, cat, st, bp)
	}
	if err != nil {
		return out, s.endStatement(st, err)
	}
	c := s.newCtx(ctx, st.tx, cat, args, mem)
	c.TempTx = st.ttx
	prevCat, prevTemp := s.txCat, s.txTempCat
	out, err = s.dispatchSafe(c, bp, mem)
	if err != nil {
		s.txCat, s.txTempCat = prevCat, prevTemp
		mode := conflictMode(bp.plan, err)
		s.noteFailedWrite(bp.plan, mode, out.res.RowsAffected)
		out = outcome{}
		switch mode {
		case plan.ConflictFail:
			// OR FAIL keeps the rows written before the failing one.
			if e := s.endStatement(st, nil); e != nil {
				return out, e
			}
			return out, err
		case plan.ConflictRollback:
			s.endStatement(st, err)
			if s.tx != nil {
				s.Rollback()
			}
			return out, err
		}
		var rb *exec.RaiseRollback
		if errors.As(err, &rb) {
			s.endStatement(st, rb.Err)
			if s.tx != nil {
				s.Rollback()
			}
			return out, rb.Err
		}
	}
	if out.rows != nil && out.rows.op != nil && err == nil && st.auto {
		// A streaming query in autocommit mode keeps its transaction (a
		// snapshot) until its rows are closed.
		out.rows.st, out.rows.sess = st, s
		return out, nil
	}
	if err == nil && st.auto && (s.txCat != nil || s.txTempCat != nil) {
		// Autocommit DDL: the catalog is published once committed.
		cat, tcat := s.txCat, s.txTempCat
		s.txCat, s.txTempCat = nil, nil
		if err = s.endStatement(st, nil); err == nil {
			if cat != nil {
				s.db.publish(cat)
			}
			if tcat != nil {
				s.temp.cat = tcat
			}
		}
		return out, err
	}
	if st.auto {
		s.txCat, s.txTempCat = nil, nil
	}
	return out, s.endStatement(st, err)
}

// dispatchSafe is dispatch with a panic turned into an error, so the
// statement still ends (and releases its locks) normally.
func (s *Session) dispatchSafe(c *exec.Ctx, bp *boundPlan, mem *stmtMem) (out outcome, err error) {
	defer recoverInternal(&err)
	return s.dispatch(c, bp, mem)
}

// dispatch executes a bound statement, reusing a compiled program of its
// plan when one is free.
func (s *Session) dispatch(c *exec.Ctx, bp *boundPlan, mem *stmtMem) (outcome, error) {
	switch p := bp.plan.(type) {
	case *plan.Query:
		op, err := s.takeQueryProg(bp, func() (exec.Operator, error) { return exec.Build(p.Root) })
		if err != nil {
			return outcome{}, err
		}
		rs := mem.resultSet()
		rs.start(bp.columns(p.Cols), op, c, s.db.progs, bp, s)
		return outcome{rows: rs}, nil
	case *plan.Insert:
		ins, err := build(s.db.progs, bp, func() (*dml.InsertProg, error) { return dml.NewInsert(p) })
		if err != nil {
			return outcome{}, err
		}
		r, err := ins.Run(c)
		s.db.progs.put(bp, ins)
		return s.writeOutcome(r, p.RetCols, err)
	case *plan.Update:
		up, err := build(s.db.progs, bp, func() (*dml.UpdateProg, error) { return dml.NewUpdate(p) })
		if err != nil {
			return outcome{}, err
		}
		r, err := up.Run(c)
		s.db.progs.put(bp, up)
		return s.writeOutcome(r, p.RetCols, err)
	case *plan.Delete:
		del, err := build(s.db.progs, bp, func() (*dml.DeleteProg, error) { return dml.NewDelete(p) })
		if err != nil {
			return outcome{}, err
		}
		r, err := del.Run(c)
		s.db.progs.put(bp, del)
		return s.writeOutcome(r, p.RetCols, err)
	case *plan.CreateTable, *plan.CreateIndex, *plan.CreateView, *plan.Drop, *plan.AlterTable, *plan.CreateTrigger,
		*plan.CreateGraph, *plan.DropGraph:
		return outcome{}, s.ddl(c, bp.plan)
	case *plan.Pragma:
		return s.pragma(c, p)
	case *plan.Explain:
		if q, ok := p.Stmt.(*plan.Query); ok && p.Analyze {
			rows, err := explainAnalyze(c, q)
			if err != nil {
				return outcome{}, err
			}
			return outcome{rows: staticRows(explainColumns, rows)}, nil
		}
		rows, err := explainRows(p.Stmt)
		if err != nil {
			return outcome{}, err
		}
		return outcome{rows: staticRows(explainColumns, rows)}, nil
	case *plan.Analyze:
		return outcome{}, s.analyze(c, p)
	case *plan.Reindex:
		return outcome{}, reindex(c, p)
	case *plan.Nop:
		return outcome{}, nil
	}
	return outcome{}, errs.New(errs.CodeNotSupported, "not supported: statement %T", bp.plan)
}

// noteFailedWrite sets changes() after an INSERT, UPDATE or DELETE that
// failed at run time: as in SQLite, the rows an OR FAIL statement keeps
// count, and an aborted statement counts none.
func (s *Session) noteFailedWrite(p plan.Statement, mode plan.Conflict, written int64) {
	switch p.(type) {
	case *plan.Insert, *plan.Update, *plan.Delete:
	default:
		return
	}
	if mode != plan.ConflictFail {
		written = 0
	}
	s.changes = written
	s.totalChanges += written
}

func (s *Session) writeOutcome(r dml.WriteResult, ret []plan.ResultColumn, err error) (outcome, error) {
	if err != nil {
		// The rows written before the error, for noteFailedWrite.
		return outcome{res: Result{RowsAffected: r.Affected}}, err
	}
	s.changes = r.Affected
	s.totalChanges += r.Affected
	out := outcome{res: Result{LastInsertID: s.lastRowid, RowsAffected: r.Affected}}
	if ret != nil {
		out.rows = staticRows(resultColumns(ret), r.Returning)
	}
	return out, nil
}

func resultColumns(rc []plan.ResultColumn) []Column {
	out := make([]Column, len(rc))
	for i, c := range rc {
		out[i] = Column{Name: c.Name, DeclType: c.DeclType, Nullable: -1}
		switch {
		case c.NotNull:
			out[i].Nullable = 0
		case c.DeclType != "":
			out[i].Nullable = 1
		}
	}
	return out
}

// recoverInternal turns a panic into an internal error.
func recoverInternal(err *error) {
	if r := recover(); r != nil {
		*err = errs.New(errs.CodeGeneric, "internal error: %v", r)
	}
}

// conflictMode returns the OR clause of a write whose constraint failed.
func conflictMode(p plan.Statement, err error) plan.Conflict {
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != errs.CodeConstraint {
		return plan.ConflictDefault
	}
	var rf *exec.RaiseFail
	switch {
	case errors.As(err, &rf):
		return plan.ConflictFail
	case e.ExtendedCode == errs.ExtConstraintForeignKey, e.ExtendedCode == errs.ExtConstraintTrigger:
		// A foreign key violation or a RAISE other than FAIL ignores the
		// statement's conflict clause (SQLite checks foreign keys per
		// statement; RAISE names its own action).
		return plan.ConflictDefault
	}
	switch p := p.(type) {
	case *plan.Insert:
		return p.Or
	case *plan.Update:
		return p.Or
	}
	return plan.ConflictDefault
}

// SetMemoryBudget caps the bytes all statements' operators hold at once,
// process-wide (exec.SetMemoryBudget); it returns the previous cap.
func SetMemoryBudget(n int64) int64 { return exec.SetMemoryBudget(n) }

// MemoryBudgetUsed is the bytes statements' operators hold now.
func MemoryBudgetUsed() int64 { return exec.MemoryBudgetUsed() }
