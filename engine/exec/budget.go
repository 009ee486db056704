package exec

import (
	"sync/atomic"

	"github.com/ladybugsql/ladybug/engine/errs"
)

// memBudget is the process-wide memory budget: the bytes every
// statement's materialising operators hold at once, across all databases
// and connections, and the cap on their sum (0 = none). Operators account
// through held, so what they hold comes back when they close.
var memBudget struct {
	limit atomic.Int64
	used  atomic.Int64
}

// SetMemoryBudget caps the bytes all statements' operators may hold at
// once in this process (n <= 0 removes the cap) and returns the previous
// cap. A statement whose operator would pass it fails with the
// memory-budget error; statements already holding memory keep it.
func SetMemoryBudget(n int64) int64 { return memBudget.limit.Swap(max(n, 0)) }

// MemoryBudgetUsed is the bytes the process's operators hold now.
func MemoryBudgetUsed() int64 { return memBudget.used.Load() }

// budgetGrow accounts d more bytes to the budget: the budget's error when
// growing passes its cap.
func budgetGrow(d int64) error {
	used := memBudget.used.Add(d)
	if lim := memBudget.limit.Load(); lim > 0 && d > 0 && used > lim {
		return budgetErr(lim)
	}
	return nil
}

// budgetFits checks n bytes not held against the budget (Ctx.fits).
func budgetFits(n int64) error {
	if lim := memBudget.limit.Load(); lim > 0 && memBudget.used.Load()+n > lim {
		return budgetErr(lim)
	}
	return nil
}

func budgetErr(lim int64) error {
	return errs.New(errs.CodeNoMem, "query exceeds the process memory budget of %d bytes (shared by all connections)", lim)
}
