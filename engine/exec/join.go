package exec

import (
	"slices"
	"unsafe"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/factorized"
)

// joinOp joins its left input with a materialised right side: a hash
// table on the equi-join keys when there are any, all right rows (nested
// loops) otherwise. Candidate pairs are emitted in batches, the residual
// condition filters them, and outer joins add NULL-extended rows.
type joinOp struct {
	mem         held // the build side's rows, accounted
	memDecoded  held // the build side decoded (decodeBuild), accounted
	kind        plan.JoinKind
	left, right Operator
	nl, nr      int
	lkeys       []evaluator
	rkeys       []evaluator
	lbufs       [][]types.Value
	on          evaluator
	onBuf       []types.Value
	out         *Batch

	built   bool
	rows    *factorized.Table     // right rows: &rowsRoom while built, nil after Close
	ht      *factorized.HashTable // key -> right row index, nil for nested loops
	keptHT  keptHash              // ht kept across runs
	rmatch  []bool                // right rows matched (RIGHT, FULL)
	lb      *Batch                // current left batch
	k       int                   // next live left row of lb
	cands   []int32               // right candidates of the current left row
	cpos    int
	lmatch  []bool // per live left row of lb: matched
	pairL   []int32
	pairR   []int32
	tail    bool // emitting unmatched right rows
	tailPos int
	key     []byte
	lsel    []int32

	// semi and anti joins emit left batches under a selection of their
	// own: semiOut shares the left batch's columns.
	semiOut Batch
	semiSel []int32
	// probe, for JoinIndex, re-runs the right side per left row.
	probe *joinProbe
	// or, for a condition that is an OR of equalities, finds candidates
	// through one hash table per disjunct.
	or *orProbe
	// needed marks the output columns read above or by the ON (nil: all);
	// the others are left unfilled.
	needed []bool
	// rvals holds a small build side decoded, nr values per row.
	rvals []types.Value
	// ik, when set, finds build rows by an integer key (intKeyIndex).
	ik *intKeyIndex
	// ikRoom, rowsRoom, rbufs and rvals keep their room between
	// executions (an index join inside a recursive CTE is built once per
	// queued row).
	ikRoom   intKeyIndex
	rowsRoom factorized.Table
	rbufs    [][]types.Value
	// first is the left side's first batch, read before the right side is
	// built (see start); done marks an output known to be empty.
	first *Batch
	done  bool
	// rightFirst makes start read the right side's first batch before the
	// left's (the right side is the cheaper to start, see rightFirst);
	// rfirst holds it for build.
	rightFirst bool
	rfirst     *Batch
}

func (b *builder) join(n *plan.Join) (Operator, error) {
	l, err := b.build(n.Left)
	if err != nil {
		return nil, err
	}
	r, err := b.build(n.Right)
	if err != nil {
		return nil, err
	}
	nl, nr := len(n.Left.Columns()), len(n.Right.Columns())
	op := &joinOp{kind: n.Kind, left: l, right: r, nl: nl, nr: nr, out: emptyBatch(nl + nr), rightFirst: rightFirst(n),
		needed: n.Needed}
	if n.Method == plan.JoinIndex {
		if n.Kind != plan.JoinInner && n.Kind != plan.JoinLeft && !n.Kind.SemiLike() {
			return nil, notSupportedErr("index join of kind " + n.Kind.String())
		}
		op.probe = &joinProbe{keyRow: make([]types.Value, len(n.LeftKeys))}
	}
	if op.lkeys, op.rkeys, err = b.compileKeys(n.LeftKeys, n.RightKeys); err != nil {
		return nil, err
	}
	op.lbufs = make([][]types.Value, len(op.lkeys))
	if n.On != nil {
		if op.on, err = b.cp.compile(n.On); err != nil {
			return nil, err
		}
		op.onBuf = scratch()
		if len(n.LeftKeys) == 0 && n.Method == plan.JoinHash {
			if sets := plan.OrJoinKeys(n.On, nl); sets != nil {
				if op.or, err = b.compileOrProbe(sets); err != nil {
					return nil, err
				}
			}
		}
	}
	return op, nil
}

// rightFirst reports whether join n reads its right side's first batch
// before its left's (see start): when the right side is the cheaper to
// start (startCost), or as cheap, a hash join's right side estimated no
// larger. So an empty scan on the right ends the join before the left
// side builds its hash tables. A join without keys whose sides start as
// cheaply reads its left side first: a left-deep chain of cross joins
// over scans then reads its first scan's batch before it materialises
// the next, which costs the five-table comma join of filtered
// scans (BenchmarkCold_Query_CommaJoinInFilters) half the memory that
// reading each right scan first does when its first table is empty.
func rightFirst(n *plan.Join) bool {
	l, r := startCost(n.Left), startCost(n.Right)
	return r < l || (r == l && len(n.LeftKeys) > 0 && plan.EstimateRows(n.Right) <= plan.EstimateRows(n.Left))
}

