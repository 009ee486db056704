package engine

import (
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/grammar"
)

// Limits lower SQLite's run-time limits for one database, as
// sqlite3_limit does for a connection: a field that is zero, or not below
// the default, keeps the default (docs/LIMITS.md). Limits only lower:
// the defaults are also the hard bounds every walker relies on.
type Limits struct {
	Length            int64 // longest TEXT or BLOB a function or || builds (SQLITE_LIMIT_LENGTH)
	SQLLength         int   // longest SQL text (SQLITE_LIMIT_SQL_LENGTH)
	Column            int   // most columns of a table, result set or VALUES row (SQLITE_LIMIT_COLUMN)
	ExprDepth         int   // tallest expression tree (SQLITE_LIMIT_EXPR_DEPTH)
	CompoundSelect    int   // most terms of a compound SELECT (SQLITE_LIMIT_COMPOUND_SELECT)
	FunctionArg       int   // most arguments of a function call (SQLITE_LIMIT_FUNCTION_ARG)
	LikePatternLength int   // longest LIKE or GLOB pattern (SQLITE_LIMIT_LIKE_PATTERN_LENGTH)
	VariableNumber    int   // largest ?NNN (SQLITE_LIMIT_VARIABLE_NUMBER)
	TriggerDepth      int   // deepest trigger recursion (SQLITE_LIMIT_TRIGGER_DEPTH)
}

// grammarLimits is what the parser checks of l; nil when nothing is
// lowered, so the ordinary parse is unchanged.
func (l Limits) grammarLimits() *grammar.Limits {
	g := grammar.Limits{SQLLength: l.SQLLength, ExprDepth: l.ExprDepth, CompoundSelect: l.CompoundSelect,
		FunctionArg: l.FunctionArg, VariableNumber: l.VariableNumber}
	if g == (grammar.Limits{}) {
		return nil
	}
	return &g
}

// evaluator folds constants under the lowered length and pattern limits.
func (l Limits) evaluator() exec.ConstEvaluator {
	length, like := l.ctxLimits()
	return exec.ConstEvaluator{LengthLimit: length, LikeLimit: like}
}

// ctxLimits is the lowered length and pattern limits as exec.Ctx holds
// them (0: the default).
func (l Limits) ctxLimits() (length, like int32) {
	return exec.LoweredLimits(l.Length, l.LikePatternLength)
}

// column is the column limit: the lowered one or plan.MaxColumn.
func (l Limits) column() int {
	if l.Column > 0 && l.Column < plan.MaxColumn {
		return l.Column
	}
	return plan.MaxColumn
}

// triggerDepth is the trigger recursion limit.
func (l Limits) triggerDepth() int {
	if l.TriggerDepth > 0 && l.TriggerDepth < exec.MaxTriggerDepth {
		return l.TriggerDepth
	}
	return exec.MaxTriggerDepth
}

// checkColumns applies a lowered column limit to a bound statement (the
// binder checks the default): the columns of a result set, of a VALUES
// row (a query's result) and of a created table.
func (l Limits) checkColumns(p plan.Statement) error {
	lim := l.column()
	if lim == plan.MaxColumn {
		return nil
	}
	switch p := p.(type) {
	case *plan.Query:
		if len(p.Cols) > lim {
			return errs.New(errs.CodeGeneric, "too many columns in result set")
		}
	case *plan.CreateTable:
		if len(p.Table.Columns) > lim {
			return errs.New(errs.CodeGeneric, "too many columns on %s", p.Table.Name)
		}
	}
	return nil
}
