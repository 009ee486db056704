package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// GRAPH_TABLE lowers to an ordinary query, which the binder then binds
// like any subquery in FROM, so the optimizer's rules (filter pushdown,
// join order, hash and index joins) apply to graph patterns unchanged:
//
//   - every element variable is its element table under the variable's
//     name, every edge a join of the edge table's SOURCE and DESTINATION
//     columns with the vertices' key columns, and the element WHERE
//     clauses, the MATCH WHERE and the path modes conditions of one WHERE;
//   - a variable whose label expression admits several element tables,
//     and an any-direction edge, make several branches, one per choice,
//     combined with UNION ALL (the reversed branch of an any-direction
//     edge leaves out self-loops, which the forward one already matched);
//   - a property reference v.p becomes the column or expression that
//     defines p on the table v is bound to in the branch, NULL when that
//     table has no such property;
//   - quantified parts join graph expansions (graph_quant.go).

// maxGraphBranches bounds the UNION ALL branches of one pattern.
const maxGraphBranches = 256

// gOut is one output column of a lowered match; raw expressions are
// built by the lowering and not read as property references.
type gOut struct {
	name string
	expr grammar.Expr
	raw  bool
}

// bindGraphTable binds GRAPH_TABLE (…) [AS alias] in FROM.
func (b *Binder) bindGraphTable(gt *grammar.GraphTable) (Node, *scope, error) {
	b.touched = true
	if b.graphSegs == nil {
		b.graphSegs = &gShared{segs: map[string]*gSeg{}}
	}
	sel, err := lowerGraphTable(b.cat.Main(), gt, b.graphSegs)
	if err != nil {
		return nil, nil, err
	}
	q, err := b.bindSelect(sel)
	if err != nil {
		return nil, nil, err
	}
	return derived(q, gt.Alias)
}

// lowerGraphTable returns the query a GRAPH_TABLE stands for; its
// quantified parts are FROM items named in shared.segs.
func lowerGraphTable(cat *catalog.Catalog, gt *grammar.GraphTable, shared *gShared) (*grammar.SelectStmt, error) {
	if err := graphSchema(gt.Schema); err != nil {
		return nil, err
	}
	g := cat.Graph(gt.Graph)
	if g == nil {
		return nil, errAt(gt.Position, "no such property graph: %s", gt.Graph)
	}
	m := newMatch(g, shared)
	for _, p := range gt.Paths {
		if err := m.readPath(p); err != nil {
			return nil, err
		}
	}
	if err := m.candidates(); err != nil {
		return nil, err
	}
	cols, err := m.outputs(gt.Columns)
	if err != nil {
		return nil, err
	}
	exprs := []grammar.Expr{gt.Where}
	for _, w := range m.wheres {
		exprs = append(exprs, w.cond)
	}
	for _, c := range cols {
		exprs = append(exprs, c.expr)
	}
	for _, e := range exprs {
		if err := m.checkRefs(e); err != nil {
			return nil, err
		}
	}
	if err := m.pathLists(exprs); err != nil {
		return nil, err
	}
	return m.lower(cols, gt.Where, gt.Position)
}

// outputs reads COLUMNS: v.* stands for every property v's tables have.
func (m *gMatch) outputs(list []*grammar.ResultColumn) ([]gOut, error) {
	var out []gOut
	for _, rc := range list {
		switch {
		case rc.Star:
			return nil, errAt(rc.Position, "COLUMNS (*) is not allowed: list the columns, or v.* for an element variable v")
		case rc.TableStar != "":
			v := m.vars[catalog.Lower(rc.TableStar)]
			if v == nil {
				return nil, errAt(rc.Position, "no such element variable: %s", rc.TableStar)
			}
			for _, p := range propertyNames(v.cands) {
				out = append(out, gOut{name: p, expr: gCol(v.name, p, rc.Position)})
			}
		default:
			name := rc.Alias
			if name == "" {
				if c, ok := rc.Expr.(*grammar.ColumnRef); ok {
					name = c.Column
				} else if name = rc.Text; name == "" {
					name = rc.Expr.String()
				}
			}
			out = append(out, gOut{name: name, expr: rc.Expr})
		}
	}
	return out, nil
}

