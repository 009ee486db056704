package exec

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/funcs"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// aggKind identifies an aggregate's accumulation rule.
type aggKind uint8

const (
	aggCountStar aggKind = iota
	aggCount
	aggSum
	aggTotal
	aggAvg
	aggMin
	aggMax
	aggConcat
	aggBare
	aggJSONArray
	aggBoolAnd
	aggBoolOr
	// aggFirst keeps the group's first value (plan.AggFirst).
	aggFirst
	// aggPartialSum is sum() yielding NULL on overflow, aggSumOverflow the
	// overflow flag (plan.AggPartialSum, plan.AggSumOverflow).
	aggPartialSum
	aggSumOverflow
	// aggFunc runs an engine/funcs aggregate (json_group_object…) through
	// its interface, for aggregates without a specialised loop here.
	aggFunc
)

var aggKinds = map[string]aggKind{
	"count": aggCount, "sum": aggSum, "total": aggTotal, "avg": aggAvg, "min": aggMin,
	"max": aggMax, "group_concat": aggConcat, "string_agg": aggConcat,
	"json_group_array": aggJSONArray, "bool_and": aggBoolAnd, "every": aggBoolAnd, "bool_or": aggBoolOr,
}

// kindOf is a's accumulation rule: a planted aggregate's by its kind, a
// SQL aggregate's by name (false for one engine/funcs runs).
func kindOf(a plan.AggCall) (aggKind, bool) {
	switch a.Kind {
	case plan.AggBare:
		return aggBare, true
	case plan.AggFirst:
		return aggFirst, true
	case plan.AggPartialSum:
		return aggPartialSum, true
	case plan.AggSumOverflow:
		return aggSumOverflow, true
	}
	k, ok := aggKinds[a.Name]
	return k, ok
}

// accum is one aggregate's running state for one group. It is a plain
// struct switched on kind, so accumulating a row costs no interface call.
type accum struct {
	numAcc
	best    types.Value
	has     bool
	text    []byte
	seen    map[string]struct{} // DISTINCT
	ordered []orderedVal        // aggregate ORDER BY
	fa      funcs.Aggregate     // aggFunc
	args    []types.Value
	nargs   int
}

type orderedVal struct {
	key  string
	v, s types.Value
}

func (a *accum) add(kind aggKind, v, sep types.Value, coll types.Collation) error {
	switch kind {
	case aggCountStar:
		a.count++
	case aggCount:
		if !v.IsNull() {
			a.count++
		}
	case aggSum, aggTotal, aggAvg, aggPartialSum, aggSumOverflow:
		a.addNumber(v)
	case aggMin, aggMax:
		if v.IsNull() {
			return nil
		}
		if !a.has {
			a.best, a.has = v.Clone(), true
			return nil
		}
		r := compareValues(v, a.best, coll)
		if (kind == aggMin && r < 0) || (kind == aggMax && r > 0) {
			a.best = v.Clone()
		}
	case aggConcat:
		if v.IsNull() {
			return nil
		}
		if a.has {
			if sep.IsNull() {
				// A NULL separator joins with nothing.
			} else {
				a.text = sep.AppendText(a.text)
			}
		}
		a.has = true
		a.text = v.AppendText(a.text)
		if int64(len(a.text)) > funcs.MaxLength {
			return funcs.ErrTooBig
		}
	case aggBare:
		a.best, a.has = v.Clone(), true
	case aggFirst:
		if !a.has {
			a.best, a.has = v.Clone(), true
		}
	case aggJSONArray:
		if a.has {
			a.text = append(a.text, ',')
		}
		a.has = true
		a.text = appendJSONValue(a.text, v)
		if int64(len(a.text)) > funcs.MaxLength {
			return funcs.ErrTooBig
		}
	case aggFunc:
		a.args = append(a.args[:0], v, sep)
		return a.fa.Step(a.args[:a.nargs])
	case aggBoolAnd, aggBoolOr:
		if t, ok := truth(v); ok {
			if !a.has {
				a.count = boolInt64(t)
			} else if kind == aggBoolAnd {
				a.count &= boolInt64(t)
			} else {
				a.count |= boolInt64(t)
			}
			a.has = true
		}
	}
	return nil
}

// textBytes is what the accumulator's growing state holds: the text of
// group_concat and json_group_array, or a funcs aggregate's (Sizer).
func (a *accum) textBytes() int64 {
	n := int64(len(a.text))
	if a.fa != nil {
		if s, ok := a.fa.(funcs.Sizer); ok {
			n += s.Size()
		}
	}
	return n
}

func boolInt64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// numAcc is the state of count, sum, total and avg, as SQLite keeps it:
// an exact int64 sum while every value is an integer, then a
// Kahan-Babuska-Neumaier compensated REAL sum (fsum, ferr). It is 40
// bytes, so a grouped aggregate keeps one dense slice of them per
// aggregate.
type numAcc struct {
	count int64
	isum  int64
	fsum  float64
	ferr  float64
	real  bool // a REAL was summed, or the integer sum overflowed
	ovf   bool // the integer sum overflowed and no REAL came after
}

func (a *numAcc) addNumber(v types.Value) {
	if v.IsNull() {
		return
	}
	a.count++
	n := v.NumericType() // text that is not a number stays text: sum() turns real, as SQLite
	if n.Kind() == types.KindInt {
		a.addInt(n.Int())
		return
	}
	a.addReal(n.AsReal())
}

// addInt adds an integer (count aside): exactly until the sum overflows.
func (a *numAcc) addInt(x int64) {
	if !a.real {
		if s := a.isum + x; (s > a.isum) == (x > 0) || x == 0 {
			a.isum = s
			return
		}
		a.ovf, a.real = true, true
		a.fsum, a.ferr = funcs.KBNInit(a.isum)
	}
	funcs.KBNStepInt(&a.fsum, &a.ferr, x)
}