// startCost counts the operators in n's tree that read a whole input
// before they return a row, except joins without keys over a scan: hash
// joins (they build a table), joins whose right side is not a scan,
// sorts, aggregates and windows. A scan, filtered or not, and a chain of
// cross or nested-loop joins over scans count 0.
func startCost(n plan.Node) int {
	k := 0
	plan.Walk(n, func(n plan.Node) bool {
		switch x := n.(type) {
		case *plan.Join:
			if len(x.LeftKeys) > 0 || !scanLike(x.Right) {
				k++
			}
		case *plan.Sort, *plan.Aggregate, *plan.Window:
			k++
		}
		return true
	})
	return k
}

// scanLike reports whether n is a scan under filters and projections.
func scanLike(n plan.Node) bool {
	switch x := n.(type) {
	case *plan.Scan:
		return true
	case *plan.Filter:
		return scanLike(x.Input)
	case *plan.Project:
		return scanLike(x.Input)
	}
	return false
}

// compileKeys compiles a join's key pairs.
func (b *builder) compileKeys(left, right []plan.Expr) (lk, rk []evaluator, err error) {
	if len(left) > 0 {
		both := make([]evaluator, 0, 2*len(left)) // one allocation for both sides
		lk, rk = both[:0:len(left)], both[len(left):len(left)]
	}
	for i := range left {
		l, err := b.cp.compile(left[i])
		if err != nil {
			return nil, nil, err
		}
		r, err := b.cp.compile(right[i])
		if err != nil {
			return nil, nil, err
		}
		lk, rk = append(lk, l), append(rk, r)
	}
	return lk, rk, nil
}

// build materialises the right side (an index join only makes its row
// table, filled per left batch).
func (j *joinOp) build(c *Ctx) error {
	j.rowsRoom.Init(c.Pool, valueSchema(j.nr))
	j.rows = &j.rowsRoom
	if j.probe != nil {
		return nil
	}
	if len(j.rkeys) > 0 {
		ht, err := j.keptHT.take(c.Pool, int64Schema)
		if err != nil {
			return err
		}
		j.ht = ht
	}
	if j.or != nil {
		if err := j.or.start(c); err != nil {
			return err
		}
	}
	if j.rbufs == nil {
		j.rbufs = make([][]types.Value, len(j.rkeys))
		for i := range j.rbufs {
			j.rbufs[i] = scratch()
		}
	}
	rbufs := j.rbufs
	var ik *intKeyIndex
	if len(j.rkeys) == 1 {
		ik = &j.ikRoom
		ik.reset()
	}
	for {
		b, err := j.rfirst, error(nil)
		if b != nil {
			j.rfirst = nil
		} else {
			b, err = j.right.Next(c)
		}
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		for i, ev := range j.rkeys {
			if err := ev(c, b, fit(&rbufs[i], b)); err != nil {
				return err
			}
		}
		if j.or != nil {
			if err := j.or.add(c, b, j.rows.Len()); err != nil {
				return err
			}
		}
		for k, n := 0, b.Len(); k < n; k++ {
			i := b.Phys(k)
			idx := j.rows.Len()
			appendBatchRow(j.rows, b, i, j.nr)
			if ik != nil {
				ik.add(rbufs[0][i])
			}
			if j.ht != nil {
				key, null := j.keyOf(rbufs, i)
				if !null {
					j.ht.Insert(key).SetInt64(0, int64(idx))
				}
			}
		}
		if s := j.rows.SizeBytes(); s != j.mem.n {
			if err := j.mem.set(c, s); err != nil {
				return err
			}
		}
		if err := c.CheckNow(); err != nil {
			return err
		}
	}
	if j.kind == plan.JoinRight || j.kind == plan.JoinFull {
		j.rmatch = make([]bool, j.rows.Len())
	}
	if ik != nil && ik.finish() {
		j.ik = ik
	}
	return j.decodeBuild(c)
}

// keyOf encodes the join key of row i; null reports a NULL key value,
// which matches nothing.
func (j *joinOp) keyOf(bufs [][]types.Value, i int) ([]byte, bool) {
	var null bool
	j.key, null = appendJoinKey(j.key[:0], bufs, i)
	return j.key, null
}

