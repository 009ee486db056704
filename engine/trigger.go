package engine

import (
	"errors"
	"slices"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/dml"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// triggersOf returns the bound triggers of table in cat, cached per
// catalog snapshot.
func (s *Session) triggersOf(cat *catalog.Catalog, t *catalog.Table) ([]*plan.BoundTrigger, error) {
	if s.trigCat != cat {
		s.trigCat, s.trigCache = cat, map[string][]*plan.BoundTrigger{}
	}
	key := catalog.Lower(t.Name)
	if t.Temp {
		key = "temp." + key
	}
	if bts, ok := s.trigCache[key]; ok {
		return bts, nil
	}
	var out []*plan.BoundTrigger
	for _, tr := range cat.TriggersOf(t) {
		st, err := parseOne(tr.SQL)
		if err != nil {
			return nil, err
		}
		ct, ok := st.(*grammar.CreateTriggerStmt)
		if !ok {
			return nil, errs.New(errs.CodeCorrupt, "trigger %s is not a CREATE TRIGGER", tr.Name)
		}
		target := t
		if v := cat.SchemaOf(t).View(t.Name); v != nil {
			vt, err := plan.NewBinder(cat, nil).ViewTable(v)
			if err != nil {
				return nil, err
			}
			target = vt
		}
		bt, err := plan.NewObjectBinder(cat, tr.Temp, s.db.opts.Limits.evaluator()).BindTrigger(ct, target)
		if err != nil {
			return nil, err
		}
		out = append(out, bt)
	}
	s.trigCache[key] = out
	return out, nil
}

// sessionTriggers is a session as the exec.TriggerFirer of its statements
// (Ctx.Triggers): it runs the triggers the session bound for the
// statement's catalog.
type sessionTriggers struct{ s *Session }

// FireTriggers runs the matching triggers of t for one row.
func (st *sessionTriggers) FireTriggers(c *exec.Ctx, timing, event string, t *catalog.Table, old, nrow []types.Value, cols []int) (bool, error) {
	return st.s.fireTriggers(c, timing, event, t, old, nrow, cols)
}

// TriggerDepthLimit is the connection's SQLITE_LIMIT_TRIGGER_DEPTH.
func (st *sessionTriggers) TriggerDepthLimit() int { return st.s.db.opts.Limits.triggerDepth() }

// fireTriggers runs the matching triggers of t for one row.
func (s *Session) fireTriggers(c *exec.Ctx, timing, event string, t *catalog.Table, old, nrow []types.Value, cols []int) (bool, error) {
	bts, err := s.triggersOf(c.Catalog, t)
	if err != nil || len(bts) == 0 {
		return false, err
	}
	for _, bt := range bts {
		if bt.Time != timing || bt.Event != event || !touches(bt.Columns, cols) {
			continue
		}
		if !s.recursiveTriggers && slices.Contains(s.firing, bt) {
			// As SQLite with recursive_triggers off (its default): a
			// trigger does not fire again inside its own program.
			continue
		}
		if err := c.EnterNested(); err != nil {
			return false, err
		}
		skip, err := s.runTrigger(c, bt, triggerRow(t, old, nrow))
		if err != nil || skip {
			return skip, err
		}
	}
	return false, nil
}

// touches reports whether an UPDATE setting cols fires an UPDATE OF
// trigger on want (nil = any update).
func touches(want, cols []int) bool {
	if want == nil || cols == nil {
		return true
	}
	for _, w := range want {
		for _, c := range cols {
			if w == c {
				return true
			}
		}
	}
	return false
}

// triggerRow lays out OLD then NEW, each as the table's row; a missing
// side is NULLs.
func triggerRow(t *catalog.Table, old, nrow []types.Value) []types.Value {
	w := len(t.Columns) + 1
	row := make([]types.Value, 2*w)
	copy(row, old)
	copy(row[w:], nrow)
	return row
}

// runTrigger runs one trigger program; skip reports RAISE(IGNORE).
func (s *Session) runTrigger(c *exec.Ctx, bt *plan.BoundTrigger, row []types.Value) (bool, error) {
	s.firing = append(s.firing, bt)
	defer func() { s.firing = s.firing[:len(s.firing)-1] }()
	child := c.Child(row)
	if bt.When != nil {
		ok, err := exec.EvalBool(child, bt.When)
		if err != nil || !ok {
			return false, err
		}
	}
	for _, p := range bt.Body {
		n, err := runTriggerStatement(child, p)
		if errors.Is(err, exec.ErrRaiseIgnore) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		// Each completed body statement's rows count toward
		// total_changes() at once, kept even if the firing statement
		// fails later, as SQLite's OP_ResetCount does.
		s.totalChanges += n
	}
	return false, nil
}

// runTriggerStatement runs one statement of a trigger body and returns
// the rows it wrote.
func runTriggerStatement(c *exec.Ctx, p plan.Statement) (int64, error) {
	var res dml.WriteResult
	var err error
	switch p := p.(type) {
	case *plan.Insert:
		var ins *dml.InsertProg
		if ins, err = dml.NewInsert(p); err == nil {
			res, err = ins.Run(c)
		}
	case *plan.Update:
		var up *dml.UpdateProg
		if up, err = dml.NewUpdate(p); err == nil {
			res, err = up.Run(c)
		}
	case *plan.Delete:
		var del *dml.DeleteProg
		if del, err = dml.NewDelete(p); err == nil {
			res, err = del.Run(c)
		}
	case *plan.Query:
		return 0, drain(c, p)
	default:
		return 0, errs.New(errs.CodeNotSupported, "not supported: %T in a trigger", p)
	}
	return res.Affected, err
}

// drain runs a SELECT of a trigger body for its side effects.
func drain(c *exec.Ctx, p *plan.Query) error {
	op, err := exec.Build(p.Root)
	if err != nil {
		return err
	}
	defer op.Close()
	for {
		b, err := op.Next(c)
		if err != nil || b == nil {
			return err
		}
	}
}
