package exec

import (
	"bytes"
	"sort"
	"unsafe"

	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/factorized"
)

// aggSpec is one compiled aggregate call.
type aggSpec struct {
	kind     aggKind
	arg      evaluator // nil for count(*)
	sep      evaluator // group_concat / string_agg separator
	filter   evaluator
	distinct bool
	coll     types.Collation
	order    *sortKeyer
	fn       *funcs.Func // aggFunc
	argBuf   []types.Value
	// argCol >= 0 when the argument is a plain input column: the
	// aggregate reads that batch column in place instead of copying it to
	// argBuf. args is the current batch's argument values either way.
	argCol int
	args   []types.Value
	sepBuf []types.Value
	fltBuf []types.Value
	// pass and view select the rows FILTER keeps, the only ones the
	// argument is evaluated on (as in SQLite, whose FILTER skips the
	// argument's code: an error it would raise elsewhere does not happen).
	pass []int32
	view Batch
	// twin >= 0 makes an AggSumOverflow read aggregate twin's accumulator
	// (see linkOverflowTwins) instead of adding the rows itself.
	twin int
	// fast marks a grouped count, sum, total or avg without DISTINCT,
	// FILTER or ORDER BY: its states are aggregateOp.nums[slot], one
	// numAcc per group, added by typed loops (addFast). Otherwise slot is
	// the aggregate's place in each group's run of accumulators.
	fast bool
	slot int
}

// aggregateOp is a hash aggregation: groups live in a factorized hash
// table (key) and table (representative key values); accumulators are
// indexed by group number.
// distinctEntryBytes is the map overhead of one DISTINCT key, roughly.
const distinctEntryBytes = 48

type aggregateOp struct {
	// extra counts the bytes DISTINCT keys and ordered arguments hold;
	// extraMem the part charged to the memory limit.
	extra    int64
	extraMem held
	in       Operator
	groups   []evaluator
	gcolls   []string
	gbufs    [][]types.Value
	// gcol[i] >= 0 reads group key i in place from that input column;
	// gkeys[i] is the current batch's key values either way.
	gcol    []int
	gkeys   [][]types.Value
	aggs    []aggSpec
	out     *Batch
	ht      *factorized.HashTable
	ig      intGroups
	gvals   *factorized.Table
	accs    []accum
	ngen    int // accumulators per group in accs
	nums    [][]numAcc
	ngroups int
	key     []byte
	ready   bool
	emitted int
	// sorted: input ordered by the group keys (plan.Aggregate.Sorted); a
	// row starts a new group when its key differs from last's.
	sorted bool
	last   []byte
	// stream (plan.Aggregate.Stream, sorted input) emits the groups that
	// are complete after each input batch instead of after the whole
	// input (aggregate_stream.go); inDone marks the input exhausted.
	stream bool
	inDone bool
	gidx   []int
	// groupMem is the groups and their states, charged to the memory
	// limit.
	groupMem held
	// keptHT and gvalsRoom are the group table and key values kept across
	// runs (see keptHash); ht and gvals point at them during a run.
	keptHT    keptHash
	gvalsRoom factorized.Table
	rowKey    []byte // a DISTINCT or ORDER BY argument's key, per row
}

func (cp *compiler) newAggregate(n *plan.Aggregate, in Operator) (Operator, error) {
	op := &aggregateOp{in: in, out: emptyBatch(len(n.Cols)), sorted: n.Sorted, stream: n.Sorted && n.Stream && len(n.Group) > 0}
	for _, g := range n.Group {
		ev, err := cp.compile(g)
		if err != nil {
			return nil, err
		}
		op.groups = append(op.groups, ev)
		op.gcolls = append(op.gcolls, exprCollation(g))
		op.gbufs = append(op.gbufs, scratch())
		col := -1
		if r, ok := g.(*plan.ColRef); ok {
			col = r.Idx
		}
		op.gcol = append(op.gcol, col)
	}
	op.gkeys = make([][]types.Value, len(op.groups))
	for _, a := range n.Aggs {
		spec, err := cp.aggSpec(a)
		if err != nil {
			return nil, err
		}
		op.aggs = append(op.aggs, spec)
	}
	linkOverflowTwins(n.Aggs, op.aggs)
	op.assignSlots()
	return op, nil
}