func (j *joinOp) Next(c *Ctx) (*Batch, error) {
	if !j.built {
		if err := j.start(c); err != nil {
			return nil, err
		}
	}
	if j.done {
		return nil, nil
	}
	for {
		if j.tail {
			return j.rightTail(), nil
		}
		if j.lb == nil {
			if err := j.nextLeft(c); err != nil {
				return nil, err
			}
			if j.lb == nil {
				if j.rmatch == nil {
					return nil, nil
				}
				j.tail = true
				continue
			}
		}
		b, err := j.fillPairs(c)
		if err != nil || b != nil {
			return b, err
		}
	}
}

// start builds the right side. A join whose output is empty without left
// rows (all but RIGHT and FULL) first reads the left side's first batch and
// builds nothing when there is none; an inner, cross or semi join whose
// right side is empty then ends without reading the left further. A join
// whose right side is the cheaper to start (rightFirst: a scan before a
// tree of joins that builds joins, else a hash join's side estimated
// smaller) reads the right side's first batch before the left's, and ends
// at once when there is none: an empty input thus stops a tree of joins
// before the other side is built, whichever side it is on, as SQLite's
// nested loops stop at an empty table, instead of building every other
// input.
func (j *joinOp) start(c *Ctx) error {
	j.built = true
	outer := j.kind == plan.JoinRight || j.kind == plan.JoinFull
	emptyRightEnds := j.kind == plan.JoinInner || j.kind == plan.JoinCross || j.kind == plan.JoinSemi
	if !outer && j.probe == nil && j.rightFirst && emptyRightEnds {
		b, err := j.right.Next(c)
		if err != nil {
			return err
		}
		if b == nil {
			j.done = true
			return nil
		}
		j.rfirst = b
	}
	if !outer && j.probe == nil {
		b, err := j.left.Next(c)
		if err != nil {
			return err
		}
		if b == nil {
			j.done, j.rfirst = true, nil
			return nil
		}
		j.first = b
	}
	if err := j.build(c); err != nil {
		return err
	}
	if j.rows.Len() == 0 && j.probe == nil && emptyRightEnds {
		j.done, j.first = true, nil
	}
	return nil
}

func (j *joinOp) nextLeft(c *Ctx) error {
	b, err := j.first, error(nil)
	if b != nil {
		j.first = nil
	} else {
		b, err = j.left.Next(c)
	}
	if err != nil || b == nil {
		j.lb = nil
		return err
	}
	for i, ev := range j.lkeys {
		if err := ev(c, b, fit(&j.lbufs[i], b)); err != nil {
			return err
		}
	}
	j.lb, j.k, j.cands, j.cpos = b, 0, j.cands[:0], 0
	j.lmatch = append(j.lmatch[:0], make([]bool, b.Len())...)
	if j.probe != nil {
		if err := j.probe.run(c, j, b); err != nil {
			return err
		}
	}
	if j.or != nil {
		if err := j.or.loadLeft(c, b); err != nil {
			return err
		}
	}
	j.candidates(0)
	return nil
}

// candidates loads the right candidates of live left row k.
func (j *joinOp) candidates(k int) {
	j.cands, j.cpos = j.cands[:0], 0
	if k >= j.lb.Len() {
		return
	}
	if j.probe != nil {
		for r := j.probe.starts[k]; r < j.probe.starts[k+1]; r++ {
			j.cands = append(j.cands, r)
		}
		return
	}
	if j.or != nil {
		j.cands = j.or.candidates(j.cands, j.lb.Phys(k), j.rows.Len())
		return
	}
	if j.ht == nil {
		for r := 0; r < j.rows.Len(); r++ {
			j.cands = append(j.cands, int32(r))
		}
		return
	}
	if j.ik != nil {
		if v := j.lbufs[0][j.lb.Phys(k)]; v.Kind() == types.KindInt {
			j.cands = j.ik.appendRows(j.cands, v.Int())
			return
		}
	}
	key, null := j.keyOf(j.lbufs, j.lb.Phys(k))
	if null {
		return
	}
	m := j.ht.Probe(key)
	for r, ok := m.Next(); ok; r, ok = m.Next() {
		j.cands = append(j.cands, int32(r.Int64(0)))
	}
	// The chain lists later inserts first after the head; restore order.
	if len(j.cands) > 2 {
		rest := j.cands[1:]
		for a, z := 0, len(rest)-1; a < z; a, z = a+1, z-1 {
			rest[a], rest[z] = rest[z], rest[a]
		}
	}
}

