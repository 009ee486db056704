package exec

import (
	"encoding/binary"
	"slices"
	"unsafe"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// subResult is the cached outcome of one run of a subquery.
type subResult struct {
	scalar types.Value
	more   []types.Value // a row-valued scalar subquery's columns 1..
	exists bool
	set    map[string]struct{}
	null   bool // the IN set holds a NULL
	// rows holds every row of a multi-column IN set as per-column keys
	// ("" = NULL); nullRows indexes the rows holding a NULL. A row value
	// that misses the set consults them for SQLite's NULL rule.
	rows     [][]string
	nullRows []int
	// vals are an IN subquery's non-NULL values for index or rowid seeks
	// (inValues), set when listed.
	vals   []types.Value
	listed bool
	// memo is a memoised correlated subquery's results of this execution
	// (see subMemo), kept in Ctx.subs under its ID.
	memo *subMemo
}

// subquery is a compiled nested query; correlated ones re-run per outer
// row with that row pushed on Ctx.outer.
type subquery struct {
	sub *plan.Subquery
	op  Operator
	// affs and colls prepare each column's values for IN membership.
	affs  []types.Affinity
	colls []string
	kind  byte // 's' scalar, 'e' exists, 'i' in
	ncols int  // result columns, kept by a scalar subquery's first row
	row   []types.Value
	// res is a correlated subquery's result, emptied and refilled by
	// each run: its caller reads it before the next run.
	res *subResult
	key []byte // absorb's row key, kept across batches and runs
	// reads are the outer columns a memoised subquery reads (memo: a
	// correlated scalar or EXISTS subquery whose result depends on them
	// alone); memoKey is the current outer row's key over them.
	reads   []plan.OuterRead
	memo    bool
	memoKey []byte
	hit     subResult // the memo's result for the current outer row
	// memoOff turns the memo off for the program's later executions once
	// one found outer values seldom repeat (see subMemo.note).
	memoOff bool
}

func (cp *compiler) newSubquery(s *plan.Subquery, kind byte) (*subquery, error) {
	op, err := cp.b.build(s.Plan)
	if err != nil {
		return nil, err
	}
	if kind != 'i' {
		firstRowOf(op) // EXISTS and a scalar subquery read one row
	}
	sq := &subquery{sub: s, op: op, kind: kind, ncols: len(s.Plan.Columns())}
	if s.Correlated && kind != 'i' && !cp.b.writes {
		reads, pure := plan.OuterReads(s)
		sq.reads, sq.memo = reads, pure && len(reads) > 0
	}
	return sq, nil
}

// run executes the subquery once (for the current outer rows).
func (sq *subquery) run(c *Ctx) (*subResult, error) {
	if !sq.sub.Correlated {
		if r, ok := c.subs[sq.sub.ID]; ok {
			return r, nil
		}
	}
	defer sq.op.Close()
	r := sq.fresh()
	if sq.kind == 'i' && r.set == nil {
		r.set = map[string]struct{}{}
	}
	for {
		b, err := sq.op.Next(c)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		if done := sq.absorb(r, b); done {
			break
		}
	}
	if !sq.sub.Correlated {
		if c.subs == nil {
			c.subs = map[int]*subResult{}
		}
		c.subs[sq.sub.ID] = r
	}
	return r, nil
}

// fresh returns an empty result for a run: a new one when the result is
// cached for the statement (uncorrelated), else sq.res emptied.
func (sq *subquery) fresh() *subResult {
	if !sq.sub.Correlated {
		return &subResult{}
	}
	r := sq.res
	if r == nil {
		r = &subResult{}
		sq.res = r
		return r
	}
	clear(r.set)
	*r = subResult{more: r.more[:0], set: r.set, rows: r.rows[:0], nullRows: r.nullRows[:0]}
	return r
}

// absorb takes a batch's rows into r; it reports true when no more rows
// are needed.
func (sq *subquery) absorb(r *subResult, b *Batch) bool {
	n := b.Len()
	if n == 0 {
		return false
	}
	switch sq.kind {
	case 's':
		i := b.Phys(0)
		// A scalar subquery's value leaves its JSON subtype behind, as in
		// SQLite: json_array((SELECT json_array(1))) is ["[1]"].
		r.scalar, r.exists = b.Cols[0][i].Clone().WithoutSubtype(), true
		for col := 1; col < sq.ncols; col++ {
			r.more = append(r.more, b.Cols[col][i].Clone().WithoutSubtype())
		}
		return true
	case 'e':
		r.exists = true
		return true
	}
	key := sq.key
	multi := len(sq.affs) > 1
	for k := 0; k < n; k++ {
		i := b.Phys(k)
		key = key[:0]
		null := false
		var cells []string
		if multi {
			cells = make([]string, len(sq.affs))
		}
		for col := range sq.affs {
			v := sq.affs[col].ApplyCompare(b.Cols[col][i])
			null = null || v.IsNull()
			start := len(key)
			key = appendKey(key, v, sq.colls[col], false, true)
			if multi && !v.IsNull() {
				cells[col] = string(key[start:])
			}
		}
		if multi {
			if null {
				r.nullRows = append(r.nullRows, len(r.rows))
			}
			r.rows = append(r.rows, cells)
		}
		if null {
			r.null = true
			continue
		}
		r.set[string(key)] = struct{}{}
	}
	sq.key = key
	return false
}

// rowMaybeIn reports whether some set row compares NULL (not false) with
// the row value x: every column pair is equal or involves a NULL. With
// anyNull false only the rows holding a NULL can qualify.
func (r *subResult) rowMaybeIn(x []string, anyNull bool) bool {
	maybe := func(row []string) bool {
		for col, c := range row {
			if c != "" && x[col] != "" && c != x[col] {
				return false
			}
		}
		return true
	}
	if !anyNull {
		for _, j := range r.nullRows {
			if maybe(r.rows[j]) {
				return true
			}
		}
		return false
	}
	for _, row := range r.rows {
		if maybe(row) {
			return true
		}
	}
	return false
}

// perRow evaluates fn for every live row, running the subquery with the row
// pushed as the outer row when it is correlated.
func (sq *subquery) perRow(c *Ctx, b *Batch, fn func(i int, r *subResult) error) error {
	if !sq.sub.Correlated {
		r, err := sq.run(c)
		if err != nil {
			return err
		}
		for k, n := 0, b.Len(); k < n; k++ {
			if err := fn(b.Phys(k), r); err != nil {
				return err
			}
		}
		return nil
	}
	if len(sq.row) != len(b.Cols) {
		sq.row = make([]types.Value, len(b.Cols))
	}
	var memo *subMemo
	if sq.memo && !sq.memoOff {
		if memo = sq.memoOf(c); memo.off {
			memo = nil
		}
	}
	for k, n := 0, b.Len(); k < n; k++ {
		i := b.Phys(k)
		for col := range b.Cols {
			sq.row[col] = b.Cols[col][i]
		}
		c.outer = append(c.outer, sq.row)
		var r *subResult
		keyed := memo != nil && sq.outerKey(c)
		if keyed {
			if kept, ok := memo.results[string(sq.memoKey)]; ok {
				sq.hit, r = kept, &sq.hit
				memo.hits++
			}
		}
		var err error
		if r == nil {
			if r, err = sq.run(c); err == nil && keyed {
				memo.keep(c, sq.memoKey, r)
				if memo.off = memo.unpaid(); memo.off {
					sq.memoOff, memo = true, nil
				}
			}
		}
		c.outer = c.outer[:len(c.outer)-1]
		if err != nil {
			return err
		}
		if err := fn(i, r); err != nil {
			return err
		}
		if err := c.Check(); err != nil {
			return err
		}
	}
	return nil
}

// subMemo keeps a correlated scalar or EXISTS subquery's results by the
// values of the outer columns it reads, for one execution: an outer row
// whose values were seen before takes the earlier run's result instead of
// running the subquery again. Only subqueries whose result is a function
// of those values and the database are memoised (plan.OuterReads: no
// random(), no CTE), and only in statements that do not write (a SELECT);
// a write by the same connection while the SELECT's rows are read
// (total_changes() moved) drops the results. Values are told apart
// exactly (1, 1.0 and '1' are three keys), so a subquery that looks at
// the type of an outer value still sees the right one.
type subMemo struct {
	results map[string]subResult
	bytes   int
	changes int64
	// hits counts the rows answered from results; off marks a memo
	// given up (unpaid).
	hits int
	off  bool
}

// unpaid reports, once memoProbe results are kept, that fewer than one
// row in four was answered from them: outer values seldom repeat, and
// keeping the rest would cost an allocation per row for little. The memo
// is dropped, and the program's later executions run without one.
func (m *subMemo) unpaid() bool {
	kept := len(m.results)
	if kept < memoProbe || m.hits*3 >= kept {
		return false
	}
	m.results = nil
	return true
}

// A memo keeps at most memoEntries results and memoBytes of keys and
// values; later outer values run the subquery as before.
const (
	memoEntries = 4096
	memoBytes   = 256 << 10
	memoProbe   = 64
)

// memoOf returns sq's memo of this execution, empty at first and after
// a write.
func (sq *subquery) memoOf(c *Ctx) *subMemo {
	var changes int64
	if c.Sess != nil {
		changes = c.Sess.TotalChanges()
	}
	if r, ok := c.subs[sq.sub.ID]; ok && r.memo != nil && r.memo.changes == changes {
		return r.memo
	}
	m := &subMemo{results: map[string]subResult{}, changes: changes}
	if c.subs == nil {
		c.subs = map[int]*subResult{}
	}
	c.subs[sq.sub.ID] = &subResult{memo: m}
	return m
}

// outerKey sets sq.memoKey to sq's kind and the outer values sq reads,
// each as its kind, its number bits (or text subtype) and its bytes;
// false when an outer row is missing (not memoised then).
func (sq *subquery) outerKey(c *Ctx) bool {
	k := append(sq.memoKey[:0], sq.kind) // one memo, were a plan's subquery both scalar and EXISTS
	for _, rd := range sq.reads {
		if rd.Up > len(c.outer) {
			return false
		}
		row := c.outer[len(c.outer)-rd.Up]
		if rd.Idx >= len(row) {
			return false
		}
		v := row[rd.Idx]
		k = append(k, byte(v.Kind()))
		switch v.Kind() {
		case types.KindInt, types.KindReal:
			k = binary.LittleEndian.AppendUint64(k, uint64(v.Int()))
		case types.KindText, types.KindBlob:
			k = binary.LittleEndian.AppendUint64(k, uint64(v.Int())) // the text's subtype
			k = binary.AppendUvarint(k, uint64(len(v.Str())))
			k = append(k, v.Str()...)
		}
	}
	sq.memoKey = k
	return true
}

// keep records r, a run's result for key, while the memo has room and the
// statement's memory limit allows it. The values are r's own (absorb
// cloned them); the row's further columns are copied, as r is refilled by
// the next run.
func (m *subMemo) keep(c *Ctx, key []byte, r *subResult) {
	size := len(key) + int(unsafe.Sizeof(subResult{})) + len(r.scalar.Str())
	for _, v := range r.more {
		size += int(unsafe.Sizeof(v)) + len(v.Str())
	}
	if len(m.results) >= memoEntries || m.bytes+size > memoBytes || c.fits(int64(m.bytes+size)) != nil {
		return
	}
	m.bytes += size
	m.results[string(key)] = subResult{scalar: r.scalar, more: slices.Clone(r.more), exists: r.exists}
}

func (cp *compiler) scalarSub(e *plan.ScalarSub) (evaluator, error) {
	sq, err := cp.newSubquery(e.Sub, 's')
	if err != nil {
		return nil, err
	}
	col := e.Col
	return func(c *Ctx, b *Batch, out []types.Value) error {
		return sq.perRow(c, b, func(i int, r *subResult) error {
			switch {
			case col == 0:
				out[i] = r.scalar
			case r.exists:
				out[i] = r.more[col-1]
			default:
				out[i] = types.Null
			}
			return nil
		})
	}, nil
}

func (cp *compiler) exists(e *plan.Exists) (evaluator, error) {
	sq, err := cp.newSubquery(e.Sub, 'e')
	if err != nil {
		return nil, err
	}
	not := e.Not
	return func(c *Ctx, b *Batch, out []types.Value) error {
		return sq.perRow(c, b, func(i int, r *subResult) error {
			out[i] = types.NewBool(r.exists != not)
			return nil
		})
	}, nil
}

func (cp *compiler) inSub(e *plan.InSub) (evaluator, error) {
	xs := make([]evaluator, len(e.X))
	bufs := make([][]types.Value, len(e.X))
	for i, x := range e.X {
		ev, err := cp.compile(x)
		if err != nil {
			return nil, err
		}
		xs[i] = ev
	}
	st := cp.stack()
	sq, err := cp.newSubquery(e.Sub, 'i')
	if err != nil {
		return nil, err
	}
	cols := e.Sub.Plan.Columns()
	for i, x := range e.X {
		var subAff types.Affinity
		if i < len(cols) {
			subAff = cols[i].Affinity
		}
		sq.affs = append(sq.affs, types.CompareAffinity(plan.ExprAffinity(x), subAff))
		sq.colls = append(sq.colls, exprCollation(x))
	}
	not := e.Not
	var key []byte
	multi := len(xs) > 1
	cells := make([]string, len(xs))
	return func(c *Ctx, b *Batch, out []types.Value) error {
		m := st.mark()
		defer st.release(m)
		for i, x := range xs {
			bufs[i] = st.values(b)
			if err := x(c, b, bufs[i]); err != nil {
				return err
			}
		}
		return sq.perRow(c, b, func(i int, r *subResult) error {
			if len(r.set) == 0 && !r.null {
				out[i] = types.NewBool(not)
				return nil
			}
			key = key[:0]
			null := false
			for col := range xs {
				v := sq.affs[col].ApplyCompare(bufs[col][i])
				null = null || v.IsNull()
				start := len(key)
				key = appendKey(key, v, sq.colls[col], false, true)
				if multi {
					cells[col] = ""
					if !v.IsNull() {
						cells[col] = string(key[start:])
					}
				}
			}
			switch {
			case multi:
				out[i] = inRowResult(r, key, cells, null, not)
			case null:
				out[i] = types.Null
			default:
				if _, ok := r.set[string(key)]; ok {
					out[i] = types.NewBool(!not)
				} else if r.null {
					out[i] = types.Null
				} else {
					out[i] = types.NewBool(not)
				}
			}
			return nil
		})
	}, nil
}

// inRowResult is the outcome of a row value [NOT] IN a non-empty set: true
// on an exact match, NULL when some row might match, false otherwise.
func inRowResult(r *subResult, key []byte, cells []string, anyNull, not bool) types.Value {
	if !anyNull {
		if _, ok := r.set[string(key)]; ok {
			return types.NewBool(!not)
		}
	}
	if r.rowMaybeIn(cells, anyNull) {
		return types.Null
	}
	return types.NewBool(not)
}
