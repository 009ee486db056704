package funcs

import (
	"github.com/ladybugsql/ladybug/engine/types"
)

// Aggregate folds rows into one value. The executor creates one per group
// (Func.NewAggregate), calls Step once per row with that row's arguments,
// and Final for the result. Final does not disturb the state, so a window
// can read the running value after every row; Reset empties it for reuse,
// so a GROUP BY needs no allocation per group beyond the first.
//
// Aggregates copy what they keep (min/max values, group_concat text);
// arguments may alias batch memory. Step allocates nothing per row except
// where the result itself grows (group_concat, json_group_*).
//
// What the executor does, not the aggregate: DISTINCT (drop repeated
// argument tuples before Step), FILTER (skip rows before Step), ORDER BY
// inside the call (sort the group's rows before stepping them).
type Aggregate interface {
	Step(args []types.Value) error
	Final() (types.Value, error)
	Reset()
}

// Sizer is implemented by aggregates whose state grows with the rows
// stepped (group_concat, json_group_array, json_group_object): Size is
// the bytes it holds, which the executor charges to the memory limit.
type Sizer interface{ Size() int64 }

// checkAggLen fails with ErrTooBig once an aggregate's text passes
// MaxLength, as SQLite's accumulators do.
func checkAggLen(b []byte) error {
	if int64(len(b)) > MaxLength {
		return ErrTooBig
	}
	return nil
}

// Inverter is implemented by aggregates that can take back the oldest row
// stepped, so a sliding window frame moves in O(1) per row. Rows must be
// removed in the order they were stepped. Aggregates without it (min,
// max) are recomputed over the frame.
type Inverter interface {
	Inverse(args []types.Value) error
}

// LatestTie is implemented by min and max. Over a window frame that does
// not start at UNBOUNDED PRECEDING (and has no EXCLUDE clause) SQLite keeps
// the frame's values in an index ordered by value, then by arrival, and
// answers its last entry: among equal values (0 and 0.0, 'a' and 'A' under
// NOCASE) the latest row's wins. Everywhere else the first one's does.
type LatestTie interface{ PreferLatestTie() }

// CollationSetter is implemented by aggregates whose result depends on a
// collation (min, max); the executor sets the argument's collation before
// the first Step. The default is BINARY.
type CollationSetter interface {
	SetCollation(types.Collation)
}

func aggregate(name string, minArgs, maxArgs int, mk func() Aggregate) *Func {
	return &Func{Name: name, Kind: KindAggregate, MinArgs: minArgs, MaxArgs: maxArgs, Deterministic: true, NewAggregate: mk}
}

var aggregateFuncs = []*Func{
	aggregate("count", 0, 1, func() Aggregate { return &countAgg{} }),
	aggregate("sum", 1, 1, func() Aggregate { return &sumAgg{kind: sumSum} }),
	aggregate("total", 1, 1, func() Aggregate { return &sumAgg{kind: sumTotal} }),
	aggregate("avg", 1, 1, func() Aggregate { return &sumAgg{kind: sumAvg} }),
	aggregate("min", 1, 1, func() Aggregate { return &extremeAgg{dir: -1} }),
	aggregate("max", 1, 1, func() Aggregate { return &extremeAgg{dir: 1} }),
	aggregate("group_concat", 1, 2, func() Aggregate { return &concatAgg{} }),
	aggregate("string_agg", 2, 2, func() Aggregate { return &concatAgg{} }),
	aggregate("json_group_array", 1, 1, func() Aggregate { return &jsonArrayAgg{} }),
	aggregate("json_group_object", 2, 2, func() Aggregate { return &jsonObjectAgg{} }),
	aggregate("bool_and", 1, 1, func() Aggregate { return &boolAgg{and: true} }),
	aggregate("every", 1, 1, func() Aggregate { return &boolAgg{and: true} }),
	aggregate("bool_or", 1, 1, func() Aggregate { return &boolAgg{} }),
}

// countAgg is count(*) (no arguments: every row) and count(X) (non-NULL X).
type countAgg struct{ n int64 }

func (a *countAgg) Step(args []types.Value) error {
	if len(args) == 0 || !args[0].IsNull() {
		a.n++
	}
	return nil
}

func (a *countAgg) Inverse(args []types.Value) error {
	if len(args) == 0 || !args[0].IsNull() {
		a.n--
	}
	return nil
}

func (a *countAgg) Final() (types.Value, error) { return types.NewInt(a.n), nil }
func (a *countAgg) Reset()                      { a.n = 0 }

// extremeAgg is the aggregate min (dir -1) and max (dir 1): NULLs are
// skipped; the kept value is copied, and a new copy is made each time the
// best value changes, because a window keeps every Final result while the
// aggregate goes on stepping (a reused buffer would rewrite them).
type extremeAgg struct {
	dir    int
	coll   types.Collation
	best   types.Value
	latest bool // ties go to the latest row (see LatestTie)
}

func (a *extremeAgg) SetCollation(c types.Collation) { a.coll = c }

// PreferLatestTie implements LatestTie.
func (a *extremeAgg) PreferLatestTie() { a.latest = true }

func (a *extremeAgg) Step(args []types.Value) error {
	v := args[0]
	if v.IsNull() {
		return nil
	}
	if !a.best.IsNull() {
		if c := types.Compare(v, a.best, a.coll) * a.dir; c < 0 || c == 0 && !a.latest {
			return nil
		}
	}
	a.best = v.Clone()
	return nil
}

func (a *extremeAgg) Final() (types.Value, error) { return a.best, nil }
func (a *extremeAgg) Reset()                      { a.best = types.Null }

// boolAgg is bool_and/every (and) and bool_or: NULLs skipped, NULL for no
// rows, else 1 or 0.
type boolAgg struct {
	and      bool
	seen     bool
	result   bool
	nTrue    int64 // for Inverse
	nNonNull int64
}

func (a *boolAgg) Step(args []types.Value) error {
	t := types.TruthOf(args[0])
	if t == types.Unknown {
		return nil
	}
	a.nNonNull++
	if t == types.True {
		a.nTrue++
	}
	return nil
}

func (a *boolAgg) Inverse(args []types.Value) error {
	t := types.TruthOf(args[0])
	if t == types.Unknown {
		return nil
	}
	a.nNonNull--
	if t == types.True {
		a.nTrue--
	}
	return nil
}

func (a *boolAgg) Final() (types.Value, error) {
	switch {
	case a.nNonNull == 0:
		return types.Null, nil
	case a.and:
		return types.NewBool(a.nTrue == a.nNonNull), nil
	}
	return types.NewBool(a.nTrue > 0), nil
}

func (a *boolAgg) Reset() { a.nTrue, a.nNonNull = 0, 0 }
