package exec

import (
	"sort"
	"unsafe"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/factorized"
)

// windowOp materialises its input, computes each window function over its
// partitions in its window order, and emits the rows (in the first
// function's window order) with one extra column per function.
type windowOp struct {
	in    Operator
	ncol  int
	funcs []*winFunc
	out   *Batch

	rows   *factorized.Table
	mem    held // rows, charged to the memory limit
	order  []int
	pos    int
	ready  bool
	result [][]types.Value // per function, per input row
}

// winFunc is one compiled window function with its per-row inputs.
type winFunc struct {
	// bytes counts what collect keeps per row (keys, arguments), for the
	// memory limit.
	bytes     int64
	f         plan.WindowFunc
	fn        *funcs.Func
	args      []evaluator
	argBufs   [][]types.Value
	part      *sortKeyer
	ord       *sortKeyer
	ordVal    evaluator // the single ORDER BY term, for RANGE offsets
	ordBuf    []types.Value
	filter    evaluator
	filterBuf []types.Value
	pkeys     []string
	okeys     []string
	key       []byte // collect's key buffer
	argRows   [][]types.Value
	ordVals   []types.Value
	coll      types.Collation
	startOff  evaluator
	endOff    evaluator
}

func (b *builder) window(n *plan.Window) (Operator, error) {
	in, err := b.build(n.Input)
	if err != nil {
		return nil, err
	}
	op := &windowOp{in: in, ncol: len(n.Input.Columns()), out: emptyBatch(len(n.Cols))}
	for _, f := range n.Funcs {
		wf, err := b.cp.newWinFunc(f)
		if err != nil {
			return nil, err
		}
		op.funcs = append(op.funcs, wf)
	}
	return op, nil
}

func (cp *compiler) newWinFunc(f plan.WindowFunc) (*winFunc, error) {
	fn, err := funcs.Resolve(f.Name, len(f.Args))
	if err != nil {
		if f.Name == "count" && f.Star {
			fn, err = funcs.Resolve("count", 0)
		}
		if err != nil {
			return nil, err
		}
	}
	wf := &winFunc{f: f, fn: fn}
	if f.Filter != nil {
		if wf.filter, err = cp.compile(f.Filter); err != nil {
			return nil, err
		}
		wf.filterBuf = scratch()
	}
	for _, a := range f.Args {
		ev, err := cp.compile(a)
		if err != nil {
			return nil, err
		}
		wf.args = append(wf.args, ev)
		wf.argBufs = append(wf.argBufs, scratch())
	}
	if len(f.Args) > 0 {
		wf.coll = collOf(exprCollation(f.Args[0]))
	}
	parts := make([]plan.SortKey, len(f.Partition))
	for i, p := range f.Partition {
		parts[i] = plan.SortKey{Expr: p, NullsFirst: true, Collate: exprCollation(p)}
	}
	if wf.part, err = cp.newSortKeyer(parts); err != nil {
		return nil, err
	}
	if wf.ord, err = cp.newSortKeyer(f.Order); err != nil {
		return nil, err
	}
	if len(f.Order) == 1 {
		if wf.ordVal, err = cp.compile(f.Order[0].Expr); err != nil {
			return nil, err
		}
		wf.ordBuf = scratch()
	}
	if f.Frame.Start != nil {
		if wf.startOff, err = cp.compile(f.Frame.Start); err != nil {
			return nil, err
		}
	}
	if f.Frame.End != nil {
		if wf.endOff, err = cp.compile(f.Frame.End); err != nil {
			return nil, err
		}
	}
	return wf, nil
}

func (w *windowOp) Next(c *Ctx) (*Batch, error) {
	if !w.ready {
		if err := w.compute(c); err != nil {
			return nil, err
		}
		w.ready = true
	}
	if w.pos >= len(w.order) {
		return nil, nil
	}
	b := w.out
	b.Reset()
	b.reserve(min(len(w.order)-w.pos, BatchSize))
	for w.pos < len(w.order) && b.N < BatchSize {
		row := w.order[w.pos]
		r := w.rows.Row(row)
		for col := 0; col < w.ncol; col++ {
			b.Cols[col][b.N] = factValue(r, col)
		}
		for k := range w.funcs {
			b.Cols[w.ncol+k][b.N] = w.result[k][row]
		}
		b.N++
		w.pos++
	}
	return b, nil
}

