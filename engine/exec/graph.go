package exec

import (
	"math"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/factorized"
)

// graphOp runs a plan.GraphExpand: for each input row, a breadth-first
// expansion from its start vertex, level by level up to Max edges.
//
// Vertices are numbered densely as they are met: a one-column key equal to
// an integer through ints (an open-addressing table), any other key
// through verts, a factorized hash table keyed by the key's bytes (SQL
// equality, BINARY); vkeys holds each vertex's key values by number.
// Edges are read either all at once (the whole edge relation, sorted into
// adjacency lists per direction) or, when the plan has lookups, per vertex
// the first time the expansion reaches it (straight from the index cells
// when the index starts with both ends, graph_lookup.go), so a few hops
// from one vertex read only the edges of the vertices they touch.
//
// A level is a list of entries (vertex, parent entry, edge, count, depth).
// Without path lists a level holds each state once with the number of
// walks reaching it (the factorized form: 3 hops over a vertex of degree d
// keep d² entries of the second level, not the d³ walks); with path lists
// every walk is an entry of its own, and its lists follow the parent
// entries. The shortest modes key states by (vertex, min(depth, Min)) and
// remember each state's first depth in a generation-stamped array, so a
// new start row reuses it without clearing (lazy zeroing). Everything the
// expansion holds is charged to memory_limit, and the loops poll the
// context.
type graphOp struct {
	n       *plan.GraphExpand
	in      Operator
	edges   Operator             // the whole edge relation (nil with lookups)
	lookups [2]Operator          // per direction: edges keyed by the expanded vertex
	direct  [2]*graphIndexLookup // per direction: the lookup read from its index
	nin     int
	start   []evaluator
	target  []evaluator
	sbufs   [][]types.Value
	tbufs   [][]types.Value
	out     *Batch

	loaded bool
	verts  *factorized.HashTable // vertex key bytes -> vertex number
	vkeys  *factorized.Table     // the key values of each vertex, by number
	ints   graphInts             // one-column integer key -> vertex number
	adj    [2]graphAdj           // out (src -> dst) and in (dst -> src) lists
	eids   *factorized.Table     // edge identity values by edge number
	nedges int32
	keyRow []types.Value // the expanded vertex's key, the lookups' outer row

	// the current input batch and row; eof once the input ended
	inB *Batch
	k   int
	eof bool
	// the expansion of one start row
	entries []graphEntry
	results []graphResult
	rpos    int
	rleft   int64
	stamp   []uint32 // per state: gen when slot/first are valid
	slot    []int32  // per state: its entry in the current level
	gen     uint32
	keys    []byte
	vals    []types.Value // a key's values
	stepBuf []graphStep   // one lookup's edges
	target0 int32         // the target's vertex number, -1 without a target
	path    []int32
	json    []byte
	mem     held
	keepSrc []int32
	keepDst []int32
	charged int       // cap(entries) when last charged
	fw, bw  graphSide // the two ends of a bidirectional search (meet)
}

// graphAdj is the adjacency of one direction: vertex v's neighbours are
// list[lo[v]:hi[v]]; lo[v] < 0 until loaded (lookup mode).
type graphAdj struct {
	lo, hi []int32
	list   []graphStep
}

// graphStep is one edge leaving a vertex: the vertex it reaches and its
// edge number.
type graphStep struct{ to, edge int32 }

// graphEntry is a state of the expansion reached at depth by count walks
// (one walk when paths are listed); parent is the entry it was reached
// from (-1 for the start) over edge.
type graphEntry struct {
	vertex, parent, edge, depth int32
	count                       int64
}

// graphResult is an entry to output count times.
type graphResult struct {
	entry int32
	count int64
}

