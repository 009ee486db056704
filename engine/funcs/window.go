package funcs

import (
	"github.com/ladybugsql/ladybug/engine/types"
)

// Window functions. The executor sorts each partition by its ORDER BY and
// knows, for every row, where its peer group (rows equal under ORDER BY)
// starts and ends and where its frame lies; these helpers turn that into
// the value SQLite gives. Aggregates over frames use Aggregate, with
// Inverter when they have it (see FrameAggregator).

func window(name string, minArgs, maxArgs int) *Func {
	return &Func{Name: name, Kind: KindWindow, MinArgs: minArgs, MaxArgs: maxArgs, Deterministic: true}
}

var windowFuncs = []*Func{
	window("row_number", 0, 0), window("rank", 0, 0), window("dense_rank", 0, 0),
	window("percent_rank", 0, 0), window("cume_dist", 0, 0), window("ntile", 1, 1),
	window("lag", 1, 3), window("lead", 1, 3), window("first_value", 1, 1),
	window("last_value", 1, 1), window("nth_value", 2, 2),
}

// Peers places one row in its sorted partition.
type Peers struct {
	N         int // rows in the partition
	Row       int // this row, 0-based
	PeerStart int // first row of this row's peer group
	PeerEnd   int // one past the last row of the peer group
	Group     int // 0-based ordinal of the peer group in the partition
}

// RowNumber is row_number(): 1, 2, 3… in partition order.
func RowNumber(p Peers) types.Value { return types.NewInt(int64(p.Row) + 1) }

// Rank is rank(): 1 + the number of rows before the peer group.
func Rank(p Peers) types.Value { return types.NewInt(int64(p.PeerStart) + 1) }

// DenseRank is dense_rank(): 1 + the number of peer groups before.
func DenseRank(p Peers) types.Value { return types.NewInt(int64(p.Group) + 1) }

// PercentRank is percent_rank(): (rank-1)/(N-1), 0.0 for one row.
func PercentRank(p Peers) types.Value {
	if p.N <= 1 {
		return types.NewReal(0)
	}
	return types.NewReal(float64(p.PeerStart) / float64(p.N-1))
}

// CumeDist is cume_dist(): rows up to the end of the peer group over N.
func CumeDist(p Peers) types.Value {
	return types.NewReal(float64(p.PeerEnd) / float64(p.N))
}

// Ntile is ntile(k): the row's bucket when N rows split into k buckets as
// evenly as possible, larger buckets first. k is truncated to an integer,
// which must be positive.
func Ntile(p Peers, k types.Value) (types.Value, error) {
	b := k.AsInt()
	if k.IsNull() || b <= 0 {
		return types.Null, errf("argument of ntile must be a positive integer")
	}
	n := int64(p.N)
	row := int64(p.Row)
	if b >= n {
		return types.NewInt(row + 1), nil
	}
	size, big := n/b, n%b // the first big buckets hold size+1 rows
	if row < big*(size+1) {
		return types.NewInt(row/(size+1) + 1), nil
	}
	return types.NewInt(big + (row-big*(size+1))/size + 1), nil
}

// Offset reads lag/lead's optional offset argument (default 1). A NULL or
// non-integral offset makes the result NULL (ok false); a negative one
// looks the other way (lag(x, -1) is lead(x)), as in SQLite.
func Offset(args []types.Value) (off int64, ok bool) {
	if len(args) < 2 {
		return 1, true
	}
	v := args[1]
	if v.IsNull() || (v.Kind() == types.KindReal && v.Real() != float64(v.AsInt())) {
		return 0, false
	}
	return v.AsInt(), true
}

// Lag is lag(expr [, offset [, default]]) for row in col (expr evaluated
// on every partition row); args are the current row's arguments.
func Lag(col []types.Value, row int, args []types.Value) (types.Value, error) {
	return shifted(col, row, args, -1)
}

// Lead is lead(expr [, offset [, default]]).
func Lead(col []types.Value, row int, args []types.Value) (types.Value, error) {
	return shifted(col, row, args, 1)
}

func shifted(col []types.Value, row int, args []types.Value, dir int64) (types.Value, error) {
	off, ok := Offset(args)
	if !ok {
		return types.Null, nil
	}
	i := int64(row) + dir*off
	if i >= 0 && i < int64(len(col)) {
		return col[i], nil
	}
	if len(args) == 3 {
		return args[2], nil
	}
	return types.Null, nil
}

// clip bounds a frame to the partition.
func clip(n, start, end int) (int, int) {
	start, end = min(max(start, 0), n), min(end, n)
	return start, max(start, end)
}

// FirstValue is first_value(expr) over the frame col[start:end] (bounds
// may lie outside the partition).
func FirstValue(col []types.Value, start, end int) types.Value {
	start, end = clip(len(col), start, end)
	if start >= end {
		return types.Null
	}
	return col[start]
}

