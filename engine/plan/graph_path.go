package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// Path variables (p = …) are read through three functions:
// path_length(p), its number of edges; vertices(p) and edges(p), JSON
// arrays of the keys of its vertices and of its edges in path order (a
// key's value alone, or an array of a multi-column key's values). A fixed
// path builds them with json_array over its variables; a path that is one
// quantified part between two vertices reads them from its expansion.
// vertices and edges of other shapes are not supported.

// pathFuncs are the functions of a path variable.
var pathFuncs = map[string]bool{"path_length": true, "vertices": true, "edges": true}

// pathCall returns the path of f(p), f a path function and p a path
// variable.
func (m *gMatch) pathCall(n grammar.Node) (*gPath, *grammar.FuncCall) {
	f, ok := n.(*grammar.FuncCall)
	if !ok || !pathFuncs[catalog.Lower(f.Name)] || len(f.Args) != 1 || f.Star || f.Distinct || f.Over != nil || f.OverName != "" {
		return nil, nil
	}
	c, ok := f.Args[0].(*grammar.ColumnRef)
	if !ok || c.Table != "" {
		return nil, nil
	}
	return m.paths[catalog.Lower(c.Column)], f
}

// pathLists marks the quantified parts whose expansion must list its
// vertices or edges for vertices(p) or edges(p) in exprs.
func (m *gMatch) pathLists(exprs []grammar.Expr) error {
	var bad error
	for _, e := range exprs {
		grammar.Walk(e, func(n grammar.Node) bool {
			p, f := m.pathCall(n)
			if p == nil || bad != nil || eqFold(f.Name, "path_length") {
				return bad == nil
			}
			if len(p.segs) == 0 {
				return true
			}
			if len(p.segs) > 1 || len(p.verts) != 2 {
				bad = errAt(f.Position, "not supported: %s() of a path other than a fixed path or (a) quantified-part (b)", f.Name)
				return false
			}
			s := p.segs[0]
			if eqFold(f.Name, "vertices") {
				s.listVertices = true
			} else if s.singleEdge() == nil {
				bad = errAt(f.Position, "not supported: edges() of a quantified parenthesised path")
			} else {
				s.listEdges = true
			}
			return bad == nil
		})
	}
	return bad
}

// pathFunc is the expression of f(p) in a branch.
func (m *gMatch) pathFunc(p *gPath, f *grammar.FuncCall, br gBranch) (grammar.Expr, error) {
	at := f.Position
	switch catalog.Lower(f.Name) {
	case "path_length":
		var x grammar.Expr = gInt(len(p.edges), at)
		for _, s := range p.segs {
			x = gBin(grammar.OpAdd, x, gCol(s.alias, "n", at))
		}
		return x, nil
	case "vertices":
		if len(p.segs) > 0 {
			return gCol(p.segs[0].alias, "pv", at), nil
		}
		return m.keyList(p.verts, br, at), nil
	}
	if len(p.segs) > 0 {
		return gCol(p.segs[0].alias, "pe", at), nil
	}
	return m.keyList(p.edges, br, at), nil
}

// keyList is json_array of the keys of the elements bound to vars.
func (m *gMatch) keyList(vars []string, br gBranch, at grammar.Position) grammar.Expr {
	arr := &grammar.FuncCall{Position: at, Name: "json_array"}
	for _, v := range vars {
		el := br.a[v]
		keys := make([]grammar.Expr, len(el.Key))
		for i, k := range el.Key {
			keys[i] = gCol(m.vars[v].name, k, at)
		}
		if len(keys) == 1 {
			arr.Args = append(arr.Args, keys[0])
		} else {
			arr.Args = append(arr.Args, &grammar.FuncCall{Position: at, Name: "json_array", Args: keys})
		}
	}
	return arr
}
