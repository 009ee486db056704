package exec

import (
	"errors"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// ErrRaiseIgnore is raised by RAISE(IGNORE): the trigger runner drops the
// current row's operation and the rest of the trigger.
var ErrRaiseIgnore = errors.New("exec: RAISE(IGNORE)")

// RaiseFail marks a RAISE(FAIL) error, or a constraint error under its
// own ON CONFLICT FAIL clause: the statement stops and, whatever its
// conflict clause, keeps the rows it wrote before.
type RaiseFail struct{ Err *errs.Error }

func (r *RaiseFail) Error() string { return r.Err.Error() }

// Unwrap returns the constraint error.
func (r *RaiseFail) Unwrap() error { return r.Err }

// RaiseRollback marks a RAISE(ROLLBACK) error, or a constraint error under
// its own ON CONFLICT ROLLBACK clause: the engine rolls back the whole
// transaction.
type RaiseRollback struct{ Err *errs.Error }

func (r *RaiseRollback) Error() string { return r.Err.Error() }

// Unwrap returns the constraint error.
func (r *RaiseRollback) Unwrap() error { return r.Err }

func (cp *compiler) raise(e *plan.Raise) (evaluator, error) {
	var msg evaluator
	if e.Msg != nil {
		var err error
		if msg, err = cp.compile(e.Msg); err != nil {
			return nil, err
		}
	}
	buf := scratch()
	action := e.Action
	return func(c *Ctx, b *Batch, out []types.Value) error {
		if b.Len() == 0 {
			return nil
		}
		if action == "IGNORE" {
			return ErrRaiseIgnore
		}
		text := ""
		if msg != nil {
			if err := msg(c, b, fit(&buf, b)); err != nil {
				return err
			}
			text = buf[b.Phys(0)].Text()
		}
		err := errs.Constraint(extConstraintTrigger, "%s", text)
		switch action {
		case "ROLLBACK":
			return &RaiseRollback{Err: err}
		case "FAIL":
			return &RaiseFail{Err: err}
		}
		return err
	}, nil
}

// Child returns a context for a nested program (a trigger body) in the
// same transaction, with row pushed as its outer row.
func (c *Ctx) Child(row []types.Value) *Ctx {
	n := &Ctx{Go: c.Go, Tx: c.Tx, TempTx: c.TempTx, Catalog: c.Catalog, Args: c.Args, Sess: c.Sess, Now: c.Time(),
		Pool: c.Pool, Setting: c.Setting, ForeignKeys: c.ForeignKeys, DeferFK: c.DeferFK,
		MemoryLimit: c.MemoryLimit, LengthLimit: c.LengthLimit, LikeLimit: c.LikeLimit, Triggers: c.Triggers, TriggerDepth: c.TriggerDepth + 1, ActionDepth: c.ActionDepth, fk: c.fkc()}
	n.outer = [][]types.Value{row}
	return n
}

// EvalBool evaluates a row-independent condition (a trigger's WHEN).
func EvalBool(c *Ctx, e plan.Expr) (bool, error) {
	ev, err := newBuilder().cp.compile(e)
	if err != nil {
		return false, err
	}
	v, err := evalOne(c, ev)
	return isTrue(v), err
}

// TriggerFirer runs the triggers of a table for one row of a write
// (Ctx.Triggers). The engine implements it: its session holds the
// triggers bound for the statement's catalog, and runs their programs in
// a Child context. timing is "BEFORE", "AFTER" or "INSTEAD OF", event
// "INSERT", "UPDATE" or "DELETE"; old and nrow are the row before and
// after (nil for the side the event lacks), cols the columns an UPDATE
// sets (nil for all). skip reports that RAISE(IGNORE) dropped the row.
type TriggerFirer interface {
	FireTriggers(c *Ctx, timing, event string, t *catalog.Table, old, nrow []types.Value, cols []int) (skip bool, err error)
	// TriggerDepthLimit is the connection's limit on nested programs
	// (SQLITE_LIMIT_TRIGGER_DEPTH).
	TriggerDepthLimit() int
}

// MaxTriggerDepth is SQLite's SQLITE_MAX_TRIGGER_DEPTH: the deepest
// nesting of trigger programs and foreign key actions a write may reach.
const MaxTriggerDepth = 1000

// EnterNested reports the error of one more nested program, a trigger
// body or a foreign key action, past the trigger depth limit. As in
// SQLite both count toward it, so a self-referencing ON DELETE CASCADE
// chain longer than the limit fails instead of recursing without bound.
func (c *Ctx) EnterNested() error {
	limit := MaxTriggerDepth
	if c.Triggers != nil {
		limit = c.Triggers.TriggerDepthLimit()
	}
	if c.TriggerDepth+c.ActionDepth >= limit {
		return errs.New(errs.CodeGeneric, "too many levels of trigger recursion")
	}
	return nil
}

// extConstraintTrigger is SQLite's SQLITE_CONSTRAINT_TRIGGER.
const extConstraintTrigger = 1811
