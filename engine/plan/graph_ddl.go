package plan

import (
	"fmt"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// Property graph DDL (SQL/PGQ): CREATE, ALTER and DROP PROPERTY GRAPH
// bind to CreateGraph and DropGraph; GraphFromAST resolves a graph
// definition against the catalog, so every name in a catalog.Graph is
// checked and every default (keys, labels, properties, foreign-key
// endpoints) is filled in.

// CreateGraph is CREATE PROPERTY GRAPH, or ALTER PROPERTY GRAPH when
// Replace is set (Graph is then the altered definition).
type CreateGraph struct {
	Graph       *catalog.Graph
	IfNotExists bool
	Replace     bool
}

// DropGraph is DROP PROPERTY GRAPH.
type DropGraph struct {
	Name     string
	IfExists bool
}

func (*CreateGraph) stmtNode() {}
func (*DropGraph) stmtNode()   {}

// errAt is a bind error located at a node of the statement's text.
func errAt(p grammar.Position, format string, args ...any) error {
	return bindErr(format+" (at line %d, column %d)", append(args, p.Line, p.Column)...)
}

// bindGraphDDL binds the three property graph statements.
func (b *Binder) bindGraphDDL(st grammar.Statement) (Statement, error) {
	switch s := st.(type) {
	case *grammar.CreatePropertyGraphStmt:
		if err := graphSchema(s.Schema); err != nil {
			return nil, err
		}
		g, err := GraphFromAST(b.cat.Main(), s)
		if err != nil {
			return nil, err
		}
		return &CreateGraph{Graph: g, IfNotExists: s.IfNotExists}, nil
	case *grammar.DropPropertyGraphStmt:
		if err := graphSchema(s.Schema); err != nil {
			return nil, err
		}
		return &DropGraph{Name: s.Name, IfExists: s.IfExists}, nil
	case *grammar.AlterPropertyGraphStmt:
		if err := graphSchema(s.Schema); err != nil {
			return nil, err
		}
		return b.bindAlterGraph(s)
	}
	return nil, notSupported("statement %T", st)
}

// graphSchema refuses a schema other than main: graphs live in main.
func graphSchema(schema string) error {
	if schema != "" && !eqFold(schema, "main") {
		return notSupported("property graphs in schema %s (graphs live in main)", schema)
	}
	return nil
}

// bindAlterGraph applies ADD/DROP VERTEX/EDGE TABLES to the stored
// definition and resolves the result again.
func (b *Binder) bindAlterGraph(s *grammar.AlterPropertyGraphStmt) (Statement, error) {
	cat := b.cat.Main()
	g := cat.Graph(s.Name)
	if g == nil {
		return nil, errAt(s.Position, "no such property graph: %s", s.Name)
	}
	def, err := ParseGraph(g.SQL)
	if err != nil {
		return nil, err
	}
	for _, a := range s.Actions {
		list := &def.Vertices
		if a.Edge {
			list = &def.Edges
		}
		if !a.Drop {
			*list = append(*list, a.Tables...)
			continue
		}
		for _, t := range a.Tables {
			if *list, err = dropElement(*list, t); err != nil {
				return nil, err
			}
		}
	}
	def.IfNotExists = false
	ng, err := GraphFromAST(cat, def)
	if err != nil {
		return nil, err
	}
	return &CreateGraph{Graph: ng, Replace: true}, nil
}

// dropElement removes the element table named by t from list.
func dropElement(list []*grammar.ElementTable, t *grammar.ElementTable) ([]*grammar.ElementTable, error) {
	for i, e := range list {
		if eqFold(e.Name(), t.Table) {
			return append(list[:i:i], list[i+1:]...), nil
		}
	}
	return nil, errAt(t.Position, "no such element table in the graph: %s", t.Table)
}

// ParseGraph parses a stored CREATE PROPERTY GRAPH text.
func ParseGraph(sql string) (*grammar.CreatePropertyGraphStmt, error) {
	stmts, err := grammar.Parse(sql)
	if err != nil {
		return nil, err
	}
	if len(stmts) == 1 {
		if s, ok := stmts[0].(*grammar.CreatePropertyGraphStmt); ok {
			return s, nil
		}
	}
	return nil, bindErr("not a CREATE PROPERTY GRAPH statement")
}

// GraphFromAST resolves a graph definition against cat (the main schema):
// the tables, columns and keys must exist, and the graph's SQL is the
// definition printed.
func GraphFromAST(cat *catalog.Catalog, s *grammar.CreatePropertyGraphStmt) (*catalog.Graph, error) {
	g := &catalog.Graph{Name: s.Name, SQL: s.String()}
	seen := map[string]bool{}
	for _, v := range s.Vertices {
		e, err := graphElement(cat, v, seen)
		if err != nil {
			return nil, err
		}
		g.Vertices = append(g.Vertices, e)
	}
	for _, d := range s.Edges {
		e, err := graphElement(cat, d, seen)
		if err != nil {
			return nil, err
		}
		t := cat.Table(e.Table)
		if e.Source, err = endpoint(cat, g, t, d.Source, "SOURCE", nil); err != nil {
			return nil, err
		}
		if e.Dest, err = endpoint(cat, g, t, d.Dest, "DESTINATION", e.Source); err != nil {
			return nil, err
		}
		g.Edges = append(g.Edges, e)
	}
	return g, nil
}

// graphElement resolves one element table's table, key and labels.
func graphElement(cat *catalog.Catalog, d *grammar.ElementTable, seen map[string]bool) (*catalog.GraphElement, error) {
	t := cat.Table(d.Table)
	if t == nil || t.Virtual {
		if cat.View(d.Table) != nil {
			return nil, errAt(d.Position, "not supported: a view as a graph element table (%s)", d.Table)
		}
		return nil, errAt(d.Position, "no such table: %s", d.Table)
	}
	name := d.Name()
	if seen[catalog.Lower(name)] {
		return nil, errAt(d.Position, "element table %s is defined twice in the graph (give one an alias: %s AS other)", name, d.Table)
	}
	seen[catalog.Lower(name)] = true
	e := &catalog.GraphElement{Name: name, Table: t.Name}
	key, err := columnsOf(t, d.Key, d.Position)
	if err != nil {
		return nil, err
	}
	if e.Key = key; key == nil {
		e.Key = defaultKey(t)
	}
	if e.Labels, err = graphLabels(t, name, d.Labels); err != nil {
		return nil, err
	}
	return e, nil
}

// defaultKey is the key of an element table written without KEY: its
// primary key, or the rowid.
func defaultKey(t *catalog.Table) []string {
	if len(t.PK) == 0 {
		return []string{"rowid"}
	}
	out := make([]string, len(t.PK))
	for i, c := range t.PK {
		out[i] = t.Columns[c].Name
	}
	return out
}

// columnsOf checks that every name is a column of t (or the rowid) and
// returns them as t spells them; nil for nil.
func columnsOf(t *catalog.Table, names []string, at grammar.Position) ([]string, error) {
	if names == nil {
		return nil, nil
	}
	out := make([]string, len(names))
	for i, n := range names {
		c := t.ColumnIndex(n)
		switch {
		case c >= 0:
			out[i] = t.Columns[c].Name
		case catalog.IsRowidName(n) && !t.WithoutRowid:
			out[i] = "rowid"
		default:
			return nil, errAt(at, "no such column: %s.%s", t.Name, n)
		}
	}
	return out, nil
}

// graphLabels resolves the labels of an element table; none written is
// one label named after the element table with every column.
func graphLabels(t *catalog.Table, element string, defs []*grammar.LabelDef) ([]*catalog.GraphLabel, error) {
	if len(defs) == 0 {
		defs = []*grammar.LabelDef{{}}
	}
	var out []*catalog.GraphLabel
	props := map[string]catalog.GraphProperty{}
	for _, d := range defs {
		l := &catalog.GraphLabel{Name: d.Name}
		if l.Name == "" {
			l.Name = element
		}
		for _, o := range out {
			if eqFold(o.Name, l.Name) {
				return nil, errAt(d.Position, "label %s is given twice to element table %s", l.Name, element)
			}
		}
		var err error
		if l.Props, err = labelProps(t, d); err != nil {
			return nil, err
		}
		for _, p := range l.Props {
			k := catalog.Lower(p.Name)
			if q, ok := props[k]; ok && q.Expr != p.Expr {
				return nil, errAt(d.Position, "property %s of element table %s has two definitions: %s and %s", p.Name, element, q.Expr, p.Expr)
			}
			props[k] = p
		}
		out = append(out, l)
	}
	return out, nil
}

// labelProps resolves a label's property list.
func labelProps(t *catalog.Table, d *grammar.LabelDef) ([]catalog.GraphProperty, error) {
	switch d.Props {
	case grammar.PropsNone:
		return nil, nil
	case grammar.PropsDefault, grammar.PropsAll:
		var out []catalog.GraphProperty
		for _, c := range t.Columns {
			if !c.Hidden {
				out = append(out, catalog.GraphProperty{Name: c.Name, Column: c.Name, Expr: grammar.QuoteIdent(c.Name)})
			}
		}
		return out, nil
	}
	var out []catalog.GraphProperty
	for _, pd := range d.List {
		p, err := property(t, pd)
		if err != nil {
			return nil, err
		}
		for _, q := range out {
			if eqFold(q.Name, p.Name) {
				return nil, errAt(pd.Position, "property %s is listed twice", p.Name)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// property resolves "expr [AS name]": a column, or an expression over the
// table's columns that must be named.
func property(t *catalog.Table, pd *grammar.PropertyDef) (catalog.GraphProperty, error) {
	var bad error
	grammar.Walk(pd.Expr, func(n grammar.Node) bool {
		switch x := n.(type) {
		case *grammar.ColumnRef:
			if bad == nil && (x.Table != "" && !eqFold(x.Table, t.Name) || t.ColumnIndex(x.Column) < 0 && !catalog.IsRowidName(x.Column)) {
				bad = errAt(x.Position, "no such column: %s.%s", t.Name, x.Column)
			}
		case *grammar.SubqueryExpr, *grammar.ExistsExpr:
			if bad == nil {
				bad = errAt(pd.Position, "a property cannot be a subquery")
			}
		}
		return bad == nil
	})
	if bad != nil {
		return catalog.GraphProperty{}, bad
	}
	if c, ok := pd.Expr.(*grammar.ColumnRef); ok {
		col := t.ColumnIndex(c.Column)
		name := c.Column
		if col >= 0 {
			name = t.Columns[col].Name
		}
		p := catalog.GraphProperty{Name: name, Column: name, Expr: grammar.QuoteIdent(name)}
		if pd.Name != "" {
			p.Name = pd.Name
		}
		return p, nil
	}
	if pd.Name == "" {
		return catalog.GraphProperty{}, errAt(pd.Position, "property expression %s needs a name: %s AS name", pd.Expr, pd.Expr)
	}
	return catalog.GraphProperty{Name: pd.Name, Expr: pd.Expr.String()}, nil
}

// endpoint resolves an edge's SOURCE or DESTINATION. Without KEY, the edge
// table's one foreign key to the vertex's table supplies the columns
// (other is the already resolved SOURCE, whose foreign key DESTINATION
// does not take again).
func endpoint(cat *catalog.Catalog, g *catalog.Graph, t *catalog.Table, r *grammar.ElementRef, what string, other *catalog.GraphEndpoint) (*catalog.GraphEndpoint, error) {
	var v *catalog.GraphElement
	for _, x := range g.Vertices {
		if eqFold(x.Name, r.Vertex) {
			v = x
		}
	}
	if v == nil {
		return nil, errAt(r.Position, "%s of edge table %s: no such vertex table in the graph: %s", what, t.Name, r.Vertex)
	}
	vt := cat.Table(v.Table)
	ref, err := columnsOf(vt, r.Columns, r.Position)
	if err != nil {
		return nil, err
	}
	cols, err := columnsOf(t, r.Key, r.Position)
	if err != nil {
		return nil, err
	}
	if cols == nil {
		if cols, ref, err = foreignKeyTo(t, vt, ref, other, what, r.Position); err != nil {
			return nil, err
		}
	}
	if ref == nil {
		ref = v.Key
	}
	if len(cols) != len(ref) {
		return nil, errAt(r.Position, "%s of edge table %s: %d key columns reference %d vertex columns", what, t.Name, len(cols), len(ref))
	}
	return &catalog.GraphEndpoint{Vertex: v.Name, Columns: cols, Ref: ref}, nil
}

// foreignKeyTo finds the one foreign key of t to vt (matching ref when
// given) that other does not use.
func foreignKeyTo(t, vt *catalog.Table, ref []string, other *catalog.GraphEndpoint, what string, at grammar.Position) (cols, refCols []string, err error) {
	var found [][2][]string
	for _, fk := range t.ForeignKeys {
		if !eqFold(fk.RefTable, vt.Name) {
			continue
		}
		c := make([]string, len(fk.Cols))
		for i, x := range fk.Cols {
			c[i] = t.Columns[x].Name
		}
		rc := fk.RefCols
		if len(rc) == 0 {
			rc = defaultKey(vt)
		}
		if ref != nil && !sameNames(rc, ref) {
			continue
		}
		if other != nil && sameNames(other.Columns, c) {
			continue
		}
		found = append(found, [2][]string{c, rc})
	}
	switch {
	case len(found) == 1:
		return found[0][0], found[0][1], nil
	case len(found) == 0:
		return nil, nil, errAt(at, "%s of edge table %s: no foreign key to %s; write %s KEY (columns) REFERENCES …", what, t.Name, vt.Name, what)
	}
	return nil, nil, errAt(at, "%s of edge table %s is ambiguous: %s", what, t.Name, ambiguousKeys(found, vt.Name, what))
}

func ambiguousKeys(found [][2][]string, table, what string) string {
	return fmt.Sprintf("%d foreign keys reference %s; write %s KEY (columns) REFERENCES …", len(found), table, what)
}

func sameNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !eqFold(a[i], b[i]) {
			return false
		}
	}
	return true
}
