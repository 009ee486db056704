package exec

import (
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// lateralOp joins each left row with the rows of a table-valued function
// called with arguments computed from that row.
type lateralOp struct {
	n     *plan.Lateral
	left  Operator
	args  []evaluator
	bufs  [][]types.Value
	on    evaluator
	onBuf []types.Value
	nl    int
	out   *Batch
	sel   []int32
	// pending rows of the current left batch not yet emitted
	lb  *Batch
	k   int
	row []types.Value
}

func (b *builder) lateral(n *plan.Lateral) (Operator, error) {
	l, err := b.build(n.Left)
	if err != nil {
		return nil, err
	}
	op := &lateralOp{n: n, left: l, nl: len(n.Left.Columns()), out: NewBatch(len(n.Cols))}
	for _, a := range n.Func.Args {
		ev, err := b.cp.compile(a)
		if err != nil {
			return nil, err
		}
		op.args = append(op.args, ev)
		op.bufs = append(op.bufs, scratch())
	}
	if n.On != nil {
		if op.on, err = b.cp.compile(n.On); err != nil {
			return nil, err
		}
		op.onBuf = scratch()
	}
	op.row = make([]types.Value, len(op.args))
	return op, nil
}

func (l *lateralOp) Next(c *Ctx) (*Batch, error) {
	for {
		if l.lb == nil || l.k >= l.lb.Len() {
			b, err := l.left.Next(c)
			if err != nil || b == nil {
				return nil, err
			}
			for i, ev := range l.args {
				if err := ev(c, b, fit(&l.bufs[i], b)); err != nil {
					return nil, err
				}
			}
			l.lb, l.k = b, 0
		}
		out, err := l.fill(c)
		if err != nil || out != nil {
			return out, err
		}
	}
}

// fill emits the pairs of left rows from l.k until the batch is full.
func (l *lateralOp) fill(c *Ctx) (*Batch, error) {
	out := l.out
	out.Reset()
	for l.k < l.lb.Len() && out.N < BatchSize {
		i := l.lb.Phys(l.k)
		l.k++
		for a := range l.row {
			l.row[a] = l.bufs[a][i]
		}
		rows, err := tableFuncRows(c, l.n.Func.Name, l.row)
		if err != nil {
			return nil, err
		}
		if out.N+len(rows)+1 > BatchSize {
			if out.N > 0 {
				l.k-- // this row goes into the next batch
				break
			}
			return nil, notSupportedErr("a table-valued function returning more than 1023 rows for one joined row")
		}
		start := out.N
		for _, r := range rows {
			l.pair(out, i, r)
		}
		if l.on != nil && out.N > start {
			view := Batch{Cols: out.Cols, N: out.N, Sel: rangeSel(start, out.N)}
			if err := l.on(c, &view, fit(&l.onBuf, &view)); err != nil {
				return nil, err
			}
			keep := start
			for p := start; p < out.N; p++ {
				if isTrue(l.onBuf[p]) {
					for col := range out.Cols {
						out.Cols[col][keep] = out.Cols[col][p]
					}
					keep++
				}
			}
			out.N = keep
		}
		if out.N == start && l.n.Kind == plan.JoinLeft {
			l.pair(out, i, nil)
		}
	}
	if out.N == 0 {
		return nil, c.Check()
	}
	return out, nil
}

func (l *lateralOp) pair(out *Batch, i int, r []types.Value) {
	for col := 0; col < l.nl; col++ {
		out.Cols[col][out.N] = l.lb.Cols[col][i]
	}
	for col := l.nl; col < len(out.Cols); col++ {
		v := types.Null
		if r != nil && col-l.nl < len(r) {
			v = r[col-l.nl]
		}
		out.Cols[col][out.N] = v
	}
	out.N++
}

func rangeSel(lo, hi int) []int32 {
	s := make([]int32, 0, hi-lo)
	for i := lo; i < hi; i++ {
		s = append(s, int32(i))
	}
	return s
}

func (l *lateralOp) Close() {
	l.left.Close()
	l.lb, l.k = nil, 0
}
