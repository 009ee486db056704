package grammar

import "strconv"

// The printers of the SQL/PGQ nodes. Path elements are separated by a
// space, so that "-" followed by "-" never prints as a comment.

func (x *CreatePropertyGraphStmt) write(p *printer) {
	p.kw("CREATE PROPERTY GRAPH")
	p.ifNotExists(x.IfNotExists)
	p.kw(" ")
	p.qualified(x.Schema, x.Name)
	p.kw(" VERTEX TABLES (")
	list(p, x.Vertices)
	p.kw(")")
	if len(x.Edges) > 0 {
		p.kw(" EDGE TABLES (")
		list(p, x.Edges)
		p.kw(")")
	}
}

func (x *ElementTable) write(p *printer) {
	p.name(x.Table)
	p.alias(x.Alias)
	if x.Key != nil {
		p.kw(" KEY (")
		p.names(x.Key)
		p.kw(")")
	}
	if x.Source != nil {
		p.kw(" SOURCE ")
		x.Source.write(p)
		p.kw(" DESTINATION ")
		x.Dest.write(p)
	}
	for _, l := range x.Labels {
		p.kw(" ")
		l.write(p)
	}
}

func (x *ElementRef) write(p *printer) {
	if x.Key != nil {
		p.kw("KEY (")
		p.names(x.Key)
		p.kw(") REFERENCES ")
	}
	p.name(x.Vertex)
	if x.Columns != nil {
		p.kw(" (")
		p.names(x.Columns)
		p.kw(")")
	}
}

func (x *LabelDef) write(p *printer) {
	switch {
	case x.Name != "":
		p.kw("LABEL ")
		p.name(x.Name)
	case x.Default:
		p.kw("DEFAULT LABEL")
	}
	if x.Props == PropsDefault {
		return
	}
	if x.Name != "" || x.Default {
		p.kw(" ")
	}
	switch x.Props {
	case PropsAll:
		p.kw("PROPERTIES ALL COLUMNS")
	case PropsNone:
		p.kw("NO PROPERTIES")
	default:
		p.kw("PROPERTIES (")
		list(p, x.List)
		p.kw(")")
	}
}

func (x *PropertyDef) write(p *printer) {
	p.expr(x.Expr)
	p.alias(x.Name)
}

func (x *DropPropertyGraphStmt) write(p *printer) {
	p.kw("DROP PROPERTY GRAPH")
	if x.IfExists {
		p.kw(" IF EXISTS")
	}
	p.kw(" ")
	p.qualified(x.Schema, x.Name)
}

func (x *AlterPropertyGraphStmt) write(p *printer) {
	p.kw("ALTER PROPERTY GRAPH ")
	p.qualified(x.Schema, x.Name)
	for _, a := range x.Actions {
		p.kw(" ")
		a.write(p)
	}
}

func (x *AlterGraphAction) write(p *printer) {
	p.kw(map[bool]string{false: "ADD", true: "DROP"}[x.Drop])
	p.kw(map[bool]string{false: " VERTEX TABLES (", true: " EDGE TABLES ("}[x.Edge])
	list(p, x.Tables)
	p.kw(")")
}

func (x *GraphTable) write(p *printer) {
	p.kw("GRAPH_TABLE (")
	p.qualified(x.Schema, x.Graph)
	p.kw(" MATCH ")
	list(p, x.Paths)
	if x.Where != nil {
		p.kw(" WHERE ")
		p.expr(x.Where)
	}
	p.kw(" COLUMNS (")
	list(p, x.Columns)
	p.kw("))")
	p.alias(x.Alias)
}

var searchSQL = [...]string{SearchAny: "ANY ", SearchAnyShortest: "ANY SHORTEST ", SearchAllShortest: "ALL SHORTEST "}
var modeSQL = [...]string{ModeWalk: "WALK ", ModeTrail: "TRAIL ", ModeAcyclic: "ACYCLIC ", ModeSimple: "SIMPLE "}

func (x *PathPattern) write(p *printer) {
	if x.Var != "" {
		p.name(x.Var)
		p.kw(" = ")
	}
	p.kw(searchSQL[x.Search])
	if x.Count > 0 {
		p.kw(strconv.Itoa(x.Count), " ")
	}
	p.kw(modeSQL[x.Mode])
	p.pathElems(x.Elems)
}

func (p *printer) pathElems(elems []PathElem) {
	for i, e := range elems {
		if i > 0 {
			p.kw(" ")
		}
		p.node(e)
	}
}

func (x *VertexPattern) write(p *printer) {
	p.kw("(")
	p.elementFiller(x.Var, x.Label, x.Where)
	p.kw(")")
}