func (b *builder) graphExpand(n *plan.GraphExpand) (Operator, error) {
	if err := n.Validate(); err != nil {
		return nil, notSupportedErr(err.Error())
	}
	in, err := b.build(n.Input)
	if err != nil {
		return nil, err
	}
	op := &graphOp{n: n, in: in, nin: len(n.Input.Columns()), out: emptyBatch(len(n.Cols)), target0: -1}
	useLookups := (n.Dir == plan.GraphIn || n.OutLookup != nil) && (n.Dir == plan.GraphOut || n.InLookup != nil)
	if useLookups {
		for d, l := range []plan.Node{n.OutLookup, n.InLookup} {
			if l != nil {
				if op.lookups[d], err = b.build(l); err != nil {
					return nil, err
				}
				from, to := n.Src, n.Dst
				if d == 1 {
					from, to = to, from
				}
				op.direct[d] = newGraphIndexLookup(n, l, from, to)
				if op.direct[d] != nil && b.profile != nil {
					op.direct[d].st = b.profile[l]
				}
			}
		}
	} else if op.edges, err = b.build(n.Edges); err != nil {
		return nil, err
	}
	for _, e := range n.Start {
		ev, err := b.cp.compile(e)
		if err != nil {
			return nil, err
		}
		op.start, op.sbufs = append(op.start, ev), append(op.sbufs, scratch())
	}
	for _, e := range n.Target {
		ev, err := b.cp.compile(e)
		if err != nil {
			return nil, err
		}
		op.target, op.tbufs = append(op.target, ev), append(op.tbufs, scratch())
	}
	op.keyRow = make([]types.Value, len(n.Start))
	return op, nil
}

// paths reports whether every walk is an entry of its own.
func (g *graphOp) paths() bool {
	return g.n.Mode != plan.GraphAnyShortest && (g.n.PathVertices || g.n.PathEdges)
}

func (g *graphOp) Next(c *Ctx) (*Batch, error) {
	if !g.loaded {
		if err := g.load(c); err != nil {
			return nil, err
		}
	}
	out := g.out
	out.N, out.Sel = 0, nil
	for out.N < BatchSize {
		if g.rpos < len(g.results) {
			if err := g.emit(c); err != nil {
				return nil, err
			}
			continue
		}
		if g.inB == nil || g.k >= g.inB.Len() {
			if out.N > 0 || g.eof {
				break // the rows out holds may read the input batch
			}
			b, err := g.in.Next(c)
			if err != nil {
				return nil, err
			}
			if b == nil {
				g.eof = true
				break
			}
			if err := g.evalKeys(c, b); err != nil {
				return nil, err
			}
			g.inB, g.k = b, 0
			continue
		}
		i := g.inB.Phys(g.k)
		g.k++
		if err := g.expand(c, i); err != nil {
			return nil, err
		}
	}
	if out.N == 0 {
		return nil, nil
	}
	return out, nil
}

// evalKeys evaluates the start and target keys of input batch b.
func (g *graphOp) evalKeys(c *Ctx, b *Batch) error {
	for i, ev := range g.start {
		if err := ev(c, b, fit(&g.sbufs[i], b)); err != nil {
			return err
		}
	}
	for i, ev := range g.target {
		if err := ev(c, b, fit(&g.tbufs[i], b)); err != nil {
			return err
		}
	}
	return nil
}

// load makes the vertex table and, without lookups, reads every edge.
func (g *graphOp) load(c *Ctx) error {
	g.loaded = true
	verts, err := factorized.NewHashTable(c.Pool, int64Schema)
	if err != nil {
		return err
	}
	g.verts = verts
	g.vkeys = factorized.NewTable(c.Pool, valueSchema(len(g.n.Start)))
	g.ints.reset()
	if g.n.PathEdges {
		g.eids = factorized.NewTable(c.Pool, valueSchema(len(g.n.EdgeID)))
	}
	if g.edges == nil {
		return nil
	}
	// Read all edges, then sort them into adjacency lists per direction.
	g.keepSrc, g.keepDst = g.keepSrc[:0], g.keepDst[:0]
	for {
		b, err := g.edges.Next(c)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		for k, n := 0, b.Len(); k < n; k++ {
			s, d, ok := g.edgeEnds(b, b.Phys(k))
			if ok {
				g.keepSrc, g.keepDst = append(g.keepSrc, s), append(g.keepDst, d)
			}
		}
		if err := g.charge(c); err != nil {
			return err
		}
		if err := c.Check(); err != nil {
			return err
		}
	}
	nv := g.vkeys.Len()
	meets := g.n.Mode != plan.GraphWalk && g.n.Target != nil // searched from both ends
	if g.n.Dir != plan.GraphIn || meets {
		g.adj[0].fill(nv, g.keepSrc, g.keepDst)
	}
	if g.n.Dir != plan.GraphOut || meets {
		g.adj[1].fill(nv, g.keepDst, g.keepSrc)
	}
	g.keepSrc, g.keepDst = nil, nil
	return g.charge(c)
}