func (cp *compiler) aggSpec(a plan.AggCall) (aggSpec, error) {
	kind, ok := kindOf(a)
	var fn *funcs.Func
	if !ok {
		f, err := funcs.Resolve(a.Name, len(a.Args))
		if err != nil {
			return aggSpec{}, err
		}
		if f.Kind != funcs.KindAggregate || len(a.Args) > 2 {
			return aggSpec{}, notSupportedErr("aggregate function " + a.Name)
		}
		kind, fn = aggFunc, f
	}
	s := aggSpec{kind: kind, distinct: a.Distinct, fn: fn, argCol: -1}
	if a.Star {
		s.kind = aggCountStar
	}
	var err error
	if len(a.Args) > 0 && !a.Star {
		if s.arg, err = cp.compile(a.Args[0]); err != nil {
			return s, err
		}
		s.coll = collOf(exprCollation(a.Args[0]))
		if r, ok := a.Args[0].(*plan.ColRef); ok {
			s.argCol = r.Idx // read in place: no argument buffer
		} else {
			s.argBuf = scratch()
		}
	}
	if kind == aggFunc && len(a.Args) == 2 {
		if s.sep, err = cp.compile(a.Args[1]); err != nil {
			return s, err
		}
		s.sepBuf = scratch()
	}
	if kind == aggConcat {
		if len(a.Args) > 1 {
			if s.sep, err = cp.compile(a.Args[1]); err != nil {
				return s, err
			}
		} else {
			s.sep = commaEval
		}
		s.sepBuf = scratch()
	}
	if a.Filter != nil {
		if s.filter, err = cp.compile(a.Filter); err != nil {
			return s, err
		}
		s.fltBuf = scratch()
	}
	if len(a.OrderBy) > 0 {
		if s.order, err = cp.newSortKeyer(a.OrderBy); err != nil {
			return s, err
		}
	}
	return s, nil
}

// commaEval is group_concat's default separator.
var commaEval = constEval(types.NewText(","))

func (a *aggregateOp) Next(c *Ctx) (*Batch, error) {
	if a.stream {
		return a.nextStream(c)
	}
	if !a.ready {
		if err := a.consume(c); err != nil {
			return nil, err
		}
		a.ready = true
	}
	return a.emit(a.ngroups)
}

func (a *aggregateOp) consume(c *Ctx) error {
	if err := a.begin(c); err != nil {
		return err
	}
	for {
		more, err := a.consumeBatch(c)
		if err != nil || !more {
			return err
		}
	}
}

// begin readies the group table (or the single group) for a run.
func (a *aggregateOp) begin(c *Ctx) error {
	a.inDone = false
	if len(a.groups) > 0 {
		if !a.sorted {
			var err error
			if a.ht, err = a.keptHT.take(c.Pool, int64Schema); err != nil {
				return err
			}
		}
		a.gvalsRoom.Init(c.Pool, valueSchema(len(a.groups)))
		a.gvals = &a.gvalsRoom
	} else {
		a.ngroups = 1
		// The slice a previous run kept (resetState), if any: a correlated
		// aggregate begins once per outer row.
		a.accs = a.accs[:0]
		for k := range a.aggs {
			a.accs = append(a.accs, a.aggs[k].newAccum())
		}
	}
	return nil
}

// consumeBatch folds the input's next batch into the groups; false when
// the input is exhausted.
func (a *aggregateOp) consumeBatch(c *Ctx) (bool, error) {
	b, err := a.in.Next(c)
	if err != nil || b == nil {
		return false, err
	}
	if err := a.evalInputs(c, b); err != nil {
		return false, err
	}
	if len(a.gidx) < b.N {
		a.gidx = make([]int, roomFor(b.N))
	}
	if len(a.groups) > 0 {
		a.assignGroups(b, a.gidx)
	}
	if err := a.accumulate(b, a.gidx); err != nil {
		return false, err
	}
	// DISTINCT and ORDER BY arguments keep every value they were given.
	if err := a.extraMem.set(c, a.extra); err != nil {
		return false, err
	}
	if a.gvals != nil {
		// Account the groups held, so a memory limit stops a runaway
		// GROUP BY with an error.
		if s := a.gvals.SizeBytes() + a.stateBytes(); s != a.groupMem.n {
			if err := a.groupMem.set(c, s); err != nil {
				return false, err
			}
		}
	}
	return true, c.CheckNow()
}