// checkRefs fails on a column reference (outside subqueries) that is not
// variable.property: GRAPH_TABLE sees only its element variables.
func (m *gMatch) checkRefs(e grammar.Expr) error {
	var bad error
	grammar.Walk(e, func(n grammar.Node) bool {
		if p, _ := m.pathCall(n); p != nil {
			return false
		}
		switch x := n.(type) {
		case *grammar.SelectStmt:
			return false
		case *grammar.ColumnRef:
			k := catalog.Lower(x.Table)
			switch {
			case bad != nil:
			case x.Table == "" && m.vars[catalog.Lower(x.Column)] != nil:
				bad = errAt(x.Position, "element variable %s is not a value: use one of its properties (%s.name)", x.Column, x.Column)
			case x.Table == "" && m.paths[catalog.Lower(x.Column)] != nil:
				bad = errAt(x.Position, "not supported: path variable %s outside path_length(%s), vertices(%s) and edges(%s)", x.Column, x.Column, x.Column, x.Column)
			case x.Table == "":
				bad = errAt(x.Position, "column %s in GRAPH_TABLE must be a property of an element variable (v.%s)", x.Column, x.Column)
			case m.vars[k] == nil && m.paths[k] == nil && !m.groups[k]:
				bad = errAt(x.Position, "no such element variable: %s", x.Table)
			}
		}
		return bad == nil
	})
	return bad
}

// propertyNames lists the property names of the tables, first seen first.
func propertyNames(els []*catalog.GraphElement) []string {
	var out []string
	seen := map[string]bool{}
	for _, el := range els {
		for _, l := range el.Labels {
			for _, p := range l.Props {
				if !seen[catalog.Lower(p.Name)] {
					seen[catalog.Lower(p.Name)] = true
					out = append(out, p.Name)
				}
			}
		}
	}
	return out
}

// lower builds the query of the match: one SELECT per branch, combined
// with UNION ALL.
func (m *gMatch) lower(cols []gOut, where grammar.Expr, at grammar.Position) (*grammar.SelectStmt, error) {
	if err := m.planSegs(); err != nil {
		return nil, err
	}
	branches, err := m.branches()
	if err != nil {
		return nil, err
	}
	var bodies []grammar.SelectBody
	for _, br := range branches {
		core, err := m.branchCore(br, cols, where, at)
		if err != nil {
			return nil, err
		}
		bodies = append(bodies, core)
	}
	if len(bodies) == 0 {
		// No table combination can match: no rows, the same columns.
		var rcs []*grammar.ResultColumn
		for _, c := range cols {
			rcs = append(rcs, gResult(gNull(at), c.name))
		}
		bodies = append(bodies, gCore(rcs, nil, []grammar.Expr{gInt(0, at)}, at))
	}
	return &grammar.SelectStmt{Position: at, Body: gUnion(bodies, true)}, nil
}

// gBranch is one choice of element table per variable and of direction
// per fixed edge.
type gBranch struct {
	a    map[string]*catalog.GraphElement
	back []bool // the edge is matched from its destination to its source
	loop []bool // leave out self-loops (the reversed twin of a forward branch)
}

// branches enumerates the consistent choices. A partial choice is dropped
// as soon as an edge or quantified part whose ends it has chosen cannot
// connect them, and the search gives up after maxGraphSteps choices.
func (m *gMatch) branches() ([]gBranch, error) {
	var out []gBranch
	a := map[string]*catalog.GraphElement{}
	steps := 0
	var vars func(i int) error
	vars = func(i int) error {
		if i == len(m.order) {
			return m.orient(a, 0, nil, nil, &out)
		}
		for _, c := range m.vars[m.order[i]].cands {
			if steps++; steps > maxGraphSteps {
				return m.tooMany()
			}
			a[m.order[i]] = c
			if !m.fits(a) {
				continue
			}
			if err := vars(i + 1); err != nil {
				return err
			}
		}
		delete(a, m.order[i])
		return nil
	}
	return out, vars(0)
}

// maxGraphSteps bounds the partial choices branches tries.
const maxGraphSteps = 1 << 16