// fill sorts edges from[i] -> to[i] (edge number i) into per-vertex lists.
func (a *graphAdj) fill(nv int, from, to []int32) {
	a.lo, a.hi = make([]int32, nv), make([]int32, nv)
	for _, f := range from {
		a.hi[f]++
	}
	var sum int32
	for v := range a.hi {
		a.lo[v] = sum
		sum += a.hi[v]
		a.hi[v] = a.lo[v]
	}
	a.list = make([]graphStep, len(from))
	for i, f := range from {
		a.list[a.hi[f]] = graphStep{to: to[i], edge: int32(i)}
		a.hi[f]++
	}
}

// edgeEnds numbers the ends of physical edge row i of b, recording its
// identity; ok is false for an edge with a NULL key.
func (g *graphOp) edgeEnds(b *Batch, i int) (src, dst int32, ok bool) {
	src, ok = g.vertexOf(b, i, g.n.Src)
	if !ok {
		return 0, 0, false
	}
	dst, ok = g.vertexOf(b, i, g.n.Dst)
	if !ok {
		return 0, 0, false
	}
	if g.eids != nil {
		r := g.eids.Append()
		for x, col := range g.n.EdgeID {
			setFact(r, x, b.Cols[col][i])
		}
	}
	g.nedges++
	return src, dst, true
}

// vertexOf numbers the vertex whose key is columns cols of physical row i
// of b, adding it when new; false for a NULL key.
func (g *graphOp) vertexOf(b *Batch, i int, cols []int) (int32, bool) {
	g.vals = g.vals[:0]
	for _, col := range cols {
		g.vals = append(g.vals, b.Cols[col][i])
	}
	return g.number(g.vals)
}

// number numbers the vertex of key vals, adding it when new; false for a
// NULL key.
func (g *graphOp) number(vals []types.Value) (int32, bool) {
	if len(vals) == 1 {
		if k, ok := intKey(vals[0]); ok {
			if v, ok := g.ints.get(k); ok {
				return v, true
			}
			v := g.newVertex(vals)
			g.ints.put(k, v)
			return v, true
		}
	}
	g.keys = g.keys[:0]
	for _, v := range vals {
		if v.IsNull() {
			return 0, false
		}
		g.keys = appendKey(g.keys, v, "", false, true)
	}
	if row, ok := g.verts.Find(g.keys); ok {
		return int32(g.verts.Table().Int64(row, 0)), true
	}
	r := g.verts.Insert(g.keys)
	v := g.newVertex(vals)
	r.SetInt64(0, int64(v))
	return v, true
}

// intKey is the integer a one-column key equals: an INTEGER, or a REAL
// with an integer value (3.0 = 3, as SQL compares them); such keys are
// numbered through ints instead of the byte-keyed hash table.
func intKey(v types.Value) (int64, bool) {
	switch v.Kind() {
	case types.KindInt:
		return v.Int(), true
	case types.KindReal:
		f := v.Real()
		if f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
			return int64(f), true
		}
	}
	return 0, false
}

// newVertex records a new vertex of key vals and returns its number.
func (g *graphOp) newVertex(vals []types.Value) int32 {
	r := g.vkeys.Append()
	for x, v := range vals {
		setFact(r, x, v)
	}
	g.addVertex()
	return int32(g.vkeys.Len() - 1)
}

// addVertex extends the per-vertex arrays for a new vertex: its lists are
// not loaded yet in lookup mode, and empty once the whole edge relation was
// sorted into lists (a start vertex no edge touches).
func (g *graphOp) addVertex() {
	for d := range g.adj {
		a := &g.adj[d]
		switch {
		case g.lookups[d] != nil:
			a.lo, a.hi = append(a.lo, -1), append(a.hi, -1)
		case a.lo != nil: // lists filled from the whole edge relation
			a.lo, a.hi = append(a.lo, 0), append(a.hi, 0)
		}
	}
}

// neighbours returns vertex v's steps in direction d, looking its edges
// up first in lookup mode.
func (g *graphOp) neighbours(c *Ctx, d int, v int32) ([]graphStep, error) {
	a := &g.adj[d]
	if int(v) >= len(a.lo) {
		return nil, nil
	}
	if a.lo[v] < 0 {
		if err := g.lookup(c, d, v); err != nil {
			return nil, err
		}
	}
	return a.list[a.lo[v]:a.hi[v]], nil
}