func (a *aggregateOp) evalInputs(c *Ctx, b *Batch) error {
	for i, g := range a.groups {
		if a.gcol[i] >= 0 {
			a.gkeys[i] = b.Cols[a.gcol[i]]
			continue
		}
		if err := g(c, b, fit(&a.gbufs[i], b)); err != nil {
			return err
		}
		a.gkeys[i] = a.gbufs[i]
	}
	for k := range a.aggs {
		s := &a.aggs[k]
		if s.twin >= 0 {
			continue
		}
		kept := b
		if s.filter != nil {
			if err := s.filter(c, b, fit(&s.fltBuf, b)); err != nil {
				return err
			}
			if s.pass == nil {
				s.pass = make([]int32, 0, b.Len()) // never nil: a nil Sel means every row
			}
			s.pass = s.pass[:0]
			for j, n := 0, b.Len(); j < n; j++ {
				if i := b.Phys(j); isTrue(s.fltBuf[i]) {
					s.pass = append(s.pass, int32(i))
				}
			}
			s.view = Batch{Cols: b.Cols, N: b.N, Sel: s.pass}
			kept = &s.view
		}
		s.args = s.argBuf
		if s.argCol >= 0 {
			s.args = b.Cols[s.argCol]
		} else if s.arg != nil && kept.Len() > 0 {
			s.args = fit(&s.argBuf, b)
			if err := s.arg(c, kept, s.args); err != nil {
				return err
			}
		}
		if s.sep != nil && kept.Len() > 0 {
			if err := s.sep(c, kept, fit(&s.sepBuf, b)); err != nil {
				return err
			}
		}
		if s.order != nil {
			if err := s.order.eval(c, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// assignGroups finds or creates the group of every live row.
func (a *aggregateOp) assignGroups(b *Batch, gidx []int) {
	k := 0
	if a.intKeyed() {
		k = a.assignIntGroups(b, gidx)
	}
	for n := b.Len(); k < n; k++ {
		i := b.Phys(k)
		a.key = a.key[:0]
		for g := range a.groups {
			a.key = appendKey(a.key, a.gkeys[g][i], a.gcolls[g], false, true)
		}
		if a.sorted {
			gidx[i] = a.sortedGroup(i)
			continue
		}
		r, found := a.ht.FindOrInsert(a.key)
		if !found {
			r.SetInt64(0, int64(a.ngroups))
			a.newGroup(i)
		}
		gidx[i] = int(r.Int64(0))
	}
}

// newGroup adds a group whose key values are row i's.
func (a *aggregateOp) newGroup(i int) {
	gr := a.gvals.Append()
	for g := range a.groups {
		setFact(gr, g, a.gkeys[g][i])
	}
	a.ngroups++
	for k := range a.aggs {
		switch s := &a.aggs[k]; {
		case s.fast:
			a.nums[s.slot] = append(a.nums[s.slot], numAcc{})
		case s.twin < 0:
			a.accs = append(a.accs, s.newAccum())
		}
	}
}

// sortedGroup returns the group of row i, whose key is a.key, in sorted
// input: the last group while the key repeats, else a new one.
func (a *aggregateOp) sortedGroup(i int) int {
	if a.ngroups > 0 && bytes.Equal(a.key, a.last) {
		return a.ngroups - 1
	}
	a.last = append(a.last[:0], a.key...)
	a.newGroup(i)
	return a.ngroups - 1
}

func (a *aggregateOp) accumulate(b *Batch, gidx []int) error {
	na := a.ngen
	for k := range a.aggs {
		s := &a.aggs[k]
		if s.twin >= 0 {
			continue
		}
		if s.fast {
			a.addFast(s, b, gidx)
			continue
		}
		if len(a.groups) == 0 && s.kind == aggCountStar && s.filter == nil && s.order == nil {
			a.accs[s.slot].count += int64(b.Len())
			continue
		}
		if len(a.groups) == 0 && s.filter == nil && s.order == nil && !s.distinct && s.kind <= aggAvg {
			a.accs[s.slot].addColumn(s.kind, b, s.args)
			continue
		}
		for j, n := 0, b.Len(); j < n; j++ {
			i := b.Phys(j)
			g := 0
			if len(a.groups) > 0 {
				g = gidx[i]
			}
			if s.filter != nil && !isTrue(s.fltBuf[i]) {
				continue
			}
			acc := &a.accs[g*na+s.slot]
			var v, sep types.Value
			if s.arg != nil {
				v = s.args[i]
			}
			if s.sep != nil {
				sep = s.sepBuf[i]
			}
			if s.distinct {
				if v.IsNull() {
					continue
				}
				if acc.seen == nil {
					acc.seen = map[string]struct{}{}
				}
				a.rowKey = appendKey(a.rowKey[:0], v, s.coll.String(), false, true)
				if _, dup := acc.seen[string(a.rowKey)]; dup {
					continue
				}
				acc.seen[string(a.rowKey)] = struct{}{}
				a.extra += int64(len(a.rowKey)) + distinctEntryBytes
			}
			if s.order != nil {
				a.rowKey = s.order.key(a.rowKey[:0], i)
				ov := orderedVal{key: string(a.rowKey), v: v.Clone(), s: sep.Clone()}
				acc.ordered = append(acc.ordered, ov)
				a.extra += int64(len(ov.key)) + int64(unsafe.Sizeof(ov))
				continue
			}
			before := acc.textBytes()
			if err := acc.add(s.kind, v, sep, s.coll); err != nil {
				return err
			}
			a.extra += acc.textBytes() - before // group_concat's and json_group_*'s text

		}
	}
	return nil
}

// emit returns the next batch of result rows among groups [emitted,
// upto).
func (a *aggregateOp) emit(upto int) (*Batch, error) {
	if a.emitted >= upto {
		return nil, nil
	}
	b := a.out
	b.Reset()
	b.reserve(min(upto-a.emitted, BatchSize))
	ng := len(a.groups)
	for a.emitted < upto && b.N < BatchSize {
		g := a.emitted
		if ng > 0 {
			r := a.gvals.Row(g)
			for c := 0; c < ng; c++ {
				b.Cols[c][b.N] = factValue(r, c)
			}
		}
		for k := range a.aggs {
			v, err := a.result(g, k)
			if err != nil {
				return nil, err
			}
			b.Cols[ng+k][b.N] = v
		}
		b.N++
		a.emitted++
	}
	return b, nil
}

// replayOrdered feeds values collected for an aggregate ORDER BY in order.
func (acc *accum) replayOrdered(s aggSpec) error {
	vals := acc.ordered
	acc.ordered = nil
	sort.SliceStable(vals, func(i, j int) bool { return vals[i].key < vals[j].key })
	for _, o := range vals {
		if err := acc.add(s.kind, o.v, o.s, s.coll); err != nil {
			return err
		}
	}
	return nil
}

func (a *aggregateOp) Close() {
	a.in.Close()
	if a.ht != nil {
		a.ht.Release()
		a.ht = nil
	}
	if a.gvals != nil {
		a.gvals.Release()
		a.gvals = nil
	}
	a.ngroups, a.emitted, a.ready = 0, 0, false
	a.resetState()
	a.inDone = false
	a.extra = 0
	a.extraMem.release()
	a.groupMem.release()
}

// newAccum returns a fresh accumulator for the aggregate.
func (s *aggSpec) newAccum() accum {
	if s.fn != nil {
		n := 1
		if s.sep != nil {
			n = 2
		}
		return accum{fa: s.fn.NewAggregate(), nargs: n}
	}
	return accum{}
}

// unsafeSizeofAccum approximates an accumulator's footprint.
const unsafeSizeofAccum = 128
