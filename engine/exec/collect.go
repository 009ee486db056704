package exec

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// scanRows reads every row of t (columns, then rowid), cloned.
func scanRows(c *Ctx, t *catalog.Table) ([][]types.Value, error) {
	op, err := newBuilder().build(plan.NewScan(t, t.Name))
	if err != nil {
		return nil, err
	}
	defer op.Close()
	return collectRows(c, op, len(t.Columns)+1, nil, nil)
}

// collectRows drains op, cloning each row (the table's columns then the
// rowid) so the table can be written afterwards. extra, when set, is
// called with i < 0 at the start of each batch, then once per row.
func collectRows(c *Ctx, op Operator, width int, a *rowArena, extra func(b *Batch, i int, row []types.Value) error) ([][]types.Value, error) {
	var rows [][]types.Value
	if a != nil {
		rows = a.rows[:0]
	}
	for {
		b, err := op.Next(c)
		if err != nil {
			return nil, err
		}
		if b == nil {
			if a != nil {
				a.rows = rows // kept for reset, so the next run reuses it
			}
			return rows, nil
		}
		if extra != nil {
			if err := extra(b, -1, nil); err != nil {
				return nil, err
			}
		}
		for k, n := 0, b.Len(); k < n; k++ {
			i := b.Phys(k)
			row := a.row(width)
			for col := 0; col < width; col++ {
				row[col] = a.clone(b.Cols[col][i])
			}
			if extra != nil {
				if err := extra(b, i, row); err != nil {
					return nil, err
				}
			}
			rows = append(rows, row)
		}
		if a != nil {
			// The rows held until the write applies them count toward
			// the memory limit (and the process budget).
			if err := a.mem.set(c, a.size+int64(cap(rows))*24); err != nil {
				return nil, err
			}
		}
		if err := c.CheckNow(); err != nil {
			return nil, err
		}
	}
}