// lookup runs direction d's lookup for vertex v and appends its edges.
func (g *graphOp) lookup(c *Ctx, d int, v int32) error {
	r := g.vkeys.Row(int(v))
	for x := range g.keyRow {
		g.keyRow[x] = factValue(r, x)
	}
	ok, err := g.lookDirect(c, d)
	if err != nil {
		return err
	}
	if !ok {
		op := g.lookups[d]
		c.outer = append(c.outer, g.keyRow)
		err := g.collect(c, op, d, v)
		c.outer = c.outer[:len(c.outer)-1]
		op.Close()
		if err != nil {
			return err
		}
	}
	// edgeEnds may have added vertices, growing lo and hi.
	a := &g.adj[d]
	a.lo[v] = int32(len(a.list))
	a.list = append(a.list, g.stepBuf...)
	a.hi[v] = int32(len(a.list))
	return g.charge(c)
}

// lookDirect reads the edges of the vertex of key keyRow in direction d
// into stepBuf straight from the index, when the lookup allows it; false
// means the lookup operator must read them.
func (g *graphOp) lookDirect(c *Ctx, d int) (bool, error) {
	l := g.direct[d]
	if l == nil {
		return false, nil
	}
	if ok, err := l.look(c, g.keyRow[0]); !ok || err != nil {
		return false, err
	}
	g.stepBuf = g.stepBuf[:0]
	for _, e := range l.ends {
		g.vals = append(g.vals[:0], e)
		t, ok := g.number(g.vals)
		if !ok {
			continue // a NULL end
		}
		g.nedges++
		g.stepBuf = append(g.stepBuf, graphStep{to: t, edge: g.nedges - 1})
	}
	return true, nil
}

// collect reads the edges lookup op finds for vertex v into stepBuf.
func (g *graphOp) collect(c *Ctx, op Operator, d int, v int32) error {
	g.stepBuf = g.stepBuf[:0]
	for {
		b, err := op.Next(c)
		if err != nil || b == nil {
			return err
		}
		for k, n := 0, b.Len(); k < n; k++ {
			s, t, ok := g.edgeEnds(b, b.Phys(k))
			if !ok {
				continue
			}
			if d == 1 {
				s, t = t, s
			}
			if s != v {
				continue // the lookup covered only part of the key
			}
			g.stepBuf = append(g.stepBuf, graphStep{to: t, edge: g.nedges - 1})
		}
	}
}

// charge accounts what the expansion holds to the memory limit.
func (g *graphOp) charge(c *Ctx) error {
	size := int64(cap(g.entries))*int64(sizeofEntry) + int64(cap(g.results))*16 +
		int64(cap(g.stamp))*4 + int64(cap(g.slot))*4 + int64(cap(g.keepSrc)+cap(g.keepDst))*4
	for d := range g.adj {
		a := &g.adj[d]
		size += int64(cap(a.lo)+cap(a.hi))*4 + int64(cap(a.list))*8
	}
	if g.verts != nil {
		size += g.verts.SizeBytes() + g.vkeys.SizeBytes() + g.ints.bytes()
	}
	if g.eids != nil {
		size += g.eids.SizeBytes()
	}
	size += g.fw.bytes() + g.bw.bytes()
	return g.mem.set(c, size)
}

const sizeofEntry = 24

// startVertex numbers input row i's start vertex, adding it when new;
// false for a NULL key.
func (g *graphOp) startVertex(i int) (int32, bool) {
	g.vals = g.vals[:0]
	for x := range g.sbufs {
		g.vals = append(g.vals, g.sbufs[x][i])
	}
	return g.number(g.vals)
}

// targetVertex numbers input row i's target vertex, adding it when new;
// false for a NULL key.
func (g *graphOp) targetVertex(i int) (int32, bool) {
	g.vals = g.vals[:0]
	for x := range g.tbufs {
		g.vals = append(g.vals, g.tbufs[x][i])
	}
	return g.number(g.vals)
}

// setTarget numbers input row i's target vertex (-1 without a target);
// false for a NULL one.
func (g *graphOp) setTarget(i int) bool {
	g.target0 = -1
	if g.target == nil {
		return true
	}
	t, ok := g.targetVertex(i)
	g.target0 = t
	return ok
}

// isTarget reports whether vertex v may end a path.
func (g *graphOp) isTarget(v int32) bool { return g.target0 < 0 || v == g.target0 }

