package exec

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/plan"
)

// rowBudget caps the rows a scan reads at the limit plus offset of the
// LIMIT above it (plan.Scan.RowLimit, set by the limit-into-scan rule), so
// a LIMIT 1 scan decodes one row instead of a whole batch. The LIMIT
// operator above still counts and skips the rows itself.
type rowBudget struct {
	limE, offE evaluator
	left       int64 // rows still to read; < 0 means no cap
	once       oneShot
	// firstRow is set for a scan whose consumer stops at its first row
	// (EXISTS, a scalar subquery: see firstRowOf): a run's first batch
	// then holds one row and each next batch twice as many (grow), so a
	// correlated EXISTS whose first row matches tests its condition,
	// perhaps a subquery of its own, on one row rather than a batch.
	firstRow bool
	grow     int
}

// newRowBudget compiles the budget of l; nil l is no cap.
func (cp *compiler) newRowBudget(l *plan.LimitBound) (rowBudget, error) {
	r := rowBudget{left: -1}
	if l == nil || l.Limit == nil {
		return r, nil
	}
	var err error
	if r.limE, err = cp.compile(l.Limit); err != nil {
		return r, err
	}
	if l.Offset != nil {
		r.offE, err = cp.compile(l.Offset)
	}
	return r, err
}

// start evaluates the budget for a run, with LIMIT's conversions: a
// negative limit is none, a negative offset zero.
func (r *rowBudget) start(c *Ctx) error {
	r.left = -1
	r.grow = 0
	if r.firstRow {
		r.grow = 1
	}
	if r.limE == nil {
		return nil
	}
	v, err := r.once.eval(c, r.limE)
	if err != nil {
		return err
	}
	lim, err := limitValue(v, "LIMIT")
	if err != nil || lim < 0 {
		return err
	}
	var off int64
	if r.offE != nil {
		v, err := r.once.eval(c, r.offE)
		if err != nil {
			return err
		}
		if off, err = limitValue(v, "OFFSET"); err != nil {
			return err
		}
	}
	r.left = lim
	if off > 0 {
		r.left = lim + off
		if r.left < lim {
			r.left = math.MaxInt64
		}
	}
	return nil
}

// exhausted reports that no more rows may be read.
func (r *rowBudget) exhausted() bool { return r.left == 0 }

// batchCap is how many rows the next batch may hold.
func (r *rowBudget) batchCap() int {
	n := BatchSize
	if r.left >= 0 && r.left < BatchSize {
		n = int(r.left)
	}
	if r.grow > 0 {
		n = min(n, r.grow)
	}
	return n
}

// took records n rows read.
func (r *rowBudget) took(n int) {
	if r.left > 0 {
		r.left -= int64(n)
	}
	if r.grow > 0 {
		r.grow = min(2*r.grow, BatchSize)
	}
}

// firstRowOf marks the scan under in (through filters, projections and
// LIMITs) as read by a consumer that wants its first row only (see
// rowBudget.firstRow).
func firstRowOf(in Operator) {
	switch op := scanUnder(in, true).(type) {
	case *scanOp:
		op.budget.firstRow = true
	case *indexScanOp:
		op.budget.firstRow = true
	}
}