// LastValue is last_value(expr) over the frame col[start:end].
func LastValue(col []types.Value, start, end int) types.Value {
	start, end = clip(len(col), start, end)
	if start >= end {
		return types.Null
	}
	return col[end-1]
}

// NthValue is nth_value(expr, n) over the frame: the n-th (1-based) row,
// NULL when the frame is shorter; n must be a positive integer.
func NthValue(col []types.Value, start, end int, n types.Value) (types.Value, error) {
	k := n.AsInt()
	if n.IsNull() || k <= 0 || (n.Kind() != types.KindInt && float64(k) != n.AsReal()) {
		return types.Null, errf("second argument to nth_value must be a positive integer")
	}
	start, end = clip(len(col), start, end)
	if int64(end-start) < k {
		return types.Null, nil
	}
	return col[int64(start)+k-1], nil
}

// FrameAggregator computes an aggregate over a moving frame of a sorted
// partition. With an Inverter aggregate it moves the frame as SQLite's
// window cursors do: rows are stepped from the partition start as the
// frame end passes them and taken back as the frame start passes them,
// each row leaving before the row one frame-width later enters. That order
// is part of the result (a real once stepped keeps sum() REAL; rounding
// and overflow of real sums and group_concat separators depend on it).
// Without an Inverter each new frame start recomputes.
type FrameAggregator struct {
	agg        Aggregate
	inv        Inverter
	start, end int // rows stepped and not removed: [start, end)
	valid      bool
}

// NewFrameAggregator wraps a fresh aggregate (Func.NewAggregate()).
func NewFrameAggregator(a Aggregate) *FrameAggregator {
	inv, _ := a.(Inverter)
	return &FrameAggregator{agg: a, inv: inv}
}

// Reset starts a new partition.
func (f *FrameAggregator) Reset() {
	f.agg.Reset()
	f.start, f.end, f.valid = 0, 0, false
}

// Value returns the aggregate over rows[start:end], where rows[i] are the
// aggregate's arguments for partition row i; a nil rows[i] (a row a FILTER
// clause rejects) is neither stepped nor taken back. start and end may lie
// outside the partition (i-2, i+4…): pass them unclipped, because the
// frame's full width decides, as in SQLite, which rows leave before each
// new row is stepped. Frames are expected to move forward; a frame that
// moves back is recomputed.
func (f *FrameAggregator) Value(rows [][]types.Value, start, end int) (types.Value, error) {
	width := max(end-start, 1)
	return f.ValueLagged(rows, start, end, func(e int) int { return e - width + 1 })
}

// ValuePeers is Value for RANGE and GROUPS frames, whose bounds move by
// whole peer groups: SQLite takes back every leaving row before stepping
// the entering ones. Bounds may lie outside the partition. For GROUPS and
// RANGE frames that start "N FOLLOWING" use ValueLagged.
func (f *FrameAggregator) ValuePeers(rows [][]types.Value, start, end int) (types.Value, error) {
	return f.ValueLagged(rows, start, end, func(int) int { return start })
}

// ValueLagged is the general form: before row e is stepped, rows before
// leaveBefore(e) are taken back. SQLite's cursors make leaveBefore(e) the
// start of the frame whose end first passes e: e-width+1 for ROWS (what
// Value uses), the first row of the group (G - (y-x)) for GROUPS BETWEEN
// x FOLLOWING AND y FOLLOWING when e is in group G, the current frame
// start for other RANGE/GROUPS frames (what ValuePeers uses).
func (f *FrameAggregator) ValueLagged(rows [][]types.Value, start, end int, leaveBefore func(e int) int) (types.Value, error) {
	start, end = clip(len(rows), start, end)
	switch {
	case f.inv == nil && (!f.valid || start != f.start || end < f.end):
		f.agg.Reset()
		f.start, f.end, f.valid = start, start, true
	case f.inv != nil && (!f.valid || start < f.start || end < f.end):
		f.agg.Reset()
		f.start, f.end, f.valid = 0, 0, true
	}
	for ; f.end < end; f.end++ {
		if err := f.removeTo(rows, min(leaveBefore(f.end), start)); err != nil {
			return types.Null, err
		}
		if rows[f.end] == nil {
			continue
		}
		if err := f.agg.Step(rows[f.end]); err != nil {
			return types.Null, err
		}
	}
	if err := f.removeTo(rows, start); err != nil {
		return types.Null, err
	}
	return f.agg.Final()
}

// removeTo takes back stepped rows before index start (Inverter only).
func (f *FrameAggregator) removeTo(rows [][]types.Value, start int) error {
	if f.inv == nil {
		return nil
	}
	for ; f.start < start && f.start < f.end; f.start++ {
		if rows[f.start] == nil {
			continue
		}
		if err := f.inv.Inverse(rows[f.start]); err != nil {
			return err
		}
	}
	return nil
}