// expand runs the expansion of physical input row i, leaving the paths to
// output in results.
func (g *graphOp) expand(c *Ctx, i int) error {
	g.entries, g.results, g.rpos, g.rleft = g.entries[:0], g.results[:0], 0, 0
	if !g.setTarget(i) {
		return nil
	}
	v, ok := g.startVertex(i)
	if !ok {
		return nil
	}
	n := g.n
	shortest := n.Mode != plan.GraphWalk
	paths := g.paths()
	g.nextGen()
	if g.canMeet() {
		if g.target0 != v {
			return g.meet(c, v, g.target0)
		}
	}
	g.entries = append(g.entries, graphEntry{vertex: v, parent: -1, edge: -1, count: 1})
	if shortest {
		g.visit(g.state(v, 0), 0)
	}
	lo, hi := 0, 1 // the current level's entries
	for depth := 0; ; depth++ {
		done := false
		if depth >= n.Min {
			for e := lo; e < hi; e++ {
				ent := &g.entries[e]
				if !g.isTarget(ent.vertex) {
					continue
				}
				if shortest && g.entries[g.slot[g.state(ent.vertex, depth)]].depth != int32(depth) {
					continue // reached at this depth by a shorter path already output
				}
				g.results = append(g.results, graphResult{entry: int32(e), count: ent.count})
				done = done || g.target != nil
			}
		}
		if depth == n.Max || lo == hi || (done && shortest) {
			break
		}
		if !shortest && !paths {
			g.nextGen() // walks aggregate per vertex within a level
		}
		for e := lo; e < hi; e++ {
			if err := g.step(c, e, depth+1, shortest, paths); err != nil {
				return err
			}
		}
		lo, hi = hi, len(g.entries)
		if err := g.charge(c); err != nil {
			return err
		}
	}
	return g.charge(c)
}

// step adds the entries entry e reaches over one more edge, at depth.
func (g *graphOp) step(c *Ctx, e, depth int, shortest, paths bool) error {
	if err := c.Check(); err != nil {
		return err
	}
	if cap(g.entries) != g.charged {
		g.charged = cap(g.entries)
		if err := g.charge(c); err != nil {
			return err
		}
	}
	from := g.entries[e].vertex
	for d := range 2 {
		if (d == 0 && g.n.Dir == plan.GraphIn) || (d == 1 && g.n.Dir == plan.GraphOut) {
			continue
		}
		steps, err := g.neighbours(c, d, from)
		if err != nil {
			return err
		}
		for _, s := range steps {
			if d == 1 && g.n.Dir == plan.GraphAny && s.to == from {
				continue // a self-loop is one step, taken in direction out
			}
			g.reach(e, s, depth, shortest, paths)
		}
	}
	return nil
}

// reach records that entry e reaches s.to over s.edge at depth.
func (g *graphOp) reach(e int, s graphStep, depth int, shortest, paths bool) {
	count := g.entries[e].count
	ent := graphEntry{vertex: s.to, parent: int32(e), edge: s.edge, depth: int32(depth), count: count}
	switch {
	case shortest:
		st := g.state(s.to, depth)
		g.growStates(st)
		if g.stamp[st] == g.gen {
			first := &g.entries[g.slot[st]]
			if first.depth != int32(depth) || g.n.Mode == plan.GraphAnyShortest {
				return // reached earlier, or one path is enough
			}
			if !paths {
				first.count = satAdd(first.count, count)
				return
			}
			// every shortest walk is an entry of its own
		} else {
			g.visit(st, int32(len(g.entries)))
		}
	case !paths:
		st := int(s.to)
		g.growStates(st)
		if g.stamp[st] == g.gen {
			first := &g.entries[g.slot[st]]
			first.count = satAdd(first.count, count)
			return
		}
		g.stamp[st], g.slot[st] = g.gen, int32(len(g.entries))
	}
	g.entries = append(g.entries, ent)
}

// state is the number of state (v, min(depth, Min)) in the shortest modes.
func (g *graphOp) state(v int32, depth int) int {
	m := g.n.Min
	return int(v)*(m+1) + min(depth, m)
}

// visit marks state st first reached by entry e.
func (g *graphOp) visit(st int, e int32) {
	g.growStates(st)
	g.stamp[st], g.slot[st] = g.gen, e
}

