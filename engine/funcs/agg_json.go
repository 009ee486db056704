package funcs

import "github.com/ladybugsql/ladybug/engine/types"

// jsonArrayAgg is json_group_array(X): every row's value, NULLs as null.
type jsonArrayAgg struct {
	buf []byte // "[v,v,v" without the closing bracket
	n   int
}

func (a *jsonArrayAgg) Step(args []types.Value) error {
	n, err := nodeFromValue(args[0])
	if err != nil {
		return err
	}
	if a.n == 0 {
		a.buf = append(a.buf[:0], '[')
	} else {
		a.buf = append(a.buf, ',')
	}
	a.buf = n.write(a.buf)
	a.n++
	return checkAggLen(a.buf)
}

// Size is the bytes the array's text holds.
func (a *jsonArrayAgg) Size() int64 { return int64(cap(a.buf)) }

func (a *jsonArrayAgg) Final() (types.Value, error) {
	if a.n == 0 {
		return types.NewJSON("[]"), nil
	}
	return types.NewJSON(string(a.buf) + "]"), nil
}

func (a *jsonArrayAgg) Reset() { a.buf, a.n = a.buf[:0], 0 }

// jsonObjectAgg is json_group_object(NAME, VALUE); rows with a NULL name
// are skipped.
type jsonObjectAgg struct {
	buf []byte
	n   int
}

func (a *jsonObjectAgg) Step(args []types.Value) error {
	if args[0].IsNull() {
		return nil
	}
	v, err := nodeFromValue(args[1])
	if err != nil {
		return err
	}
	if a.n == 0 {
		a.buf = append(a.buf[:0], '{')
	} else {
		a.buf = append(a.buf, ',')
	}
	a.buf = appendJSONString(a.buf, textOf(args[0]))
	a.buf = v.write(append(a.buf, ':'))
	a.n++
	return checkAggLen(a.buf)
}

// Size is the bytes the object's text holds.
func (a *jsonObjectAgg) Size() int64 { return int64(cap(a.buf)) }

func (a *jsonObjectAgg) Final() (types.Value, error) {
	if a.n == 0 {
		return types.NewJSON("{}"), nil
	}
	return types.NewJSON(string(a.buf) + "}"), nil
}

func (a *jsonObjectAgg) Reset() { a.buf, a.n = a.buf[:0], 0 }
