package exec

import (
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
	"strings"
)

// caseExpr evaluates each WHEN only for the rows no earlier arm decided,
// through a narrowed selection, so a THEN never runs for a row it does not
// answer (SQLite's short-circuit, observable through errors).
func (cp *compiler) caseExpr(e *plan.Case) (evaluator, error) {
	var operand evaluator
	var err error
	if e.Operand != nil {
		if operand, err = cp.compile(e.Operand); err != nil {
			return nil, err
		}
	}
	conds := make([]evaluator, len(e.Whens))
	thens := make([]evaluator, len(e.Whens))
	for i, w := range e.Whens {
		if conds[i], err = cp.compile(w.Cond); err != nil {
			return nil, err
		}
		if thens[i], err = cp.compile(w.Then); err != nil {
			return nil, err
		}
	}
	var els evaluator = constEval(types.Null)
	if e.Else != nil {
		if els, err = cp.compile(e.Else); err != nil {
			return nil, err
		}
	}
	st := cp.stack()
	return func(c *Ctx, b *Batch, out []types.Value) error {
		m := st.mark()
		defer st.release(m)
		condBuf := st.values(b)
		opBuf := st.values(b) // read by caseMatches even without an operand
		if operand != nil {
			if err := operand(c, b, opBuf); err != nil {
				return err
			}
		}
		remain := liveRows(b, st.rows(b))
		hit, rest := st.rows(b), st.rows(b)
		view := Batch{Cols: b.Cols, N: b.N}
		for k := range conds {
			if len(remain) == 0 {
				return nil
			}
			view.Sel = remain
			if err := conds[k](c, &view, condBuf); err != nil {
				return err
			}
			hit, rest = hit[:0], rest[:0]
			for _, i := range remain {
				if caseMatches(operand != nil, opBuf[i], condBuf[i]) {
					hit = append(hit, i)
				} else {
					rest = append(rest, i)
				}
			}
			if len(hit) > 0 {
				view.Sel = hit
				if err := thens[k](c, &view, out); err != nil {
					return err
				}
			}
			remain, rest = rest, remain
		}
		if len(remain) > 0 {
			view.Sel = remain
			return els(c, &view, out)
		}
		return nil
	}, nil
}

func caseMatches(simple bool, operand, cond types.Value) bool {
	if simple {
		return !operand.IsNull() && !cond.IsNull() && compareValues(operand, cond, types.CollBinary) == 0
	}
	t, ok := truth(cond)
	return ok && t
}

// liveRows appends the physical indexes of b's live rows to dst.
func liveRows(b *Batch, dst []int32) []int32 {
	if b.Sel != nil {
		return append(dst, b.Sel...)
	}
	for i := 0; i < b.N; i++ {
		dst = append(dst, int32(i))
	}
	return dst
}

func (cp *compiler) between(e *plan.Between) (evaluator, error) {
	x, err := cp.compile(e.X)
	if err != nil {
		return nil, err
	}
	lo, err := cp.compile(e.Lo)
	if err != nil {
		return nil, err
	}
	hi, err := cp.compile(e.Hi)
	if err != nil {
		return nil, err
	}
	not := e.Not
	coll := collOf(exprCollation(e.X))
	st := cp.stack()
	return func(c *Ctx, b *Batch, out []types.Value) error {
		m := st.mark()
		defer st.release(m)
		xb, lb, hb := st.values(b), st.values(b), st.values(b)
		for _, ev := range [...]struct {
			f   evaluator
			buf []types.Value
		}{{x, xb}, {lo, lb}, {hi, hb}} {
			if err := ev.f(c, b, ev.buf); err != nil {
				return err
			}
		}
		b.ForEach(func(i int) {
			ge := cmpBool(xb[i], lb[i], coll, func(r int) bool { return r >= 0 })
			le := cmpBool(xb[i], hb[i], coll, func(r int) bool { return r <= 0 })
			v := and3(ge, le)
			if not {
				if t, ok := truth(v); ok {
					v = types.NewBool(!t)
				}
			}
			out[i] = v
		})
		return nil
	}, nil
}

func cmpBool(a, b types.Value, coll types.Collation, ok func(int) bool) types.Value {
	if a.IsNull() || b.IsNull() {
		return types.Null
	}
	return types.NewBool(ok(compareValues(a, b, coll)))
}

// exprCollation returns the collation an expression carries
// (plan.ExprCollation).
func exprCollation(e plan.Expr) string { return plan.ExprCollation(e) }

