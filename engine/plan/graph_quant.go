package plan

import (
	"fmt"
	"math"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// Quantified parts of a pattern, -[e]->{n,m} and ((a)-[e]->(b)){n,m},
// become GraphExpand nodes: a breadth-first expansion from the start
// vertices over the part's one-step relation (the edge tables for a
// quantified edge, followed in the edge's direction; the lowered inner
// pattern for a parenthesised path). A branch reads a part as a FROM item
// of columns s1…, d1…, n (start key, end key, length) under a generated
// name the binder resolves to the expansion (Binder.graphSegs), joined to
// its end vertices like an edge.

// gSeg is one quantified part between the vertex variables left and right.
type gSeg struct {
	left, right string
	inner       *gMatch // the part's pattern, read as a match of its own
	first, last string  // the part's end vertex variables
	where       grammar.Expr
	q           *grammar.Quantifier
	search      grammar.PathSearch
	pos         grammar.Position
	v           *catalog.GraphElement // the vertex table both ends lie in
	rel, alias  string                // the FROM item branches join, and its alias
	// Filled by plan: the start vertices (key columns, the left vertex's
	// own conditions applied) and the one-step relation (s1…, d1…).
	input, edges *grammar.SelectStmt
	dir          GraphDir
	// listVertices and listEdges ask the expansion for the path's vertex
	// and edge lists (columns pv and pe) for vertices(p) and edges(p).
	listVertices, listEdges bool
	// target is the end vertex's key when the end vertex's own conditions
	// fix it to a constant or placeholder (b.id = ?), nil otherwise.
	target grammar.Expr
}

// gShared is what a match and the matches of its quantified parts share:
// the counter of generated names and the parts by FROM item name.
type gShared struct {
	n    int
	segs map[string]*gSeg
}

func (m *gMatch) addSeg(left string, elems []grammar.PathElem, where grammar.Expr, q *grammar.Quantifier, right string, search grammar.PathSearch, at grammar.Position) error {
	if q.Max < 0 && search == grammar.SearchAll {
		return errAt(q.Position, "unbounded quantifier %s: write an upper bound {n,m} or put ANY, ANY SHORTEST or ALL SHORTEST before the path", q)
	}
	inner := newMatch(m.g, m.shared)
	first, last, err := inner.addPath(&grammar.PathPattern{Position: at, Elems: elems})
	if err != nil {
		return err
	}
	for k, v := range inner.vars {
		if m.vars[k] != nil {
			return errAt(v.pos, "not supported: variable %s both inside and outside a quantified pattern", v.name)
		}
		m.groups[k] = true
	}
	for k := range inner.groups {
		m.groups[k] = true
	}
	m.segs = append(m.segs, &gSeg{left: left, right: right, inner: inner, first: first, last: last,
		where: where, q: q, search: search, pos: at})
	return nil
}

// keyCols names the columns of a vertex key: prefix1, prefix2, ….
func keyCols(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i+1)
	}
	return out
}

// planSegs fixes each quantified part's vertex table and builds the
// queries of its expansion.
func (m *gMatch) planSegs() error {
	for _, s := range m.segs {
		if err := m.planSeg(s); err != nil {
			return err
		}
	}
	return nil
}