// addReal adds a REAL (count aside); it clears an integer overflow, as
// SQLite's sum() does.
func (a *numAcc) addReal(r float64) {
	if !a.real {
		a.real = true
		a.fsum, a.ferr = funcs.KBNInit(a.isum)
	}
	a.ovf = false
	funcs.KBNStep(&a.fsum, &a.ferr, r)
}

// realSum is the compensated REAL sum, NULL for NaN (SQLite never
// returns one).
func (a *numAcc) realSum(div float64) types.Value {
	f := funcs.KBNValue(a.fsum, a.ferr) / div
	if f != f {
		return types.Null
	}
	return types.NewReal(f)
}

// result returns the aggregate's final value.
func (a *accum) result(kind aggKind) (types.Value, error) {
	if kind.numeric() {
		return a.numAcc.result(kind)
	}
	switch kind {
	case aggMin, aggMax, aggBare, aggFirst:
		if !a.has {
			return types.Null, nil
		}
		return a.best, nil
	case aggConcat:
		if !a.has {
			return types.Null, nil
		}
		return types.NewText(string(a.text)), nil
	case aggJSONArray:
		return types.NewText("[" + string(a.text) + "]"), nil
	case aggBoolAnd, aggBoolOr:
		if !a.has {
			return types.Null, nil
		}
		return types.NewInt(a.count), nil
	case aggFunc:
		return a.fa.Final()
	}
	return types.Null, nil
}

// numeric reports whether the aggregate's state is a numAcc alone.
func (k aggKind) numeric() bool {
	switch k {
	case aggCountStar, aggCount, aggSum, aggTotal, aggAvg, aggPartialSum, aggSumOverflow:
		return true
	}
	return false
}

// result returns a count, sum, total or avg's final value.
func (a *numAcc) result(kind aggKind) (types.Value, error) {
	switch kind {
	case aggCountStar, aggCount:
		return types.NewInt(a.count), nil
	case aggSum:
		if a.count == 0 {
			return types.Null, nil
		}
		if a.ovf {
			return types.Null, sumOverflowErr()
		}
		if a.real {
			return a.realSum(1), nil
		}
		return types.NewInt(a.isum), nil
	case aggPartialSum:
		if a.count == 0 || a.ovf {
			return types.Null, nil
		}
		if a.real {
			return a.realSum(1), nil
		}
		return types.NewInt(a.isum), nil
	case aggSumOverflow:
		return types.NewInt(boolInt64(a.ovf)), nil
	case aggTotal:
		if a.real {
			return a.realSum(1), nil
		}
		return types.NewReal(float64(a.isum)), nil
	case aggAvg:
		if a.count == 0 {
			return types.Null, nil
		}
		if a.real {
			return a.realSum(float64(a.count)), nil
		}
		return types.NewReal(float64(a.isum) / float64(a.count)), nil
	}
	return types.Null, nil
}

// appendJSONValue renders v as a JSON value (text is quoted).
func appendJSONValue(dst []byte, v types.Value) []byte {
	switch v.Kind() {
	case types.KindNull:
		return append(dst, "null"...)
	case types.KindInt:
		return v.AppendText(dst)
	case types.KindReal:
		f := v.Real()
		if math.IsInf(f, 0) || f != f {
			return append(dst, "null"...)
		}
		return v.AppendText(dst)
	}
	return appendJSONString(dst, v.Str())
}

func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// addColumn folds count(x), sum, total or avg over a batch's live rows:
// the tight loop of an ungrouped aggregate. Integers and reals are added
// inline; anything else (text, an integer overflow) goes through
// addNumber.
func (a *accum) addColumn(kind aggKind, b *Batch, col []types.Value) {
	if b.Sel != nil {
		for _, i := range b.Sel {
			a.addOne(kind, col[i])
		}
		return
	}
	if kind == aggCount {
		a.countStrided(col[:b.N], 0, 1)
		return
	}
	a.sumStrided(col[:b.N], 0, 1)
}

// countStrided counts the non-NULL values vals[from], vals[from+w], ….
func (a *numAcc) countStrided(vals []types.Value, from, w int) {
	for i := from; i < len(vals); i += w {
		if !vals[i].IsNull() {
			a.count++
		}
	}
}

// sumStrided folds vals[from], vals[from+w], … into a sum, total or avg
// (addColumn's loop with stride 1, scanAggOp's over a row-major run):
// integers and reals inline, anything else (text, an integer overflow)
// through addNumber.
func (a *numAcc) sumStrided(vals []types.Value, from, w int) {
	for i := from; i < len(vals); i += w {
		v := &vals[i]
		switch v.Kind() {
		case types.KindNull:
			continue
		case types.KindInt:
			if !a.real {
				s := a.isum + v.Int()
				if (s > a.isum) == (v.Int() > 0) || v.Int() == 0 {
					a.isum = s
					a.count++
					continue
				}
			}
		case types.KindReal:
			if a.real {
				a.ovf = false
				funcs.KBNStep(&a.fsum, &a.ferr, v.Real())
				a.count++
				continue
			}
		}
		a.addNumber(*v)
	}
}

func (a *accum) addOne(kind aggKind, v types.Value) {
	if kind == aggCount {
		if !v.IsNull() {
			a.count++
		}
		return
	}
	if v.Kind() == types.KindInt && !a.real {
		s := a.isum + v.Int()
		if (s > a.isum) == (v.Int() > 0) || v.Int() == 0 {
			a.isum = s
			a.count++
			return
		}
	}
	a.addNumber(v)
}
