package funcs

import (
	"math"
	"math/rand/v2"

	"github.com/ladybugsql/ladybug/engine/types"
)

// SQLiteVersion is what sqlite_version() reports: the SQLite release whose
// semantics ladybug follows, so tools that gate features on it work.
const SQLiteVersion = "3.54.1"

var coreFuncs = []*Func{
	scalar("abs", 1, 1, fnAbs),
	scalar("coalesce", 2, -1, fnCoalesce),
	scalar("ifnull", 2, 2, fnCoalesce),
	scalar("nullif", 2, 2, fnNullif),
	scalar("iif", 2, -1, fnIif),
	scalar("if", 2, -1, fnIif),
	scalar("typeof", 1, 1, fnTypeof),
	scalar("min", 2, -1, fnMinMax(-1)),
	scalar("max", 2, -1, fnMinMax(1)),
	scalar("likelihood", 2, 2, fnLikelihood),
	scalar("likely", 1, 1, fnIdentity),
	scalar("unlikely", 1, 1, fnIdentity),
	scalar("sign", 1, 1, fnSign),
	scalar("zeroblob", 1, 1, fnZeroblob),
	volatile("random", 0, 0, fnRandom),
	volatile("randomblob", 1, 1, fnRandomblob),
	volatile("changes", 0, 0, envInt(Env.Changes)),
	volatile("total_changes", 0, 0, envInt(Env.TotalChanges)),
	volatile("last_insert_rowid", 0, 0, envInt(Env.LastInsertRowid)),
	scalar("sqlite_version", 0, 0, func(*Context, []types.Value) (types.Value, error) {
		return types.NewText(SQLiteVersion), nil
	}),
}

func fnIdentity(_ *Context, a []types.Value) (types.Value, error) { return a[0], nil }

func fnAbs(_ *Context, a []types.Value) (types.Value, error) {
	v := a[0]
	switch v.Kind() {
	case types.KindNull:
		return v, nil
	case types.KindInt:
		i := v.Int()
		if i == math.MinInt64 {
			return types.Null, errf("integer overflow")
		}
		if i < 0 {
			i = -i
		}
		return types.NewInt(i), nil
	}
	return types.NewReal(math.Abs(v.AsReal())), nil
}

func fnCoalesce(_ *Context, a []types.Value) (types.Value, error) {
	for _, v := range a {
		if !v.IsNull() {
			return v, nil
		}
	}
	return types.Null, nil
}

func fnNullif(_ *Context, a []types.Value) (types.Value, error) {
	if c, null := types.CompareSQL(a[0], a[1], types.CollBinary); !null && c == 0 {
		return types.Null, nil
	}
	return a[0], nil
}

// fnIif is iif(c1, v1 [, c2, v2 …] [, else]): the value after the first
// true condition, else the trailing odd argument, else NULL. The executor
// should rewrite it to CASE to get SQLite's lazy evaluation; evaluated
// here, every argument has already been computed.
func fnIif(_ *Context, a []types.Value) (types.Value, error) {
	for i := 0; i+1 < len(a); i += 2 {
		if types.TruthOf(a[i]) == types.True {
			return a[i+1], nil
		}
	}
	if len(a)%2 == 1 {
		return a[len(a)-1], nil
	}
	return types.Null, nil
}

var typeNames = [...]types.Value{
	types.KindNull: types.NewText("null"), types.KindInt: types.NewText("integer"),
	types.KindReal: types.NewText("real"), types.KindText: types.NewText("text"),
	types.KindBlob: types.NewText("blob"),
}

func fnTypeof(_ *Context, a []types.Value) (types.Value, error) {
	return typeNames[a[0].Kind()], nil
}

// fnMinMax is scalar min (dir -1) / max (dir 1): NULL if any argument is,
// else the extreme under BINARY collation. On ties min keeps the last
// argument and max the first, as SQLite's minmaxFunc (it matters for 0
// against 0.0).
func fnMinMax(dir int) ScalarFunc {
	return func(_ *Context, a []types.Value) (types.Value, error) {
		best := a[0]
		for _, v := range a {
			if v.IsNull() {
				return types.Null, nil
			}
			c := types.Compare(v, best, types.CollBinary) * dir
			if c > 0 || (c == 0 && dir < 0) {
				best = v
			}
		}
		return best, nil
	}
}

func fnLikelihood(_ *Context, a []types.Value) (types.Value, error) {
	p := a[1]
	if !p.IsNumber() || p.AsReal() < 0 || p.AsReal() > 1 {
		return types.Null, errf("second argument to likelihood() must be a constant between 0.0 and 1.0")
	}
	return a[0], nil
}

func fnSign(_ *Context, a []types.Value) (types.Value, error) {
	v := a[0]
	if v.Kind() == types.KindBlob {
		return types.Null, nil // sqlite3_value_numeric_type leaves a blob a blob
	}
	if v.Kind() == types.KindText {
		if !types.LooksNumeric(v.Str()) {
			return types.Null, nil
		}
		v = v.Numeric()
	}
	switch {
	case v.IsNull():
		return types.Null, nil
	case v.AsReal() > 0:
		return types.NewInt(1), nil
	case v.AsReal() < 0:
		return types.NewInt(-1), nil
	}
	return types.NewInt(0), nil
}

func fnZeroblob(c *Context, a []types.Value) (types.Value, error) {
	n := max(a[0].AsInt(), 0)
	if err := c.checkLen(n); err != nil {
		return types.Null, err
	}
	b := c.buf(int(n))[:n]
	clear(b)
	return c.blob(b), nil
}

func fnRandom(*Context, []types.Value) (types.Value, error) {
	return types.NewInt(int64(rand.Uint64())), nil
}

func fnRandomblob(c *Context, a []types.Value) (types.Value, error) {
	n := max(a[0].AsInt(), 1)
	if err := c.checkLen(n); err != nil {
		return types.Null, err
	}
	b := c.buf(int(n))[:n]
	for i := 0; i < len(b); i += 8 {
		u := rand.Uint64()
		for j := i; j < len(b) && j < i+8; j++ {
			b[j] = byte(u)
			u >>= 8
		}
	}
	return c.blob(b), nil
}

// envInt reads one counter from the session; 0 without an Env.
func envInt(get func(Env) int64) ScalarFunc {
	return func(c *Context, _ []types.Value) (types.Value, error) {
		if c == nil || c.Env == nil {
			return types.NewInt(0), nil
		}
		return types.NewInt(get(c.Env)), nil
	}
}