// compute reads the input and evaluates every function.
func (w *windowOp) compute(c *Ctx) error {
	w.rows = factorized.NewTable(c.Pool, valueSchema(w.ncol))
	for {
		b, err := w.in.Next(c)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		for _, f := range w.funcs {
			if err := f.collect(c, b); err != nil {
				return err
			}
		}
		for k, n := 0, b.Len(); k < n; k++ {
			appendBatchRow(w.rows, b, b.Phys(k), w.ncol)
		}
		held := w.rows.SizeBytes()
		for _, f := range w.funcs {
			held += f.bytes
		}
		if err := w.mem.set(c, held); err != nil {
			return err
		}
		if err := c.CheckNow(); err != nil {
			return err
		}
	}
	w.result = make([][]types.Value, len(w.funcs))
	for k, f := range w.funcs {
		perm := f.permutation()
		if k == 0 {
			w.order = perm
		}
		res, err := f.evaluate(c, perm)
		if err != nil {
			return err
		}
		w.result[k] = res
	}
	return nil
}

// collect evaluates the function's inputs over a batch.
func (f *winFunc) collect(c *Ctx, b *Batch) error {
	for i, ev := range f.args {
		if err := ev(c, b, fit(&f.argBufs[i], b)); err != nil {
			return err
		}
	}
	if err := f.part.eval(c, b); err != nil {
		return err
	}
	if err := f.ord.eval(c, b); err != nil {
		return err
	}
	if f.ordVal != nil {
		if err := f.ordVal(c, b, fit(&f.ordBuf, b)); err != nil {
			return err
		}
	}
	if f.filter != nil {
		if err := f.filter(c, b, fit(&f.filterBuf, b)); err != nil {
			return err
		}
	}
	// The batch's argument rows share one allocation.
	na := len(f.args)
	vals := make([]types.Value, b.Len()*na)
	for k, n := 0, b.Len(); k < n; k++ {
		i := b.Phys(k)
		f.key = f.part.key(f.key[:0], i)
		f.pkeys = append(f.pkeys, string(f.key))
		f.key = f.ord.key(f.key[:0], i)
		f.okeys = append(f.okeys, string(f.key))
		args := vals[k*na : (k+1)*na : (k+1)*na]
		for a := range args {
			args[a] = f.argBufs[a][i].Clone()
		}
		if f.filter != nil && !isTrue(f.filterBuf[i]) {
			// A row the filter rejects is never stepped (nil arguments;
			// only aggregates take FILTER, and they read nothing else).
			args = nil
		}
		f.argRows = append(f.argRows, args)
		if f.ordVal != nil {
			f.ordVals = append(f.ordVals, f.ordBuf[i].Clone())
		}
		f.bytes += int64(len(f.pkeys[len(f.pkeys)-1])+len(f.okeys[len(f.okeys)-1])) + winRowBytes + int64(len(args))*valueBytes
	}
	return nil
}

// permutation orders the input rows by (partition, window order), stably.
func (f *winFunc) permutation() []int {
	perm := make([]int, len(f.pkeys))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool {
		x, y := perm[a], perm[b]
		if f.pkeys[x] != f.pkeys[y] {
			return f.pkeys[x] < f.pkeys[y]
		}
		return f.okeys[x] < f.okeys[y]
	})
	return perm
}