func (m *gMatch) tooMany() error {
	return errAt(m.vars[m.order[0]].pos, "not supported: a pattern with more than %d combinations of element tables and edge directions; use labels to narrow it", maxGraphBranches)
}

// fits reports whether every edge and quantified part whose variables a
// has chosen can connect its ends.
func (m *gMatch) fits(a map[string]*catalog.GraphElement) bool {
	for _, s := range m.segs {
		l, r := a[s.left], a[s.right]
		if s.v == nil || l != nil && l != s.v || r != nil && r != s.v {
			return false
		}
	}
	for _, e := range m.edges {
		el, l, r := a[e.edge], a[e.left], a[e.right]
		if el == nil || l == nil || r == nil {
			continue
		}
		fwd := el.Source.Vertex == l.Name && el.Dest.Vertex == r.Name
		bwd := el.Source.Vertex == r.Name && el.Dest.Vertex == l.Name
		if !(fwd && e.dir != grammar.EdgeLeft || bwd && e.dir != grammar.EdgeRight) {
			return false
		}
	}
	return true
}

// orient chooses the direction of fixed edge i onwards.
func (m *gMatch) orient(a map[string]*catalog.GraphElement, i int, back, loop []bool, out *[]gBranch) error {
	if i == len(m.edges) {
		if len(*out) == maxGraphBranches {
			return m.tooMany()
		}
		cp := map[string]*catalog.GraphElement{}
		for k, v := range a {
			cp[k] = v
		}
		*out = append(*out, gBranch{a: cp, back: append([]bool{}, back...), loop: append([]bool{}, loop...)})
		return nil
	}
	e := m.edges[i]
	el, l, r := a[e.edge], a[e.left], a[e.right]
	fwd := el.Source.Vertex == l.Name && el.Dest.Vertex == r.Name
	bwd := el.Source.Vertex == r.Name && el.Dest.Vertex == l.Name
	if fwd && e.dir != grammar.EdgeLeft {
		if err := m.orient(a, i+1, append(back, false), append(loop, false), out); err != nil {
			return err
		}
	}
	if bwd && e.dir != grammar.EdgeRight {
		twin := fwd && e.dir != grammar.EdgeLeft
		return m.orient(a, i+1, append(back, true), append(loop, twin), out)
	}
	return nil
}

// branchCore is the SELECT of one branch.
func (m *gMatch) branchCore(br gBranch, cols []gOut, where grammar.Expr, at grammar.Position) (*grammar.SelectCore, error) {
	var from []grammar.TableExpr
	for _, k := range m.order {
		v := m.vars[k]
		from = append(from, gTable(br.a[k].Table, v.name, v.pos))
	}
	var conds []grammar.Expr
	for i, e := range m.edges {
		conds = append(conds, m.edgeConds(br, i, e)...)
	}
	for _, s := range m.segs {
		from = append(from, gCTERef(s.rel, s.alias, s.pos))
		conds = append(conds, m.segConds(s)...)
	}
	for _, w := range m.wheres {
		c, err := m.rewrite(w.cond, br)
		if err != nil {
			return nil, err
		}
		conds = append(conds, c)
	}
	conds = append(conds, m.modeConds(br)...)
	if where != nil {
		c, err := m.rewrite(where, br)
		if err != nil {
			return nil, err
		}
		conds = append(conds, c)
	}
	var rcs []*grammar.ResultColumn
	for _, c := range cols {
		x := c.expr
		if !c.raw {
			var err error
			if x, err = m.rewrite(x, br); err != nil {
				return nil, err
			}
		}
		rcs = append(rcs, gResult(x, c.name))
	}
	return gCore(rcs, from, conds, at), nil
}

// edgeConds joins fixed edge i to its vertices.
func (m *gMatch) edgeConds(br gBranch, i int, e gEdge) []grammar.Expr {
	el := br.a[e.edge]
	src, dst := m.vars[e.left].name, m.vars[e.right].name
	if br.back[i] {
		src, dst = dst, src
	}
	en := m.vars[e.edge].name
	conds := append(gKeysEq(en, el.Source.Columns, src, el.Source.Ref, e.pos), gKeysEq(en, el.Dest.Columns, dst, el.Dest.Ref, e.pos)...)
	if br.loop[i] {
		same := make([]grammar.Expr, len(el.Source.Columns))
		for j := range same {
			same[j] = gBin(grammar.OpIs, gCol(en, el.Source.Columns[j], e.pos), gCol(en, el.Dest.Columns[j], e.pos))
		}
		conds = append(conds, &grammar.UnaryExpr{Position: e.pos, Op: grammar.OpNot, X: gAnd(same)})
	}
	return conds
}