func (cp *compiler) inList(e *plan.InList) (evaluator, error) {
	x, err := cp.compile(e.X)
	if err != nil {
		return nil, err
	}
	// Literal items are read as they are; only the others are evaluated
	// per batch, each into a buffer of its own.
	vals := make([]types.Value, len(e.List))
	var evals []evaluator
	var slots []int
	for i, it := range e.List {
		if k, ok := it.(*plan.Const); ok {
			vals[i] = k.V
			continue
		}
		ev, err := cp.compile(it)
		if err != nil {
			return nil, err
		}
		evals, slots = append(evals, ev), append(slots, i)
	}
	collName := exprCollation(e.X)
	coll := collOf(collName)
	not := e.Not
	st := cp.stack()
	if set := newInSet(vals, slots, collName); set != nil {
		return set.eval(x, evals, st, coll, not), nil
	}
	bufs := make([][]types.Value, len(evals))
	return func(c *Ctx, b *Batch, out []types.Value) error {
		m := st.mark()
		defer st.release(m)
		xb, err := evalInOperands(c, b, x, evals, st, bufs)
		if err != nil {
			return err
		}
		b.ForEach(func(i int) {
			for k, slot := range slots {
				vals[slot] = bufs[k][i]
			}
			out[i] = inResult(xb[i], coll, not, len(vals), func(k int) types.Value { return vals[k] })
		})
		return nil
	}, nil
}

// evalInOperands evaluates an IN's left operand, into the buffer it
// returns, and its non-literal items into bufs, over b; the buffers are
// borrowed from st.
func evalInOperands(c *Ctx, b *Batch, x evaluator, evals []evaluator, st *scratchStack, bufs [][]types.Value) ([]types.Value, error) {
	xb := st.values(b)
	if err := x(c, b, xb); err != nil {
		return nil, err
	}
	for k, it := range evals {
		bufs[k] = st.values(b)
		if err := it(c, b, bufs[k]); err != nil {
			return nil, err
		}
	}
	return xb, nil
}

// inSetMin is the number of literal items from which an IN list looks
// values up in a hash set instead of comparing with each item.
const inSetMin = 16

// inSet is the literal items of a long IN list as a set of memcmp keys,
// which are equal exactly when compareValues says so (numbers across
// int and real, text under the collation), so a row costs one lookup
// instead of one comparison per item: a million-literal list over a
// thousand rows was a billion comparisons.
type inSet struct {
	keys    map[string]struct{}
	coll    string
	sawNull bool  // a NULL literal: a miss is NULL, not false
	bytes   int64 // the set's memory, checked against the memory limit
	key     []byte
}

// newInSet builds the set of vals' literals (the items not in slots), or
// nil when there are few of them or the collation has no key form.
func newInSet(vals []types.Value, slots []int, coll string) *inSet {
	if len(vals)-len(slots) < inSetMin {
		return nil
	}
	switch strings.ToUpper(coll) {
	case "", "BINARY", "NOCASE", "RTRIM":
	default:
		return nil
	}
	s := &inSet{keys: make(map[string]struct{}, len(vals)-len(slots)), coll: strings.ToUpper(coll)}
	isSlot := make(map[int]bool, len(slots))
	for _, i := range slots {
		isSlot[i] = true
	}
	for i, v := range vals {
		if isSlot[i] {
			continue
		}
		if v.IsNull() {
			s.sawNull = true
			continue
		}
		s.key = appendKey(s.key[:0], v, s.coll, false, true)
		if _, dup := s.keys[string(s.key)]; !dup {
			s.keys[string(s.key)] = struct{}{}
			s.bytes += int64(len(s.key)) + distinctEntryBytes
		}
	}
	return s
}

// eval is inList's evaluator over the set and the other items.
func (s *inSet) eval(x evaluator, evals []evaluator, st *scratchStack, coll types.Collation, not bool) evaluator {
	bufs := make([][]types.Value, len(evals))
	return func(c *Ctx, b *Batch, out []types.Value) error {
		// The set lives with the compiled statement: a statement whose
		// memory limit it does not fit fails.
		if err := c.fits(s.bytes); err != nil {
			return err
		}
		m := st.mark()
		defer st.release(m)
		xb, err := evalInOperands(c, b, x, evals, st, bufs)
		if err != nil {
			return err
		}
		b.ForEach(func(i int) {
			v := xb[i]
			if v.IsNull() {
				out[i] = types.Null
				return
			}
			s.key = appendKey(s.key[:0], v, s.coll, false, true)
			if _, ok := s.keys[string(s.key)]; ok {
				out[i] = types.NewBool(!not)
				return
			}
			r := inResult(v, coll, not, len(evals), func(k int) types.Value { return bufs[k][i] })
			if s.sawNull && r.Kind() != types.KindNull && r.Int() == boolInt64(not) {
				r = types.Null // no match, and the list held a NULL
			}
			out[i] = r
		})
		return nil
	}
}

// inResult applies SQLite's IN rules: true on a match; NULL when x is NULL
// or no match was found but the list held a NULL; false otherwise (and NOT
// inverts true and false, keeping NULL).
func inResult(x types.Value, coll types.Collation, not bool, n int, item func(int) types.Value) types.Value {
	if n == 0 {
		return types.NewBool(not)
	}
	if x.IsNull() {
		return types.Null
	}
	sawNull := false
	for k := 0; k < n; k++ {
		v := item(k)
		if v.IsNull() {
			sawNull = true
			continue
		}
		if compareValues(x, v, coll) == 0 {
			return types.NewBool(!not)
		}
	}
	if sawNull {
		return types.Null
	}
	return types.NewBool(not)
}