// elementFiller writes "var IS label WHERE cond", each part optional.
func (p *printer) elementFiller(v string, label LabelExpr, where Expr) {
	sep := ""
	if v != "" {
		p.name(v)
		sep = " "
	}
	if label != nil {
		p.kw(sep, "IS ")
		p.label(label, 0)
		sep = " "
	}
	if where != nil {
		p.kw(sep, "WHERE ")
		p.expr(where)
	}
}

var edgeOpen = [...]string{EdgeRight: "-", EdgeLeft: "<-", EdgeAny: "-", EdgeLeftRight: "<-"}
var edgeClose = [...]string{EdgeRight: "->", EdgeLeft: "-", EdgeAny: "-", EdgeLeftRight: "->"}
var edgeAbbrev = [...]string{EdgeRight: "->", EdgeLeft: "<-", EdgeAny: "-", EdgeLeftRight: "<->"}

func (x *EdgePattern) write(p *printer) {
	if x.Abbrev {
		p.kw(edgeAbbrev[x.Dir])
	} else {
		p.kw(edgeOpen[x.Dir], "[")
		p.elementFiller(x.Var, x.Label, x.Where)
		p.kw("]", edgeClose[x.Dir])
	}
	p.node(x.Quant)
}

func (x *ParenPath) write(p *printer) {
	p.kw("(", modeSQL[x.Mode])
	p.pathElems(x.Elems)
	if x.Where != nil {
		p.kw(" WHERE ")
		p.expr(x.Where)
	}
	p.kw(")")
	p.node(x.Quant)
}

func (x *Quantifier) write(p *printer) {
	switch {
	case x.Kind == QuantStar:
		p.kw("*")
	case x.Kind == QuantPlus:
		p.kw("+")
	case x.Single:
		p.kw("{", strconv.Itoa(x.Min), "}")
	case x.Max < 0:
		p.kw("{", strconv.Itoa(x.Min), ",}")
	default:
		p.kw("{", strconv.Itoa(x.Min), ",", strconv.Itoa(x.Max), "}")
	}
}

// Label expression precedence: | is 1, & is 2, ! and atoms 3.
func (p *printer) label(x LabelExpr, min int) {
	prec := 3
	switch x.(type) {
	case *LabelOr:
		prec = 1
	case *LabelAnd:
		prec = 2
	}
	if prec < min {
		p.kw("(")
	}
	switch x := x.(type) {
	case *LabelName:
		p.name(x.Name)
	case *LabelAny:
		p.kw("%")
	case *LabelNot:
		p.kw("!")
		p.label(x.X, 3)
	case *LabelAnd:
		p.label(x.L, 2)
		p.kw(" & ")
		p.label(x.R, 3)
	case *LabelOr:
		p.label(x.L, 1)
		p.kw(" | ")
		p.label(x.R, 2)
	}
	if prec < min {
		p.kw(")")
	}
}

func (x *LabelName) write(p *printer) { p.label(x, 0) }
func (x *LabelAny) write(p *printer)  { p.label(x, 0) }
func (x *LabelNot) write(p *printer)  { p.label(x, 0) }
func (x *LabelAnd) write(p *printer)  { p.label(x, 0) }
func (x *LabelOr) write(p *printer)   { p.label(x, 0) }

// String prints the node as SQL.
func (x *CreatePropertyGraphStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *ElementTable) String() string { return render(x) }

// String prints the node as SQL.
func (x *ElementRef) String() string { return render(x) }

// String prints the node as SQL.
func (x *LabelDef) String() string { return render(x) }

// String prints the node as SQL.
func (x *PropertyDef) String() string { return render(x) }

// String prints the node as SQL.
func (x *DropPropertyGraphStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *AlterPropertyGraphStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *AlterGraphAction) String() string { return render(x) }

// String prints the node as SQL.
func (x *GraphTable) String() string { return render(x) }

// String prints the node as SQL.
func (x *PathPattern) String() string { return render(x) }

// String prints the node as SQL.
func (x *VertexPattern) String() string { return render(x) }

// String prints the node as SQL.
func (x *EdgePattern) String() string { return render(x) }

// String prints the node as SQL.
func (x *ParenPath) String() string { return render(x) }

// String prints the node as SQL.
func (x *Quantifier) String() string { return render(x) }

// String prints the node as SQL.
func (x *LabelName) String() string { return render(x) }

// String prints the node as SQL.
func (x *LabelAny) String() string { return render(x) }

// String prints the node as SQL.
func (x *LabelNot) String() string { return render(x) }

// String prints the node as SQL.
func (x *LabelAnd) String() string { return render(x) }

// String prints the node as SQL.
func (x *LabelOr) String() string { return render(x) }
