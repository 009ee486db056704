package exec

import (
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

func (cp *compiler) binary(e *plan.Binary) (evaluator, error) {
	if ev, ok, err := cp.binaryConst(e); ok {
		return ev, err
	}
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
		return zipEval(cp.stack(), l, r, fnPair(and3)), nil
	case "OR":
		return zipEval(cp.stack(), l, r, fnPair(or3)), nil
	case "=", "<>", "<", "<=", ">", ">=":
		cmp := newCmpPair(e.Op, collOf(e.Coll))
		if e.TextAff {
			return zipEval(cp.stack(), l, r, fnPair(func(a, b types.Value) types.Value {
				return cmp.apply(types.TextAffinityPair(a, b))
			})), nil
		}
		return zipEval(cp.stack(), l, r, cmp), nil
	case "IS", "IS NOT":
		coll, not := collOf(e.Coll), e.Op == "IS NOT"
		return zipEval(cp.stack(), l, r, fnPair(textAffinity(e.TextAff, func(a, b types.Value) types.Value {
			eq := a.IsNull() == b.IsNull() && (a.IsNull() || compareValues(a, b, coll) == 0)
			return types.NewBool(eq != not)
		}))), nil
	case "+", "-", "*", "/", "%", "&", "|", "<<", ">>":
		return zipEval(cp.stack(), l, r, fnPair(binaryFns[e.Op])), nil
	case "||":
		return cp.concatEval(l, r), nil
	}
	return nil, errs.New(errs.CodeNotSupported, "not supported: operator %s", e.Op)
}

// binaryConst compiles a comparison or an arithmetic or bitwise operator
// with one constant operand (x = 5, 443 = c5, e9*614) as one evaluator
// that combines x's values with the constant in place: no evaluator, and
// no buffer, for the constant. ok is false for other shapes.
func (cp *compiler) binaryConst(e *plan.Binary) (ev evaluator, ok bool, err error) {
	x, k, constLeft := e.L, e.R, false
	if kc, isConst := e.L.(*plan.Const); isConst {
		x, k, constLeft = e.R, kc, true
	}
	kc, isConst := k.(*plan.Const)
	if !isConst {
		return nil, false, nil
	}
	switch e.Op {
	case "=", "<>", "<", "<=", ">", ">=":
		if e.TextAff {
			return nil, false, nil
		}
		xe, err := cp.compile(x)
		if err != nil {
			return nil, true, err
		}
		return zipConstEval(xe, kc.V, constLeft, newCmpPair(e.Op, collOf(e.Coll))), true, nil
	case "+", "-", "*", "/", "%", "&", "|", "<<", ">>":
		xe, err := cp.compile(x)
		if err != nil {
			return nil, true, err
		}
		return zipConstEval(xe, kc.V, constLeft, fnPair(binaryFns[e.Op])), true, nil
	}
	return nil, false, nil
}

// concatEval is the || operator: a result past the length limit fails
// with SQLite's "string or blob too big", a large one that does not fit
// the memory limit with its error, before the bytes are allocated.
func (cp *compiler) concatEval(l, r evaluator) evaluator {
	st := cp.stack()
	return func(c *Ctx, b *Batch, out []types.Value) error {
		m := st.mark()
		defer st.release(m)
		rb, err := evalBoth(c, b, l, r, st, out)
		if err != nil {
			return err
		}
		b.ForEach(func(i int) {
			x, y := out[i], rb[i]
			// A number's text is at most 24 bytes.
			if n := int64(len(x.Bytes()) + len(y.Bytes())); (n+48 >= valueCheckFloor || c.LengthLimit > 0) && err == nil {
				err = c.valueFits(n)
			}
			out[i] = types.Concat(x, y)
		})
		return err
	}
}

// binaryFns are the arithmetic and bitwise operators' per-row functions,
// made once rather than per compiled node.
var binaryFns = map[string]func(a, b types.Value) types.Value{
	"+":  func(a, b types.Value) types.Value { return arith('+', a, b) },
	"-":  func(a, b types.Value) types.Value { return arith('-', a, b) },
	"*":  func(a, b types.Value) types.Value { return arith('*', a, b) },
	"/":  func(a, b types.Value) types.Value { return arith('/', a, b) },
	"%":  func(a, b types.Value) types.Value { return arith('%', a, b) },
	"&":  types.BitAnd,
	"|":  types.BitOr,
	"<<": types.ShiftLeft,
	">>": types.ShiftRight,
}

// textAffinity returns fn, first converting each pair of operands with
// types.TextAffinityPair when textAff is set (plan.Binary.TextAff).
func textAffinity(textAff bool, fn func(a, b types.Value) types.Value) func(a, b types.Value) types.Value {
	if !textAff {
		return fn
	}
	return func(a, b types.Value) types.Value { return fn(types.TextAffinityPair(a, b)) }
}

// cmpPair is a comparison as a pairFn: the operator's truth per
// three-way result (indexed by cmp+1), so the operator test stays out of
// the per-row path, and the collation.
type cmpPair struct {
	want [3]bool
	coll types.Collation
}

func newCmpPair(op string, coll types.Collation) cmpPair {
	p := cmpPair{coll: coll}
	switch op {
	case "=":
		p.want = [3]bool{false, true, false}
	case "<>":
		p.want = [3]bool{true, false, true}
	case "<":
		p.want = [3]bool{true, false, false}
	case "<=":
		p.want = [3]bool{true, true, false}
	case ">":
		p.want = [3]bool{false, false, true}
	case ">=":
		p.want = [3]bool{false, true, true}
	}
	return p
}

// apply is the comparison's result: NULL when an operand is NULL.
func (p cmpPair) apply(a, b types.Value) types.Value {
	if a.IsNull() || b.IsNull() {
		return types.Null
	}
	return types.NewBool(p.want[compareValues(a, b, p.coll)+1])
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
		return cp.logicEval(l, r, types.False, and3), nil
	}
	return cp.logicEval(l, r, types.True, or3), nil
}

// logicEval evaluates r only for the rows whose left value does not
// already decide the result (false for AND, true for OR). The left values
// go to out, where the undecided rows keep theirs until fn combines them.
func (cp *compiler) logicEval(l, r evaluator, decides types.Truth, fn func(a, b types.Value) types.Value) evaluator {
	decided := decides.Value()
	st := cp.stack()
	return func(c *Ctx, b *Batch, out []types.Value) error {
		m := st.mark()
		defer st.release(m)
		if err := l(c, b, out); err != nil {
			return err
		}
		open := st.rows(b)
		for k, n := 0, b.Len(); k < n; k++ {
			i := b.Phys(k)
			if types.TruthOf(out[i]) == decides {
				out[i] = decided
			} else {
				open = append(open, int32(i))
			}
		}
		if len(open) == 0 {
			return nil
		}
		view := Batch{Cols: b.Cols, N: b.N, Sel: open}
		rb := st.values(b)
		if err := r(c, &view, rb); err != nil {
			return err
		}
		for _, i := range open {
			out[i] = fn(out[i], rb[i])
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
