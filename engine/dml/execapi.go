package dml

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// The write side runs in the executor's statement context, over its
// batches, with its expression evaluators and operators: these names keep
// its code in the executor's terms.
type (
	// Ctx is the statement's execution context.
	Ctx = exec.Ctx
	// Batch is a batch of rows.
	Batch = exec.Batch
	// Operator produces batches (a write's input).
	Operator = exec.Operator
	// RaiseFail and RaiseRollback are a trigger's RAISE(FAIL) and
	// RAISE(ROLLBACK).
	RaiseFail     = exec.RaiseFail
	RaiseRollback = exec.RaiseRollback

	evaluator = exec.Evaluator
	rowArena  = exec.RowArena
)

// compiler compiles a write's expressions, sharing one executor builder
// (and its subquery results) with the operators of the write's input.
type compiler struct{ x *exec.Compiler }

func (cp *compiler) compile(e plan.Expr) (evaluator, error) { return cp.x.Compile(e) }

// builder builds a write's input operators and compiles its expressions.
type builder struct{ cp *compiler }

func newBuilder() *builder { return &builder{cp: &compiler{x: exec.NewCompiler()}} }

func (b *builder) build(n plan.Node) (Operator, error) { return b.cp.x.Build(n) }

func scratch() []types.Value                            { return exec.Scratch() }
func fit(buf *[]types.Value, b *Batch) []types.Value    { return exec.Fit(buf, b) }
func collOf(name string) types.Collation                { return exec.CollOf(name) }
func evalOne(c *Ctx, ev evaluator) (types.Value, error) { return exec.EvalOne(c, ev) }
func isTrue(v types.Value) bool                         { return exec.IsTrue(v) }

// fire runs the triggers of t for one row through the statement's
// exec.TriggerFirer (none: no trigger fires); skip reports RAISE(IGNORE).
func fire(c *Ctx, timing, event string, t *catalog.Table, old, nrow []types.Value, cols []int) (bool, error) {
	if c.Triggers == nil {
		return false, nil
	}
	return c.Triggers.FireTriggers(c, timing, event, t, old, nrow, cols)
}

func collectRows(c *Ctx, op Operator, width int, a *rowArena, extra func(b *Batch, i int, row []types.Value) error) ([][]types.Value, error) {
	return exec.CollectRows(c, op, width, a, extra)
}

func truth(v types.Value) (val, ok bool) { return exec.Truth(v) }
func mismatch(msg string) error          { return exec.Mismatch(msg) }
func fkError() error                     { return exec.FKError() }

func keyValues(row []types.Value, cols []int) ([]types.Value, bool) { return exec.KeyValues(row, cols) }

// childRows returns the children of r holding parent key key.
func childRows(c *Ctx, r *plan.ChildKey, key []types.Value) ([][]types.Value, error) {
	return exec.ChildRows(c, r.Child, r.FK.Cols, r.Colls, r.Seek, key)
}

func missingParent(c *Ctx, t *catalog.Table, fk catalog.ForeignKey, vals []types.Value) (bool, error) {
	return exec.MissingParent(c, t, fk, vals)
}

func scanRows(c *Ctx, t *catalog.Table) ([][]types.Value, error) { return exec.ScanRows(c, t) }