// evaluate computes the function for every row, partition by partition.
func (f *winFunc) evaluate(c *Ctx, perm []int) ([]types.Value, error) {
	res := make([]types.Value, len(perm))
	for lo := 0; lo < len(perm); {
		hi := lo + 1
		for hi < len(perm) && f.pkeys[perm[hi]] == f.pkeys[perm[lo]] {
			hi++
		}
		if err := f.partition(c, perm[lo:hi], res); err != nil {
			return nil, err
		}
		lo = hi
		if err := c.Check(); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// partition computes the function over one partition's rows (in order).
func (f *winFunc) partition(c *Ctx, rows []int, res []types.Value) error {
	n := len(rows)
	args := make([][]types.Value, n)
	col := make([]types.Value, n)
	for i, r := range rows {
		args[i] = f.argRows[r]
		if len(args[i]) > 0 {
			col[i] = args[i][0]
		}
	}
	peerStart, peerEnd, group := f.peers(rows)
	var agg *funcs.FrameAggregator
	if f.fn.Kind == funcs.KindAggregate {
		a := f.fn.NewAggregate()
		if cs, ok := a.(funcs.CollationSetter); ok {
			cs.SetCollation(f.coll)
		}
		if lt, ok := a.(funcs.LatestTie); ok && f.f.Frame.Set && f.f.Frame.StartKind != "UNBOUNDED PRECEDING" {
			lt.PreferLatestTie() // only here: an EXCLUDE frame aggregates afresh (excludedValue)
		}
		agg = funcs.NewFrameAggregator(a)
	}
	for i := 0; i < n; i++ {
		p := funcs.Peers{N: n, Row: i, PeerStart: peerStart[i], PeerEnd: peerEnd[i], Group: group[i]}
		start, end, err := f.frame(c, i, rows, peerStart, peerEnd, group)
		if err != nil {
			return err
		}
		var v types.Value
		if f.f.Frame.Exclude != "" {
			// Any EXCLUDE clause, even NO OTHERS, makes SQLite aggregate
			// each frame afresh instead of sliding it: sum() then forgets
			// a non-integer that left the frame.
			v, err = f.excludedValue(p, args, col, i, start, end, peerStart[i], peerEnd[i])
		} else {
			v, err = f.value(p, agg, args, col, i, start, end)
		}
		if err != nil {
			return err
		}
		res[rows[i]] = v
	}
	return nil
}

func (f *winFunc) value(p funcs.Peers, agg *funcs.FrameAggregator, args [][]types.Value, col []types.Value, i, start, end int) (types.Value, error) {
	if agg != nil {
		return agg.Value(args, start, end)
	}
	switch f.f.Name {
	case "row_number":
		return funcs.RowNumber(p), nil
	case "rank":
		return funcs.Rank(p), nil
	case "dense_rank":
		return funcs.DenseRank(p), nil
	case "percent_rank":
		return funcs.PercentRank(p), nil
	case "cume_dist":
		return funcs.CumeDist(p), nil
	case "ntile":
		return funcs.Ntile(p, args[i][0])
	case "lag":
		return funcs.Lag(col, i, args[i])
	case "lead":
		return funcs.Lead(col, i, args[i])
	case "first_value":
		return funcs.FirstValue(col, start, end), nil
	case "last_value":
		return funcs.LastValue(col, start, end), nil
	case "nth_value":
		return funcs.NthValue(col, start, end, args[i][1])
	}
	return types.Null, notSupportedErr("window function " + f.f.Name)
}

// excludedValue computes the function over the frame [start, end) minus
// the rows EXCLUDE removes: the current row, its peer group, or its peers
// other than itself (TIES). The frame is recomputed for the row.
func (f *winFunc) excludedValue(p funcs.Peers, args [][]types.Value, col []types.Value, i, start, end, ps, pe int) (types.Value, error) {
	keep := func(r int) bool {
		switch f.f.Frame.Exclude {
		case "CURRENT ROW":
			return r != i
		case "GROUP":
			return r < ps || r >= pe
		case "TIES":
			return r == i || r < ps || r >= pe
		}
		return true
	}
	var rows [][]types.Value
	var vals []types.Value
	for r := max(start, 0); r < min(end, len(args)); r++ {
		if keep(r) {
			rows = append(rows, args[r])
			vals = append(vals, col[r])
		}
	}
	if f.fn.Kind == funcs.KindAggregate {
		a := f.fn.NewAggregate()
		if cs, ok := a.(funcs.CollationSetter); ok {
			cs.SetCollation(f.coll)
		}
		for _, r := range rows {
			if r == nil {
				continue
			}
			if err := a.Step(r); err != nil {
				return types.Null, err
			}
		}
		return a.Final()
	}
	switch f.f.Name {
	case "first_value":
		return funcs.FirstValue(vals, 0, len(vals)), nil
	case "last_value":
		return funcs.LastValue(vals, 0, len(vals)), nil
	case "nth_value":
		return funcs.NthValue(vals, 0, len(vals), args[i][1])
	}
	return f.value(p, nil, args, col, i, start, end)
}

// peers computes, per row, its peer group's bounds and ordinal.
func (f *winFunc) peers(rows []int) (start, end, group []int) {
	n := len(rows)
	start, end, group = make([]int, n), make([]int, n), make([]int, n)
	g := 0
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && f.okeys[rows[hi]] == f.okeys[rows[lo]] {
			hi++
		}
		for i := lo; i < hi; i++ {
			start[i], end[i], group[i] = lo, hi, g
		}
		g++
		lo = hi
	}
	return start, end, group
}

// frame returns row i's frame [start, end) within the partition.
func (f *winFunc) frame(c *Ctx, i int, rows, peerStart, peerEnd, group []int) (int, int, error) {
	fr := f.f.Frame
	n := len(rows)
	if !fr.Set {
		if len(f.f.Order) == 0 {
			return 0, n, nil
		}
		return 0, peerEnd[i], nil
	}
	start, err := f.bound(c, fr.Unit, fr.StartKind, f.startOff, i, rows, peerStart, peerEnd, group, true)
	if err != nil {
		return 0, 0, err
	}
	end, err := f.bound(c, fr.Unit, fr.EndKind, f.endOff, i, rows, peerStart, peerEnd, group, false)
	if err != nil {
		return 0, 0, err
	}
	return max(start, 0), min(end, n), nil
}

// bound computes one frame boundary: the first row in the frame for a
// start, one past the last for an end.
func (f *winFunc) bound(c *Ctx, unit, kind string, off evaluator, i int, rows, peerStart, peerEnd, group []int, isStart bool) (int, error) {
	n := len(rows)
	switch kind {
	case "UNBOUNDED PRECEDING":
		return 0, nil
	case "UNBOUNDED FOLLOWING":
		return n, nil
	case "CURRENT ROW":
		switch {
		case unit == "ROWS" && isStart:
			return i, nil
		case unit == "ROWS":
			return i + 1, nil
		case isStart:
			return peerStart[i], nil
		}
		return peerEnd[i], nil
	}
	v, err := evalOne(c, off)
	if err != nil {
		return 0, err
	}
	if v.IsNull() || v.AsReal() < 0 {
		return 0, errs.New(errs.CodeGeneric, "frame starting offset must be a non-negative number")
	}
	back := kind == "PRECEDING"
	switch unit {
	case "ROWS":
		k := int(v.AsInt())
		pos := i + k
		if back {
			pos = i - k
		}
		if isStart {
			return pos, nil
		}
		return pos + 1, nil
	case "GROUPS":
		k := int(v.AsInt())
		g := group[i] + k
		if back {
			g = group[i] - k
		}
		return groupBound(group, g, isStart), nil
	}
	return f.rangeBound(v, i, rows, back, isStart)
}

// groupBound is the first row of peer group g (start) or one past its last
// row (end).
func groupBound(group []int, g int, isStart bool) int {
	n := len(group)
	if isStart {
		return sort.Search(n, func(r int) bool { return group[r] >= g })
	}
	return sort.Search(n, func(r int) bool { return group[r] > g })
}

// rangeBound handles RANGE n PRECEDING/FOLLOWING over the single ORDER BY
// value.
func (f *winFunc) rangeBound(off types.Value, i int, rows []int, back, isStart bool) (int, error) {
	if f.ordVal == nil {
		return 0, errs.New(errs.CodeGeneric, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY term")
	}
	desc := f.f.Order[0].Desc
	cur := f.ordVals[rows[i]]
	if cur.IsNull() || !cur.IsNumber() {
		// NULL (and non-numeric) keys: the frame is the peer group.
		lo, hi := i, i+1
		for lo > 0 && types.Equal(f.ordVals[rows[lo-1]], cur, types.CollBinary) {
			lo--
		}
		for hi < len(rows) && types.Equal(f.ordVals[rows[hi]], cur, types.CollBinary) {
			hi++
		}
		if isStart {
			return lo, nil
		}
		return hi, nil
	}
	delta := off
	if back != desc {
		delta = types.Neg(off)
	}
	target := types.Add(cur, delta)
	n := len(rows)
	// Rows are sorted ascending (or descending) by the value.
	before := func(r int) bool {
		v := f.ordVals[rows[r]]
		if v.IsNull() {
			return !desc
		}
		c := types.Compare(v, target, types.CollBinary)
		if desc {
			c = -c
		}
		if isStart {
			return c < 0
		}
		return c <= 0
	}
	return sort.Search(n, func(r int) bool { return !before(r) }), nil
}

// Per-row bytes a window function keeps beside the values: two key
// strings, an argument slice and an ORDER BY value.
const (
	valueBytes  = int64(unsafe.Sizeof(types.Value{}))
	winRowBytes = 2*int64(unsafe.Sizeof("")) + int64(unsafe.Sizeof([]types.Value{})) + valueBytes
)

func (w *windowOp) Close() {
	w.mem.release()
	for _, f := range w.funcs {
		f.bytes = 0
	}
	w.in.Close()
	if w.rows != nil {
		w.rows.Release()
		w.rows = nil
	}
	for _, f := range w.funcs {
		f.pkeys, f.okeys, f.argRows, f.ordVals = nil, nil, nil, nil
	}
	w.order, w.pos, w.ready, w.result = nil, 0, false, nil
}
