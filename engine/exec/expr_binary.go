package exec

import (
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

func (cp *compiler) binary(e *plan.Binary) (evaluator, error) {
	l, err := cp.compile(e.L)
	if err != nil {
		return nil, err
	}
	r, err := cp.compile(e.R)
	if err != nil {
		return nil, err
	}
	switch e.Op {
	case "AND":
		return zipEval(l, r, and3), nil
	case "OR":
		return zipEval(l, r, or3), nil
	case "=", "<>", "<", "<=", ">", ">=":
		return compareEval(l, r, e.Op, collOf(e.Coll), e.TextAff), nil
	case "IS", "IS NOT":
		coll, not := collOf(e.Coll), e.Op == "IS NOT"
		return zipEval(l, r, textAffinity(e.TextAff, func(a, b types.Value) types.Value {
			eq := a.IsNull() == b.IsNull() && (a.IsNull() || compareValues(a, b, coll) == 0)
			return types.NewBool(eq != not)
		})), nil
	case "+", "-", "*", "/", "%":
		op := e.Op[0]
		return zipEval(l, r, func(a, b types.Value) types.Value { return arith(op, a, b) }), nil
	case "||":
		return concatEval(l, r), nil
	case "&", "|", "<<", ">>":
		op := e.Op
		return zipEval(l, r, func(a, b types.Value) types.Value { return bitOp(op, a, b) }), nil
	}
	return nil, errs.New(errs.CodeNotSupported, "not supported: operator %s", e.Op)
}

// concatEval is the || operator: a result past the length limit fails
// with SQLite's "string or blob too big", a large one that does not fit
// the memory limit with its error, before the bytes are allocated.
func concatEval(l, r evaluator) evaluator {
	lb, rb := scratch(), scratch()
	return func(c *Ctx, b *Batch, out []types.Value) error {
		if err := evalBoth(c, b, l, r, &lb, &rb); err != nil {
			return err
		}
		var err error
		b.ForEach(func(i int) {
			x, y := lb[i], rb[i]
			// A number's text is at most 24 bytes.
			if n := int64(len(x.Bytes()) + len(y.Bytes())); (n+48 >= valueCheckFloor || c.LengthLimit > 0) && err == nil {
				err = c.valueFits(n)
			}
			out[i] = types.Concat(x, y)
		})
		return err
	}
}

// textAffinity returns fn, first converting each pair of operands with
// types.TextAffinityPair when textAff is set (plan.Binary.TextAff).
func textAffinity(textAff bool, fn func(a, b types.Value) types.Value) func(a, b types.Value) types.Value {
	if !textAff {
		return fn
	}
	return func(a, b types.Value) types.Value { return fn(types.TextAffinityPair(a, b)) }
}

// compareEval compares per row, mapping the three-way result through a
// table so the operator test stays out of the per-row path.
func compareEval(l, r evaluator, op string, coll types.Collation, textAff bool) evaluator {
	var want [3]bool // indexed by cmp+1
	switch op {
	case "=":
		want = [3]bool{false, true, false}
	case "<>":
		want = [3]bool{true, false, true}
	case "<":
		want = [3]bool{true, false, false}
	case "<=":
		want = [3]bool{true, true, false}
	case ">":
		want = [3]bool{false, false, true}
	case ">=":
		want = [3]bool{false, true, true}
	}
	return zipEval(l, r, textAffinity(textAff, func(a, b types.Value) types.Value {
		if a.IsNull() || b.IsNull() {
			return types.Null
		}
		return types.NewBool(want[compareValues(a, b, coll)+1])
	}))
}

// predicate compiles a WHERE condition. Along its AND/OR spine the right
// side runs only for the rows the left side leaves undecided, as SQLite
// evaluates a condition by jumps: `typeof(x) = 'text' AND json(x)` never
// runs json() on a row the left side rejects, so it cannot fail on it.
// In a value context (a select-list AND/OR) SQLite computes both sides,
// and so does binary.
func (cp *compiler) predicate(e plan.Expr) (evaluator, error) {
	b, ok := e.(*plan.Binary)
	if !ok || (b.Op != "AND" && b.Op != "OR") {
		return cp.compile(e)
	}
	l, err := cp.predicate(b.L)
	if err != nil {
		return nil, err
	}
	r, err := cp.predicate(b.R)
	if err != nil {
		return nil, err
	}
	if b.Op == "AND" {
		return logicEval(l, r, types.False, and3), nil
	}
	return logicEval(l, r, types.True, or3), nil
}

// logicEval evaluates r only for the rows whose left value does not
// already decide the result (false for AND, true for OR).
func logicEval(l, r evaluator, decides types.Truth, fn func(a, b types.Value) types.Value) evaluator {
	lb, rb := scratch(), scratch()
	var live, open []int32
	decided := decides.Value()
	return func(c *Ctx, b *Batch, out []types.Value) error {
		if err := l(c, b, fit(&lb, b)); err != nil {
			return err
		}
		live, open = liveRows(b, live[:0]), open[:0]
		for _, i := range live {
			if types.TruthOf(lb[i]) == decides {
				out[i] = decided
			} else {
				open = append(open, i)
			}
		}
		if len(open) == 0 {
			return nil
		}
		view := Batch{Cols: b.Cols, N: b.N, Sel: open}
		if err := r(c, &view, fit(&rb, b)); err != nil {
			return err
		}
		for _, i := range open {
			out[i] = fn(lb[i], rb[i])
		}
		return nil
	}
}

func and3(a, b types.Value) types.Value {
	return types.And(types.TruthOf(a), types.TruthOf(b)).Value()
}

func or3(a, b types.Value) types.Value {
	return types.Or(types.TruthOf(a), types.TruthOf(b)).Value()
}

func bitOp(op string, a, b types.Value) types.Value {
	switch op {
	case "&":
		return types.BitAnd(a, b)
	case "|":
		return types.BitOr(a, b)
	case "<<":
		return types.ShiftLeft(a, b)
	}
	return types.ShiftRight(a, b)
}
