package exec

import (
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// tableCountOp answers count(*) over a whole table from a tree's cell
// counts (plan.TableCount): one row, no row decoded.
type tableCountOp struct {
	n    *plan.TableCount
	out  *Batch
	done bool
}

func newTableCount(n *plan.TableCount) *tableCountOp {
	return &tableCountOp{n: n, out: newBatchCap(len(n.Cols), 1)}
}

func (t *tableCountOp) Next(c *Ctx) (*Batch, error) {
	if t.done {
		return nil, nil
	}
	t.done = true
	if err := c.Check(); err != nil {
		return nil, err
	}
	tree := c.TableTree(t.n.Table)
	if t.n.Index != nil {
		tree = c.IndexTree(t.n.Index)
	}
	cnt, err := tree.Count()
	if err != nil {
		return nil, err
	}
	t.out.Reset()
	t.out.Cols[0][0] = types.NewInt(cnt)
	t.out.N = 1
	return t.out, nil
}

func (t *tableCountOp) Close() { t.done = false }
