package grammar

import (
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// The conversion of the SQL/PGQ participle structs (syntax_graph.go).

// maxQuantifier bounds the numbers of a quantifier: a path longer than
// this is refused when read rather than unrolled.
const maxQuantifier = 1 << 20

func (b *builder) createGraph(s *sCreateGraph) *CreatePropertyGraphStmt {
	schema, name := qname(s.Name)
	return &CreatePropertyGraphStmt{Position: pos(s.Pos), IfNotExists: s.IfNotExists, Schema: schema, Name: name,
		Vertices: b.elementTables(s.Vertices, false), Edges: b.elementTables(s.Edges, true)}
}

func (b *builder) elementTables(list []*sElementTable, edge bool) []*ElementTable {
	var out []*ElementTable
	for _, t := range list {
		out = append(out, b.elementTable(t, edge))
	}
	return out
}

func (b *builder) elementTable(t *sElementTable, edge bool) *ElementTable {
	e := &ElementTable{Position: pos(t.Pos), Table: unquote(t.Table), Alias: unquote(t.Alias), Key: unquoteAll(t.Key)}
	switch {
	case edge && t.Source == nil:
		b.fail(t.Pos, "edge table "+e.Name()+" needs SOURCE and DESTINATION")
	case !edge && t.Source != nil:
		b.fail(t.Source.Pos, "vertex table "+e.Name()+" cannot have SOURCE or DESTINATION")
	case edge:
		e.Source, e.Dest = elementRef(t.Source), elementRef(t.Dest)
	}
	for _, l := range t.Labels {
		e.Labels = append(e.Labels, b.labelDef(l))
	}
	return e
}

func elementRef(r *sEndpoint) *ElementRef {
	return &ElementRef{Position: pos(r.Pos), Key: unquoteAll(r.Key), Vertex: unquote(r.Vertex), Columns: unquoteAll(r.Columns)}
}

func (b *builder) labelDef(l *sLabelDef) *LabelDef {
	d := &LabelDef{Position: pos(l.Pos), Name: unquote(l.Label), Default: l.Default}
	props := l.Props
	if l.Bare != nil {
		props = l.Bare
	}
	switch {
	case props == nil:
	case props.None:
		d.Props = PropsNone
	case props.All:
		d.Props = PropsAll
	default:
		d.Props = PropsList
		for _, p := range props.List {
			d.List = append(d.List, &PropertyDef{Position: pos(p.Pos), Expr: b.expr(p.Expr), Name: unquote(p.Name)})
		}
	}
	return d
}

func (b *builder) dropGraph(s *sDropGraph, p Position) *DropPropertyGraphStmt {
	schema, name := qname(s.Name)
	return &DropPropertyGraphStmt{Position: p, IfExists: s.IfExists, Schema: schema, Name: name}
}

func (b *builder) alterGraph(s *sAlterGraph, p Position) *AlterPropertyGraphStmt {
	schema, name := qname(s.Name)
	st := &AlterPropertyGraphStmt{Position: p, Schema: schema, Name: name}
	for _, a := range s.Actions {
		kind := strings.ToUpper(a.Kind)
		act := &AlterGraphAction{Position: pos(a.Pos), Drop: strings.EqualFold(a.Op, "DROP"), Edge: kind == "EDGE" || kind == "RELATIONSHIP"}
		for _, t := range a.Tables {
			if act.Drop {
				if t.Alias != "" || t.Key != nil || t.Source != nil || t.Labels != nil {
					b.fail(t.Pos, "DROP … TABLES names the element tables only")
				}
				act.Tables = append(act.Tables, &ElementTable{Position: pos(t.Pos), Table: unquote(t.Table)})
				continue
			}
			act.Tables = append(act.Tables, b.elementTable(t, act.Edge))
		}
		st.Actions = append(st.Actions, act)
	}
	return st
}

func (b *builder) graphTable(s *sGraphTable, alias *sAlias) *GraphTable {
	schema, name := qname(s.Graph)
	g := &GraphTable{Position: pos(s.Pos), Schema: schema, Graph: name, Where: b.expr(s.Where),
		Columns: b.resultColumns(s.Columns), Alias: aliasName(alias)}
	for _, p := range s.Paths {
		g.Paths = append(g.Paths, b.pathPattern(p))
	}
	return g
}

func (b *builder) pathPattern(s *sPathPattern) *PathPattern {
	p := &PathPattern{Position: pos(s.Pos), Var: unquote(s.Var), Mode: pathMode(s.Mode), Elems: b.pathElems(s.Term)}
	if sp := s.Search; sp != nil {
		switch {
		case sp.All:
			p.Search = SearchAllShortest
		case sp.AnyShort:
			p.Search = SearchAnyShortest
		default:
			p.Search = SearchAny
		}
		if sp.Count != nil {
			p.Count = b.quantNumber(sp.Pos, *sp.Count)
			if p.Count == 0 {
				b.fail(sp.Pos, "the number of paths must be at least 1")
			}
		}
	}
	return p
}

func pathMode(m string) PathMode {
	switch strings.ToUpper(m) {
	case "WALK":
		return ModeWalk
	case "TRAIL":
		return ModeTrail
	case "ACYCLIC":
		return ModeAcyclic
	case "SIMPLE":
		return ModeSimple
	}
	return ModeDefault
}

func (b *builder) pathElems(t *sPathTerm) []PathElem {
	var out []PathElem
	for _, e := range t.Elems {
		switch {
		case e.Paren != nil:
			pp := e.Paren
			out = append(out, &ParenPath{Position: pos(pp.Pos), Mode: pathMode(pp.Mode), Elems: b.pathElems(pp.Term),
				Where: b.expr(pp.Where), Quant: b.quantifier(pp.Quant)})
		case e.Vertex != nil:
			v := e.Vertex
			out = append(out, &VertexPattern{Position: pos(v.Pos), Var: unquote(v.Var), Label: b.labelOr(v.Label), Where: b.expr(v.Where)})
		default:
			out = append(out, b.edge(e.Edge))
		}
	}
	return out
}

func (b *builder) edge(s *sEdge) *EdgePattern {
	e := &EdgePattern{Position: pos(s.Pos), Var: unquote(s.Var), Label: b.labelOr(s.Label), Where: b.expr(s.Where), Quant: b.quantifier(s.Quant)}
	open, end := s.Open, s.Close
	if s.Abbrev != "" {
		e.Abbrev = true
		switch s.Abbrev {
		case "<->":
			open, end = "<-", "->"
		case "<-":
			open, end = "<-", "-"
		case "->":
			open, end = "-", "->"
		default:
			open, end = "-", "-"
		}
	}
	switch {
	case open == "<-" && end == "->":
		e.Dir = EdgeLeftRight
	case open == "<-":
		e.Dir = EdgeLeft
	case end == "->":
		e.Dir = EdgeRight
	default:
		e.Dir = EdgeAny
	}
	return e
}

func (b *builder) quantifier(s *sQuant) *Quantifier {
	if s == nil {
		return nil
	}
	q := &Quantifier{Position: pos(s.Pos), Max: -1}
	switch {
	case s.Star:
		q.Kind = QuantStar
	case s.Plus:
		q.Kind, q.Min = QuantPlus, 1
	default:
		if s.Lo != nil {
			q.Min = b.quantNumber(s.Pos, *s.Lo)
		}
		switch {
		case s.Hi != nil:
			q.Max = b.quantNumber(s.Pos, *s.Hi)
		case !s.Comma:
			if s.Lo == nil {
				b.fail(s.Pos, "a quantifier needs a number: {n}, {n,m}, {n,} or {,m}")
			}
			q.Max, q.Single = q.Min, true
		}
		if q.Max >= 0 && q.Max < q.Min {
			b.fail(s.Pos, "quantifier {"+strconv.Itoa(q.Min)+","+strconv.Itoa(q.Max)+"}: the upper bound is below the lower bound")
		}
	}
	return q
}

// quantNumber reads a quantifier's (or ANY k's) number.
func (b *builder) quantNumber(at lexer.Position, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > maxQuantifier {
		b.fail(at, "quantifier bound "+s+" is not an integer from 0 to "+strconv.Itoa(maxQuantifier))
		return 0
	}
	return n
}

func (b *builder) labelOr(s *sLabelOr) LabelExpr {
	if s == nil {
		return nil
	}
	var x LabelExpr
	for _, t := range s.Terms {
		r := b.labelAnd(t)
		if x == nil {
			x = r
		} else {
			x = &LabelOr{Position: x.Pos(), L: x, R: r}
		}
	}
	return x
}

func (b *builder) labelAnd(s *sLabelAnd) LabelExpr {
	var x LabelExpr
	for _, f := range s.Factors {
		r := b.labelFactor(f)
		if x == nil {
			x = r
		} else {
			x = &LabelAnd{Position: x.Pos(), L: x, R: r}
		}
	}
	return x
}

func (b *builder) labelFactor(s *sLabelFactor) LabelExpr {
	var x LabelExpr
	switch {
	case s.Any:
		x = &LabelAny{Position: pos(s.Pos)}
	case s.Paren != nil:
		x = b.labelOr(s.Paren)
	default:
		x = &LabelName{Position: pos(s.Pos), Name: unquote(s.Name)}
	}
	for range s.Not {
		x = &LabelNot{Position: pos(s.Pos), X: x}
	}
	return x
}