// modeConds are the TRAIL, ACYCLIC and SIMPLE conditions: no two of the
// path's edges (vertices) are the same element.
func (m *gMatch) modeConds(br gBranch) []grammar.Expr {
	var out []grammar.Expr
	for _, md := range m.modes {
		if md.mode == grammar.ModeTrail {
			out = append(out, m.distinct(br, md.edges, md.pos, false)...)
			continue
		}
		out = append(out, m.distinct(br, md.vertices, md.pos, md.mode == grammar.ModeSimple)...)
	}
	return out
}

// distinct says the elements bound to vars differ pairwise (but for the
// first and the last one, when ends is set).
func (m *gMatch) distinct(br gBranch, vars []string, at grammar.Position, ends bool) []grammar.Expr {
	var out []grammar.Expr
	for i := range vars {
		for j := i + 1; j < len(vars); j++ {
			if ends && i == 0 && j == len(vars)-1 {
				continue
			}
			a, b := vars[i], vars[j]
			switch {
			case a == b:
				out = append(out, gInt(0, at))
			case br.a[a] == br.a[b]:
				el := br.a[a]
				same := gAnd(gKeysIs(m.vars[a].name, m.vars[b].name, el.Key, at))
				out = append(out, &grammar.UnaryExpr{Position: at, Op: grammar.OpNot, X: same})
			}
		}
	}
	return out
}

// gKeysIs is l.k IS r.k for every key column k.
func gKeysIs(l, r string, key []string, at grammar.Position) []grammar.Expr {
	out := make([]grammar.Expr, len(key))
	for i, k := range key {
		out[i] = gBin(grammar.OpIs, gCol(l, k, at), gCol(r, k, at))
	}
	return out
}

// rewrite replaces the property references of e for a branch.
func (m *gMatch) rewrite(e grammar.Expr, br gBranch) (grammar.Expr, error) {
	var err error
	out := cloneExpr(e, func(n grammar.Node) (grammar.Expr, bool) {
		if p, f := m.pathCall(n); p != nil {
			x, e := m.pathFunc(p, f, br)
			if e != nil && err == nil {
				err = e
			}
			return x, true
		}
		c, ok := n.(*grammar.ColumnRef)
		if !ok || c.Table == "" || c.Schema != "" || err != nil {
			return nil, false
		}
		k := catalog.Lower(c.Table)
		switch {
		case m.paths[k] != nil:
			err = errAt(c.Position, "not supported: a path variable (%s) in an expression", c.Table)
		case m.groups[k]:
			err = errAt(c.Position, "not supported: a reference to %s outside the quantified pattern that declares it", c.Table)
		case m.vars[k] != nil:
			var x grammar.Expr
			x, err = m.property(m.vars[k], br.a[k], c)
			return x, err == nil
		default:
			return nil, false
		}
		return nil, false
	})
	return out, err
}

// property is the expression of v.name on the element table el.
func (m *gMatch) property(v *gVar, el *catalog.GraphElement, c *grammar.ColumnRef) (grammar.Expr, error) {
	p, ok := el.Property(c.Column)
	if !ok {
		for _, o := range v.cands {
			if _, has := o.Property(c.Column); has {
				return gNull(c.Position), nil
			}
		}
		return nil, errAt(c.Position, "no such property: %s.%s", c.Table, c.Column)
	}
	if p.Column != "" {
		return gCol(v.name, p.Column, c.Position), nil
	}
	x, err := grammar.ParseExpr(p.Expr)
	if err != nil {
		return nil, err
	}
	return cloneExpr(x, func(n grammar.Node) (grammar.Expr, bool) {
		if r, ok := n.(*grammar.ColumnRef); ok {
			return gCol(v.name, r.Column, c.Position), true
		}
		return nil, false
	}), nil
}
