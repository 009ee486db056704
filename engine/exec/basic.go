package exec

import (
	"github.com/ladybugsql/ladybug/engine/types"
)

// singleOp produces one row of no columns.
type singleOp struct {
	out  Batch
	done bool
}

func (s *singleOp) Next(c *Ctx) (*Batch, error) {
	if s.done {
		return nil, nil
	}
	s.done = true
	s.out = Batch{N: 1}
	return &s.out, nil
}

func (s *singleOp) Close() { s.done = false }

// valuesOp produces literal rows, evaluating each row's expressions.
type valuesOp struct {
	rows [][]evaluator
	out  *Batch
	next int
	one  Batch
	tmp  []types.Value
}

func (v *valuesOp) Next(c *Ctx) (*Batch, error) {
	if v.next >= len(v.rows) {
		return nil, nil
	}
	b := v.out
	b.Reset()
	v.one.N = 1
	room := BatchSize
	if len(b.Cols) > 0 {
		room = len(b.Cols[0])
	}
	for v.next < len(v.rows) && b.N < room {
		for col, ev := range v.rows[v.next] {
			if err := ev(c, &v.one, fit(&v.tmp, &v.one)); err != nil {
				return nil, err
			}
			b.Cols[col][b.N] = v.tmp[0]
		}
		b.N++
		v.next++
		if err := c.Check(); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (v *valuesOp) Close() { v.next = 0 }

// filterOp narrows its input's selection to the rows where pred is true.
type filterOp struct {
	in   Operator
	pred evaluator
	buf  []types.Value
	sel  []int32
}

func (f *filterOp) Next(c *Ctx) (*Batch, error) {
	for {
		b, err := f.in.Next(c)
		if err != nil || b == nil {
			return nil, err
		}
		if err := f.pred(c, b, fit(&f.buf, b)); err != nil {
			return nil, err
		}
		f.sel = f.sel[:0]
		if b.Sel == nil {
			for i := 0; i < b.N; i++ {
				if isTrue(f.buf[i]) {
					f.sel = append(f.sel, int32(i))
				}
			}
		} else {
			for _, i := range b.Sel {
				if isTrue(f.buf[i]) {
					f.sel = append(f.sel, i)
				}
			}
		}
		if len(f.sel) == 0 {
			if err := c.Check(); err != nil {
				return nil, err
			}
			continue
		}
		// The selection replaces the input's; the batch is the input's own,
		// which is valid until the next pull anyway.
		b.Sel = f.sel
		return b, nil
	}
}

func (f *filterOp) Close() { f.in.Close() }

// constFilterOp is a filter whose predicate reads no row (plan.RowIndependent,
// as "WHERE 1 = 0" or "WHERE ? > 3" above a join): it is evaluated once
// per execution, before the input is read at all, and then either passes
// every batch through or ends the input unread.
type constFilterOp struct {
	in      Operator
	pred    evaluator
	decided bool
	pass    bool
	once    oneShot // the one-row batch the predicate runs over
}

func (f *constFilterOp) Next(c *Ctx) (*Batch, error) {
	if !f.decided {
		v, err := f.once.eval(c, f.pred)
		if err != nil {
			return nil, err
		}
		f.decided, f.pass = true, isTrue(v)
	}
	if !f.pass {
		return nil, nil
	}
	return f.in.Next(c)
}

func (f *constFilterOp) Close() {
	f.decided = false
	f.in.Close()
}

// isTrue is the WHERE test: true, not false or NULL.
func isTrue(v types.Value) bool {
	switch v.Kind() {
	case types.KindInt:
		return v.Int() != 0
	case types.KindNull:
		return false
	}
	t, _ := truth(v)
	return t
}

// projectOp computes expressions over its input into a batch of its own.
type projectOp struct {
	in    Operator
	exprs []evaluator
	out   *Batch
	// pass[i] >= 0 marks output column i as a copy of input column pass[i],
	// shared without evaluation.
	pass []int
	// plain strips JSON subtypes (plan.Project.Plain).
	plain bool
}

func (p *projectOp) Next(c *Ctx) (*Batch, error) {
	b, err := p.in.Next(c)
	if err != nil || b == nil {
		return nil, err
	}
	out := p.out
	out.N, out.Sel = b.N, b.Sel
	// The computed columns (pass < 0) grow together; a copied one is the
	// input's own.
	growColumns(out.Cols, b.N, 0, p.pass)
	for i, ev := range p.exprs {
		if p.pass[i] >= 0 {
			out.Cols[i] = b.Cols[p.pass[i]]
			continue
		}
		if err := ev(c, b, fit(&out.Cols[i], b)); err != nil {
			return nil, err
		}
	}
	if p.plain {
		stripSubtypes(out)
	}
	return out, nil
}

// stripSubtypes drops the JSON subtype of b's live values, in place (only
// computed values carry one, and leaving it is what the boundary is for).
func stripSubtypes(b *Batch) {
	for _, col := range b.Cols {
		for k, n := 0, b.Len(); k < n; k++ {
			if i := b.Phys(k); col[i].IsJSON() {
				col[i] = col[i].WithoutSubtype()
			}
		}
	}
}

func (p *projectOp) Close() { p.in.Close() }

// limitOp skips offset rows then passes at most limit rows.
type limitOp struct {
	in            Operator
	limE, offE    evaluator
	limit, offset int64
	started       bool
	seen          int64 // rows passed so far (after the offset)
	skipped       int64
	sel           []int32
	once          oneShot
}

func (l *limitOp) init(c *Ctx) error {
	l.limit, l.offset = -1, 0
	if l.limE != nil {
		v, err := l.once.eval(c, l.limE)
		if err != nil {
			return err
		}
		if l.limit, err = limitValue(v, "LIMIT"); err != nil {
			return err
		}
	}
	if l.offE != nil {
		v, err := l.once.eval(c, l.offE)
		if err != nil {
			return err
		}
		if l.offset, err = limitValue(v, "OFFSET"); err != nil {
			return err
		}
		if l.offset < 0 {
			l.offset = 0
		}
	}
	return nil
}

func (l *limitOp) Next(c *Ctx) (*Batch, error) {
	if !l.started {
		l.started = true
		if err := l.init(c); err != nil {
			return nil, err
		}
	}
	for {
		if l.limit >= 0 && l.seen >= l.limit {
			return nil, nil
		}
		b, err := l.in.Next(c)
		if err != nil || b == nil {
			return nil, err
		}
		n := int64(b.Len())
		if l.skipped < l.offset {
			skip := min(l.offset-l.skipped, n)
			l.skipped += skip
			if skip == n {
				continue
			}
			l.sel = liveRows(b, l.sel[:0])[skip:]
			b.Sel = l.sel
			n -= skip
		}
		if l.limit >= 0 && l.seen+n > l.limit {
			keep := l.limit - l.seen
			l.sel = liveRows(b, l.sel[:0])[:keep]
			b.Sel = l.sel
			n = keep
		}
		l.seen += n
		return b, nil
	}
}

func (l *limitOp) Close() {
	l.in.Close()
	l.started, l.seen, l.skipped = false, 0, 0
}

// limitValue converts a LIMIT/OFFSET value: integers (or text that looks
// like one) only; a negative LIMIT means none.
func limitValue(v types.Value, what string) (int64, error) {
	v = types.AffinityNumeric.Apply(v)
	if v.Kind() != types.KindInt {
		return 0, mismatch("datatype mismatch in " + what)
	}
	return v.Int(), nil
}