// fillPairs emits the next batch of joined pairs of the current left
// batch (and its unmatched rows for outer joins); nil when the left batch
// is finished without output.
func (j *joinOp) fillPairs(c *Ctx) (*Batch, error) {
	if j.kind.SemiLike() {
		return j.semiBatch(c)
	}
	return j.pairBatch(c)
}

// pairBatch emits the next batch of joined pairs of the current left
// batch, then its unmatched rows for LEFT and FULL joins.
func (j *joinOp) pairBatch(c *Ctx) (*Batch, error) {
	out, err := j.nextPairs(c)
	if err != nil || out != nil {
		return out, err
	}
	if j.k < j.lb.Len() {
		return nil, c.Check() // a batch of pairs the residual emptied
	}
	// Left batch finished: NULL-extend its unmatched rows. A left batch
	// none of whose rows found a pair counts as a batch for Check, so a
	// join whose input streams batches that match nothing still stops at
	// its context's end.
	lb := j.lb
	j.lb = nil
	if j.kind == plan.JoinLeft || j.kind == plan.JoinFull {
		return j.leftUnmatched(lb), nil
	}
	return nil, c.Check()
}

// semiBatch runs every pair of the current left batch through the
// residual, then emits the left rows that matched (semi) or did not
// (anti). Without a residual a left row matches when it has a candidate,
// so no pair is built.
func (j *joinOp) semiBatch(c *Ctx) (*Batch, error) {
	if j.on == nil {
		for k := range j.lmatch {
			j.candidates(k)
			j.lmatch[k] = len(j.cands) > 0
		}
	} else {
		for j.k < j.lb.Len() {
			if _, err := j.nextPairs(c); err != nil {
				return nil, err
			}
			if err := c.Check(); err != nil {
				return nil, err
			}
		}
	}
	lb := j.lb
	j.lb = nil
	want := j.kind == plan.JoinSemi
	j.semiSel = j.semiSel[:0]
	for k, m := range j.lmatch {
		if m == want {
			j.semiSel = append(j.semiSel, int32(lb.Phys(k)))
		}
	}
	if len(j.semiSel) == 0 {
		return nil, c.Check()
	}
	j.semiOut = Batch{Cols: lb.Cols, N: lb.N, Sel: j.semiSel}
	return &j.semiOut, nil
}

// nextPairs builds up to a batch of (left row, right candidate) pairs of
// the current left batch and applies the residual; nil when no pair is
// left or none survived. A semi join skips the candidates of left rows
// already matched.
func (j *joinOp) nextPairs(c *Ctx) (*Batch, error) {
	out := j.out
	out.Reset()
	if cap(j.pairL) == 0 {
		// Room for the pairs the left batch likely makes, in one
		// allocation, rather than growing both lists from nothing.
		n := roomFor(min(BatchSize, j.lb.Len()*max(len(j.cands), 1)))
		pairs := make([]int32, 2*n)
		j.pairL, j.pairR = pairs[:0:n], pairs[n:n:2*n]
	}
	j.pairL, j.pairR = j.pairL[:0], j.pairR[:0]
	for out.N < BatchSize && j.k < j.lb.Len() {
		if j.cpos >= len(j.cands) || (j.kind == plan.JoinSemi && j.lmatch[j.k]) {
			j.k++
			j.candidates(j.k)
			continue
		}
		j.pairL = append(j.pairL, int32(j.k))
		j.pairR = append(j.pairR, j.cands[j.cpos])
		j.cpos++
		out.N++
	}
	if out.N == 0 {
		return nil, nil
	}
	out.reserve(out.N)
	j.materialise(out)
	if err := j.residual(c, out); err != nil {
		return nil, err
	}
	if out.Len() > 0 {
		return out, nil
	}
	return nil, nil
}

// materialise copies the pairs' columns into out, column by column.
func (j *joinOp) materialise(out *Batch) {
	n := out.N
	for col := 0; col < j.nl; col++ {
		if j.skip(col) {
			continue
		}
		src, dst := j.lb.Cols[col], out.Cols[col][:n]
		if j.lb.Sel == nil {
			for p := range dst {
				dst[p] = src[j.pairL[p]]
			}
			continue
		}
		for p := range dst {
			dst[p] = src[j.lb.Sel[j.pairL[p]]]
		}
	}
	if j.rvals != nil {
		for col := 0; col < j.nr; col++ {
			if j.skip(j.nl + col) {
				continue
			}
			dst := out.Cols[j.nl+col][:n]
			for p := range dst {
				dst[p] = j.rvals[int(j.pairR[p])*j.nr+col]
			}
		}
		return
	}
	for p := 0; p < n; p++ {
		r := j.rows.Row(int(j.pairR[p]))
		for col := 0; col < j.nr; col++ {
			if !j.skip(j.nl + col) {
				out.Cols[j.nl+col][p] = factValue(r, col)
			}
		}
	}
}