// growStates makes room for state st in the stamped arrays.
func (g *graphOp) growStates(st int) {
	for st >= len(g.stamp) {
		g.stamp = append(g.stamp, 0)
		g.slot = append(g.slot, 0)
	}
}

// nextGen starts a new generation of the stamped arrays: every state reads
// as unvisited without clearing them.
func (g *graphOp) nextGen() {
	g.gen++
	if g.gen == 0 { // wrapped: clear once
		clear(g.stamp)
		clear(g.fw.stamp)
		clear(g.bw.stamp)
		g.gen = 1
	}
}

func satAdd(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxInt64
}

// emit writes rows of the pending results into g.out.
func (g *graphOp) emit(c *Ctx) error {
	out := g.out
	for g.rpos < len(g.results) && out.N < BatchSize {
		r := g.results[g.rpos]
		if g.rleft == 0 {
			g.rleft = r.count
		}
		if err := g.row(c, r.entry); err != nil {
			return err
		}
		g.rleft--
		if g.rleft == 0 {
			g.rpos++
		}
	}
	return c.CheckNow() // once a batch: a walk count can be astronomical
}

// row appends one output row for entry e of the current input row.
func (g *graphOp) row(c *Ctx, e int32) error {
	out := g.out
	out.ensureRow()
	i := g.inB.Phys(g.k - 1)
	for col := 0; col < g.nin; col++ {
		out.Cols[col][out.N] = g.inB.Cols[col][i]
	}
	ent := g.entries[e]
	vr := g.vkeys.Row(int(ent.vertex))
	col := g.nin
	for x := range g.n.Start {
		out.Cols[col][out.N] = factValue(vr, x)
		col++
	}
	out.Cols[col][out.N] = types.NewInt(int64(ent.depth))
	col++
	if g.n.PathVertices || g.n.PathEdges {
		g.path = g.path[:0]
		for p := e; p >= 0; p = g.entries[p].parent {
			g.path = append(g.path, p)
		}
	}
	if g.n.PathVertices {
		g.json = append(g.json[:0], '[')
		for x := len(g.path) - 1; x >= 0; x-- {
			if x != len(g.path)-1 {
				g.json = append(g.json, ',')
			}
			g.json = g.appendTuple(g.json, g.vkeys.Row(int(g.entries[g.path[x]].vertex)), len(g.n.Start))
		}
		out.Cols[col][out.N] = types.NewText(string(append(g.json, ']')))
		col++
	}
	if g.n.PathEdges {
		g.json = append(g.json[:0], '[')
		for x := len(g.path) - 2; x >= 0; x-- {
			if x != len(g.path)-2 {
				g.json = append(g.json, ',')
			}
			g.json = g.appendTuple(g.json, g.eids.Row(int(g.entries[g.path[x]].edge)), len(g.n.EdgeID))
		}
		out.Cols[col][out.N] = types.NewText(string(append(g.json, ']')))
	}
	out.N++
	return nil
}

// appendTuple appends the n values of r as JSON: the value alone when n is
// 1, an array otherwise.
func (g *graphOp) appendTuple(dst []byte, r factorized.Row, n int) []byte {
	if n != 1 {
		dst = append(dst, '[')
	}
	for x := range n {
		if x > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONValue(dst, factValue(r, x))
	}
	if n != 1 {
		dst = append(dst, ']')
	}
	return dst
}

func (g *graphOp) Close() {
	g.mem.release()
	g.in.Close()
	if g.edges != nil {
		g.edges.Close()
	}
	for _, l := range g.lookups {
		if l != nil {
			l.Close()
		}
	}
	for _, l := range g.direct {
		if l != nil {
			l.close()
		}
	}
	if g.verts != nil {
		g.verts.Release()
		g.vkeys.Release()
		g.verts, g.vkeys = nil, nil
	}
	if g.eids != nil {
		g.eids.Release()
		g.eids = nil
	}
	g.loaded = false
	for d := range g.adj { // keep the room for the next execution
		a := &g.adj[d]
		a.lo, a.hi, a.list = a.lo[:0], a.hi[:0], a.list[:0]
		if g.edges != nil {
			a.lo, a.hi = nil, nil // fill makes them; nil marks lists not filled
		}
	}
	g.nedges = 0
	g.inB, g.k, g.eof = nil, 0, false
	g.entries, g.results, g.rpos, g.rleft = g.entries[:0], g.results[:0], 0, 0
}