func (m *gMatch) planSeg(s *gSeg) error {
	if err := s.inner.candidates(); err != nil {
		return err
	}
	first, last := s.inner.vars[s.first], s.inner.vars[s.last]
	edge := s.singleEdge()
	var vs []*catalog.GraphElement
	for _, c := range m.vars[s.left].cands {
		if hasElem(m.vars[s.right].cands, c) && hasElem(first.cands, c) && hasElem(last.cands, c) &&
			(edge == nil || len(loopEdges(s.inner.vars[edge.edge].cands, c)) > 0 || s.q.Max == 0) {
			vs = append(vs, c)
		}
	}
	switch {
	case len(vs) == 0:
		return nil // no match can bind the part: no branch has it
	case len(vs) > 1:
		return errAt(s.pos, "not supported: a quantified pattern whose ends may lie in several vertex tables (%s, %s); give its end vertices a label of one table", vs[0].Name, vs[1].Name)
	}
	s.v = vs[0]
	first.cands, last.cands = vs, vs
	s.rel, s.alias = m.newName("expand"), m.newName("q")
	m.shared.segs[s.rel] = s
	var err error
	if s.input, err = m.segInput(s); err != nil {
		return err
	}
	s.target = m.segTarget(s)
	if edge != nil {
		s.edges, err = s.edgeRelation(edge)
		return err
	}
	s.dir = GraphOut
	var cols []gOut
	for i, c := range s.v.Key {
		cols = append(cols, gOut{name: fmt.Sprintf("s%d", i+1), expr: gCol(first.name, c, s.pos), raw: true})
	}
	for i, c := range s.v.Key {
		cols = append(cols, gOut{name: fmt.Sprintf("d%d", i+1), expr: gCol(last.name, c, s.pos), raw: true})
	}
	s.edges, err = s.inner.lower(cols, s.where, s.pos)
	return err
}

// singleEdge returns the part's edge when the part is one edge between
// anonymous vertices (-[e]->{n,m}), or nil.
func (s *gSeg) singleEdge() *gEdge {
	in := s.inner
	if len(in.edges) != 1 || len(in.segs) != 0 || s.where != nil || len(in.modes) != 0 {
		return nil
	}
	for _, w := range in.wheres {
		if w.v != in.edges[0].edge {
			return nil
		}
	}
	if len(in.vars[s.first].labels) > 0 || len(in.vars[s.last].labels) > 0 {
		return nil
	}
	return &in.edges[0]
}

// loopEdges are the edge tables among cands from v to v.
func loopEdges(cands []*catalog.GraphElement, v *catalog.GraphElement) []*catalog.GraphElement {
	var out []*catalog.GraphElement
	for _, e := range cands {
		if e.Source.Vertex == v.Name && e.Dest.Vertex == v.Name {
			out = append(out, e)
		}
	}
	return out
}

func hasElem(list []*catalog.GraphElement, e *catalog.GraphElement) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}

// segInput is the start vertices of a part: the key of the left vertex's
// table, under the conditions written on that vertex that read it alone.
func (m *gMatch) segInput(s *gSeg) (*grammar.SelectStmt, error) {
	lv := m.vars[s.left]
	br := gBranch{a: map[string]*catalog.GraphElement{s.left: s.v}}
	var conds []grammar.Expr
	for _, w := range m.wheres {
		if w.v != s.left || !varOnly(w.cond, s.left) {
			continue
		}
		c, err := m.rewrite(w.cond, br)
		if err != nil {
			return nil, err
		}
		conds = append(conds, c)
	}
	cols := selectColsAs(lv.name, s.v.Key, keyCols("s", len(s.v.Key)), s.pos)
	return &grammar.SelectStmt{Position: s.pos, Body: gCore(cols, []grammar.TableExpr{gTable(s.v.Table, lv.name, s.pos)}, conds, s.pos)}, nil
}

// segTarget finds a condition "right.key = value" written on the part's
// end vertex, value free of columns, for a one-column key.
func (m *gMatch) segTarget(s *gSeg) grammar.Expr {
	if len(s.v.Key) != 1 {
		return nil
	}
	for _, w := range m.wheres {
		if w.v != s.right {
			continue
		}
		for _, c := range conjuncts(w.cond) {
			if x := m.keyValue(c, s); x != nil {
				return x
			}
		}
	}
	return nil
}