// skip reports whether output column col is read by nothing.
func (j *joinOp) skip(col int) bool {
	return j.needed != nil && (col >= len(j.needed) || !j.needed[col])
}

// maxDecodedBuild bounds the values a hash join keeps decoded beside its
// build rows (rvals).
const maxDecodedBuild = 1 << 18

// decodeBuild decodes a small build side once, so each probe match copies
// values instead of decoding the row again; text and blob values point
// into the row table, which lives as long as they are used.
func (j *joinOp) decodeBuild(c *Ctx) error {
	n := j.rows.Len()
	if j.nr == 0 || n*j.nr > maxDecodedBuild {
		return nil
	}
	if err := j.memDecoded.set(c, j.memDecoded.n+int64(n*j.nr*int(unsafe.Sizeof(types.Value{})))); err != nil {
		return err
	}
	if cap(j.rvals) >= n*j.nr {
		j.rvals = j.rvals[:n*j.nr]
	} else {
		j.rvals = make([]types.Value, n*j.nr)
	}
	for i := 0; i < n; i++ {
		r := j.rows.Row(i)
		for col := 0; col < j.nr; col++ {
			j.rvals[i*j.nr+col] = factValue(r, col)
		}
	}
	return nil
}

// residual applies the ON condition and records matches.
func (j *joinOp) residual(c *Ctx, out *Batch) error {
	if j.on != nil {
		if err := j.on(c, out, fit(&j.onBuf, out)); err != nil {
			return err
		}
		j.lsel = slices.Grow(j.lsel[:0], out.N) // at once, not doubling
		for p := 0; p < out.N; p++ {
			if isTrue(j.onBuf[p]) {
				j.lsel = append(j.lsel, int32(p))
			}
		}
		out.Sel = j.lsel
		if out.Sel == nil {
			out.Sel = []int32{} // no pair survived; nil would mean all
		}
	}
	for k, n := 0, out.Len(); k < n; k++ {
		p := out.Phys(k)
		j.lmatch[j.pairL[p]] = true
		if j.rmatch != nil {
			j.rmatch[j.pairR[p]] = true
		}
	}
	return nil
}

func (j *joinOp) leftUnmatched(lb *Batch) *Batch {
	out := j.out
	out.Reset()
	out.reserve(len(j.lmatch))
	for k, m := range j.lmatch {
		if m {
			continue
		}
		li := lb.Phys(k)
		for col := 0; col < j.nl; col++ {
			out.Cols[col][out.N] = lb.Cols[col][li]
		}
		for col := 0; col < j.nr; col++ {
			out.Cols[j.nl+col][out.N] = types.Null
		}
		out.N++
	}
	if out.N == 0 {
		return nil
	}
	return out
}

// rightTail emits unmatched right rows with a NULL left side.
func (j *joinOp) rightTail() *Batch {
	out := j.out
	out.Reset()
	out.reserve(min(BatchSize, len(j.rmatch)-j.tailPos))
	for j.tailPos < len(j.rmatch) && out.N < BatchSize {
		r := j.tailPos
		j.tailPos++
		if j.rmatch[r] {
			continue
		}
		for col := 0; col < j.nl; col++ {
			out.Cols[col][out.N] = types.Null
		}
		row := j.rows.Row(r)
		for col := 0; col < j.nr; col++ {
			out.Cols[j.nl+col][out.N] = factValue(row, col)
		}
		out.N++
	}
	if out.N == 0 {
		return nil
	}
	return out
}

func (j *joinOp) Close() {
	j.left.Close()
	j.right.Close()
	j.mem.release()
	j.memDecoded.release()
	if j.rows != nil {
		j.rows.Release()
		j.rows = nil
	}
	if j.ht != nil {
		j.ht.Release()
		j.ht = nil
	}
	if j.probe != nil {
		j.probe.close()
	}
	if j.or != nil {
		j.or.release()
	}
	j.built, j.lb, j.tail, j.tailPos, j.rmatch, j.ik = false, nil, false, 0, nil, nil
	j.first, j.done, j.rfirst = nil, false, nil
	// The decoded build rows alias the released row table: drop them,
	// keeping a moderate slice's room.
	clear(j.rvals)
	j.rvals = j.rvals[:0]
	if cap(j.rvals) > keepDecodedBuild {
		j.rvals = nil
	}
}
