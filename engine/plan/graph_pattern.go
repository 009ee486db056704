package plan

import (
	"fmt"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// The analysis of a MATCH clause: element variables (named or not), the
// edges between them, the quantified parts, and which element tables
// each variable may bind to.

// gVar is one element variable. Every occurrence of a name is the same
// element; a variable inside a quantified part is local to it (group).
type gVar struct {
	name   string
	edge   bool
	pos    grammar.Position
	labels []grammar.LabelExpr // one per occurrence that has one
	cands  []*catalog.GraphElement
	group  bool
}

// gEdge is one fixed edge occurrence: left and right are the vertex
// variables written before and after it.
type gEdge struct {
	left, edge, right string
	dir               grammar.EdgeDir
	pos               grammar.Position
}

// gWhere is an element pattern's WHERE with the variable it is written
// on.
type gWhere struct {
	v    string
	cond grammar.Expr
}

// gMatch is one MATCH clause (or the inside of a quantified part) being
// lowered.
type gMatch struct {
	g      *catalog.Graph
	vars   map[string]*gVar
	order  []string // variables in order of first appearance
	edges  []gEdge
	segs   []*gSeg
	wheres []gWhere
	conds  []grammar.Expr // conditions every branch has (path modes)
	paths  map[string]*gPath
	groups map[string]bool // variables local to a quantified part
	modes  []gMode
	ends   [2]string // first and last vertex of the path read last
	shared *gShared
}

// gPath is what a path variable's functions read: its vertex and fixed
// edge variables in order, and its quantified parts.
type gPath struct {
	verts, edges []string
	segs         []*gSeg
	pos          grammar.Position
}

// gMode is a path pattern's TRAIL/ACYCLIC/SIMPLE restriction over its
// variables.
type gMode struct {
	mode     grammar.PathMode
	vertices []string
	edges    []string
	pos      grammar.Position
}

func newMatch(g *catalog.Graph, shared *gShared) *gMatch {
	return &gMatch{g: g, vars: map[string]*gVar{}, paths: map[string]*gPath{}, groups: map[string]bool{}, shared: shared}
}

func (m *gMatch) newName(prefix string) string {
	m.shared.n++
	return fmt.Sprintf("__%s%d", prefix, m.shared.n)
}

// addVar records an occurrence of a variable.
func (m *gMatch) addVar(name string, edge bool, label grammar.LabelExpr, where grammar.Expr, at grammar.Position) (string, error) {
	if name == "" {
		name = m.newName(map[bool]string{false: "v", true: "e"}[edge])
	}
	v := m.vars[catalog.Lower(name)]
	if m.paths[catalog.Lower(name)] != nil {
		return "", errAt(at, "%s is a path variable and an element variable", name)
	}
	if m.groups[catalog.Lower(name)] {
		return "", errAt(at, "not supported: variable %s both inside and outside a quantified pattern", name)
	}
	if v == nil {
		v = &gVar{name: name, edge: edge, pos: at}
		m.vars[catalog.Lower(name)] = v
		m.order = append(m.order, catalog.Lower(name))
	} else if v.edge != edge {
		return "", errAt(at, "%s is both a vertex and an edge variable", name)
	}
	if label != nil {
		v.labels = append(v.labels, label)
	}
	if where != nil {
		m.wheres = append(m.wheres, gWhere{v: catalog.Lower(name), cond: where})
	}
	return catalog.Lower(name), nil
}

// withVertices returns elems with an anonymous vertex between two edges
// and at either end, as the standard reads "-[e]->-[f]->".
func withVertices(elems []grammar.PathElem) []grammar.PathElem {
	var out []grammar.PathElem
	vertexLast := false
	for _, e := range elems {
		_, isVertex := e.(*grammar.VertexPattern)
		if !isVertex && !vertexLast {
			out = append(out, &grammar.VertexPattern{Position: e.Pos()})
		}
		out = append(out, e)
		vertexLast = isVertex
	}
	if !vertexLast {
		at := grammar.Position{}
		if len(elems) > 0 {
			at = elems[len(elems)-1].Pos()
		}
		out = append(out, &grammar.VertexPattern{Position: at})
	}
	return out
}

// addPath reads one path pattern and returns the variables of its first
// and last vertices.
func (m *gMatch) addPath(p *grammar.PathPattern) (first, last string, err error) {
	if err := m.readPath(p); err != nil {
		return "", "", err
	}
	return m.ends[0], m.ends[1], nil
}

// readPath is addPath.
func (m *gMatch) readPath(p *grammar.PathPattern) error {
	var path *gPath
	if p.Var != "" {
		if m.vars[catalog.Lower(p.Var)] != nil || m.paths[catalog.Lower(p.Var)] != nil {
			return errAt(p.Position, "path variable %s is already a variable of the pattern", p.Var)
		}
		path = &gPath{pos: p.Position}
		m.paths[catalog.Lower(p.Var)] = path
	}
	if p.Search == grammar.SearchAny && p.Count > 1 {
		return errAt(p.Position, "not supported: ANY %d (ANY with a number of paths other than 1)", p.Count)
	}
	elems := withVertices(p.Elems)
	firstSeg, firstEdge := len(m.segs), len(m.edges)
	var vs []string
	prev := ""
	for i := 0; i < len(elems); i++ {
		switch e := elems[i].(type) {
		case *grammar.VertexPattern:
			name, err := m.addVar(e.Var, false, e.Label, e.Where, e.Position)
			if err != nil {
				return err
			}
			vs = append(vs, name)
			prev = name
		default:
			v, ok := elems[i+1].(*grammar.VertexPattern)
			if !ok {
				return errAt(e.Pos(), "a path element must be followed by a vertex pattern")
			}
			right, err := m.addVar(v.Var, false, v.Label, v.Where, v.Position)
			if err != nil {
				return err
			}
			if err := m.addStep(prev, e, right, p.Search); err != nil {
				return err
			}
			vs = append(vs, right)
			prev = right
			i++
		}
	}
	m.ends = [2]string{vs[0], vs[len(vs)-1]}
	quantified := len(m.segs) > firstSeg
	if path != nil {
		path.verts, path.segs = vs, m.segs[firstSeg:]
		for _, e := range m.edges[firstEdge:] {
			path.edges = append(path.edges, e.edge)
		}
	}
	if p.Search != grammar.SearchAll && !(quantified && len(elems) == 3) {
		return errAt(p.Position, "not supported: ANY, ANY SHORTEST and ALL SHORTEST on a path other than (a) quantified-edge-or-path (b)")
	}
	switch p.Mode {
	case grammar.ModeTrail, grammar.ModeAcyclic, grammar.ModeSimple:
		if quantified {
			return errAt(p.Position, "not supported: path mode %s with a quantified pattern", modeName(p.Mode))
		}
		var es []string
		for _, e := range m.edges[firstEdge:] {
			es = append(es, e.edge)
		}
		m.modes = append(m.modes, gMode{mode: p.Mode, vertices: vs, edges: es, pos: p.Position})
	}
	return nil
}

func modeName(m grammar.PathMode) string {
	return [...]string{"WALK", "WALK", "TRAIL", "ACYCLIC", "SIMPLE"}[m]
}

// addStep reads the edge or parenthesised path e between two vertices.
func (m *gMatch) addStep(left string, e grammar.PathElem, right string, search grammar.PathSearch) error {
	switch e := e.(type) {
	case *grammar.EdgePattern:
		if q := e.Quant; q != nil && !(q.Min == 1 && q.Max == 1 && search == grammar.SearchAll) {
			inner := *e
			inner.Quant = nil
			return m.addSeg(left, []grammar.PathElem{&inner}, nil, q, right, search, e.Position)
		}
		name, err := m.addVar(e.Var, true, e.Label, e.Where, e.Position)
		if err != nil {
			return err
		}
		m.edges = append(m.edges, gEdge{left: left, edge: name, right: right, dir: e.Dir, pos: e.Position})
		return nil
	case *grammar.ParenPath:
		if e.Mode != grammar.ModeDefault && e.Mode != grammar.ModeWalk {
			return errAt(e.Position, "not supported: path mode %s inside a parenthesised path", modeName(e.Mode))
		}
		q := e.Quant
		if q == nil {
			q = &grammar.Quantifier{Position: e.Position, Min: 1, Max: 1}
		}
		return m.addSeg(left, e.Elems, e.Where, q, right, search, e.Position)
	}
	return errAt(e.Pos(), "a vertex pattern cannot follow a vertex pattern")
}

// candidates computes, for every variable that is not local to a
// quantified part, the element tables its labels admit, checking that
// every label names a label of the graph.
func (m *gMatch) candidates() error {
	for _, k := range m.order {
		v := m.vars[k]
		list := m.g.Vertices
		if v.edge {
			list = m.g.Edges
		}
		for _, l := range v.labels {
			if err := checkLabels(m.g, l, list, v.edge); err != nil {
				return err
			}
		}
		v.cands = nil
		for _, el := range list {
			ok := true
			for _, l := range v.labels {
				ok = ok && labelMatches(l, el)
			}
			if ok {
				v.cands = append(v.cands, el)
			}
		}
	}
	return nil
}

// checkLabels fails on a label name no element table of the kind has.
func checkLabels(g *catalog.Graph, l grammar.LabelExpr, list []*catalog.GraphElement, edge bool) error {
	var bad error
	grammar.Walk(l, func(n grammar.Node) bool {
		ln, ok := n.(*grammar.LabelName)
		if !ok || bad != nil {
			return bad == nil
		}
		for _, el := range list {
			if el.HasLabel(ln.Name) {
				return true
			}
		}
		kind := "vertex"
		if edge {
			kind = "edge"
		}
		bad = errAt(ln.Position, "no such %s label in property graph %s: %s", kind, g.Name, ln.Name)
		return false
	})
	return bad
}

// labelMatches evaluates a label expression over an element table's
// labels.
func labelMatches(l grammar.LabelExpr, el *catalog.GraphElement) bool {
	switch l := l.(type) {
	case *grammar.LabelName:
		return el.HasLabel(l.Name)
	case *grammar.LabelAny:
		return len(el.Labels) > 0
	case *grammar.LabelNot:
		return !labelMatches(l.X, el)
	case *grammar.LabelAnd:
		return labelMatches(l.L, el) && labelMatches(l.R, el)
	case *grammar.LabelOr:
		return labelMatches(l.L, el) || labelMatches(l.R, el)
	}
	return false
}