// conjuncts splits e at its top-level ANDs.
func conjuncts(e grammar.Expr) []grammar.Expr {
	if b, ok := e.(*grammar.BinaryExpr); ok && b.Op == grammar.OpAnd {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	return []grammar.Expr{e}
}

// keyValue returns value when c is "right.key = value" or "value =
// right.key".
func (m *gMatch) keyValue(c grammar.Expr, s *gSeg) grammar.Expr {
	b, ok := c.(*grammar.BinaryExpr)
	if !ok || b.Op != grammar.OpEq {
		return nil
	}
	for _, pair := range [2][2]grammar.Expr{{b.L, b.R}, {b.R, b.L}} {
		ref, ok := pair[0].(*grammar.ColumnRef)
		if !ok || catalog.Lower(ref.Table) != s.right || !columnFree(pair[1]) {
			continue
		}
		if p, has := s.v.Property(ref.Column); has && eqFold(p.Column, s.v.Key[0]) {
			return pair[1]
		}
	}
	return nil
}

// columnFree reports whether e reads no column and calls no function (a
// literal, a placeholder, arithmetic on them).
func columnFree(e grammar.Expr) bool {
	free := true
	grammar.Walk(e, func(n grammar.Node) bool {
		switch n.(type) {
		case *grammar.ColumnRef, *grammar.SelectStmt, *grammar.FuncCall:
			free = false
		}
		return free
	})
	return free
}

// varOnly reports whether every column reference of e (subqueries
// included) is qualified by the variable v.
func varOnly(e grammar.Expr, v string) bool {
	ok := true
	grammar.Walk(e, func(n grammar.Node) bool {
		if c, is := n.(*grammar.ColumnRef); is && catalog.Lower(c.Table) != v {
			ok = false
		}
		return ok
	})
	return ok
}

// edgeRelation is the one-step relation of a quantified edge: source and
// destination keys of every edge of the candidate tables from the part's
// vertex table to itself, under the edge's WHERE, followed in the edge's
// direction.
func (s *gSeg) edgeRelation(e *gEdge) (*grammar.SelectStmt, error) {
	s.dir = map[grammar.EdgeDir]GraphDir{grammar.EdgeRight: GraphOut, grammar.EdgeLeft: GraphIn,
		grammar.EdgeAny: GraphAny, grammar.EdgeLeftRight: GraphAny}[e.dir]
	in := s.inner
	ev := in.vars[e.edge]
	k := len(s.v.Key)
	var bodies []grammar.SelectBody
	for _, el := range loopEdges(ev.cands, s.v) {
		br := gBranch{a: map[string]*catalog.GraphElement{e.edge: el}}
		var conds []grammar.Expr
		for _, w := range in.wheres {
			c, err := in.rewrite(w.cond, br)
			if err != nil {
				return nil, err
			}
			conds = append(conds, c)
		}
		cols := append(selectColsAs(ev.name, el.Source.Columns, keyCols("s", k), e.pos), selectColsAs(ev.name, el.Dest.Columns, keyCols("d", k), e.pos)...)
		if s.listEdges {
			if len(el.Key) != len(ev.cands[0].Key) {
				return nil, errAt(e.pos, "not supported: edges() over edge tables whose keys differ in width")
			}
			cols = append(cols, selectColsAs(ev.name, el.Key, keyCols("i", len(el.Key)), e.pos)...)
		}
		bodies = append(bodies, gCore(cols, []grammar.TableExpr{gTable(el.Table, ev.name, e.pos)}, conds, e.pos))
	}
	if len(bodies) == 0 {
		// Only zero-length paths ({0,0}): no edge is ever followed.
		cols := append(selectColsAs("v", s.v.Key, keyCols("s", k), e.pos), selectColsAs("v", s.v.Key, keyCols("d", k), e.pos)...)
		bodies = append(bodies, gCore(cols, []grammar.TableExpr{gTable(s.v.Table, "v", e.pos)}, []grammar.Expr{gInt(0, e.pos)}, e.pos))
	}
	return &grammar.SelectStmt{Position: e.pos, Body: gUnion(bodies, true)}, nil
}

// selectColsAs is alias.src[i] AS names[i].
func selectColsAs(alias string, src, names []string, at grammar.Position) []*grammar.ResultColumn {
	out := make([]*grammar.ResultColumn, len(src))
	for i := range src {
		out[i] = gResult(gCol(alias, src[i], at), names[i])
	}
	return out
}

// segConds joins a part's expansion to its end vertices in a branch.
func (m *gMatch) segConds(s *gSeg) []grammar.Expr {
	k := len(s.v.Key)
	l, r := m.vars[s.left].name, m.vars[s.right].name
	return append(gKeysEq(s.alias, keyCols("s", k), l, s.v.Key, s.pos), gKeysEq(s.alias, keyCols("d", k), r, s.v.Key, s.pos)...)
}

// bindGraphSeg binds a part's FROM item: the GraphExpand of its start
// vertices over its one-step relation, with columns s1…, d1…, n.
func (b *Binder) bindGraphSeg(s *gSeg, alias string) (Node, *scope, error) {
	in, err := b.bindSelect(s.input)
	if err != nil {
		return nil, nil, err
	}
	edges, err := b.bindSelect(s.edges)
	if err != nil {
		return nil, nil, err
	}
	k := len(s.v.Key)
	ge := &GraphExpand{Input: in.Root, Edges: edges.Root, Dir: s.dir, Min: s.q.Min, Max: s.q.Max,
		Mode: map[grammar.PathSearch]GraphMode{grammar.SearchAll: GraphWalk, grammar.SearchAny: GraphAnyShortest,
			grammar.SearchAnyShortest: GraphAnyShortest, grammar.SearchAllShortest: GraphAllShortest}[s.search]}
	if ge.Max < 0 {
		ge.Max = math.MaxInt32 // a shortest search ends when no new vertex is reached
	}
	incols := in.Root.Columns()
	for i := 0; i < k; i++ {
		ge.Start = append(ge.Start, &ColRef{Idx: i, Affinity: incols[i].Affinity, Collate: incols[i].Collate})
		ge.Src, ge.Dst = append(ge.Src, i), append(ge.Dst, k+i)
	}
	if s.listEdges {
		for i := 2 * k; i < len(edges.Cols); i++ {
			ge.EdgeID = append(ge.EdgeID, i)
		}
	}
	if p, ok := ge.Edges.(*Project); ok && columnsOnly(p.Exprs) {
		// Read the edge table's own columns, so that the optimizer can
		// look edges up by an index on their keys (graph-lookups).
		for i := 0; i < k; i++ {
			ge.Src[i], ge.Dst[i] = p.Exprs[i].(*ColRef).Idx, p.Exprs[k+i].(*ColRef).Idx
		}
		for i, c := range ge.EdgeID {
			ge.EdgeID[i] = p.Exprs[c].(*ColRef).Idx
		}
		ge.Edges = p.Input
	}
	ge.PathVertices, ge.PathEdges = s.listVertices, s.listEdges
	if s.target != nil && incols[0].Collate == "" {
		// The key compares as the column does: its affinity applies to
		// the value (b.id = '5' finds 5).
		t, err := b.bindExpr(s.target, &scope{})
		if err != nil {
			return nil, nil, err
		}
		ge.Target = []Expr{&Affinity{X: t, Aff: incols[0].Affinity}}
	}
	ge.Cols = GraphExpandColumns(in.Root, ge.Start, ge.PathVertices, ge.PathEdges)
	if err := ge.Validate(); err != nil {
		return nil, nil, errAt(s.pos, "%s", err)
	}
	names := append(append(keyCols("s", k), keyCols("d", k)...), "n")
	if ge.PathVertices {
		names = append(names, "pv")
	}
	if ge.PathEdges {
		names = append(names, "pe")
	}
	cols := make([]Column, len(names))
	for i, n := range names {
		c := ge.Cols[i]
		cols[i] = Column{Name: n, Table: alias, DeclType: c.DeclType, Affinity: c.Affinity, Collate: c.Collate, NotNull: c.NotNull}
	}
	return &Project{Input: ge, Exprs: identity(len(cols)), Cols: cols, Plain: true}, &scope{cols: cols}, nil
}

// columnsOnly reports whether every expression is a plain column.
func columnsOnly(exprs []Expr) bool {
	for _, e := range exprs {
		if _, ok := e.(*ColRef); !ok {
			return false
		}
	}
	return true
}
