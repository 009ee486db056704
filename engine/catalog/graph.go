package catalog

import "sort"

// GraphEntryType is the sqlite_master type of a property graph.
const GraphEntryType = "property graph"

// Graph is one property graph (SQL/PGQ): vertex and edge element tables
// defined over ordinary tables. It holds no data of its own; sqlite_master
// lists it with type "property graph" and its CREATE PROPERTY GRAPH text,
// from which it is rebuilt (and checked against the tables) when the
// schema loads. Every name in it is resolved: keys are explicit, labels
// list their properties.
type Graph struct {
	Name     string
	SQL      string // CREATE PROPERTY GRAPH text (printed again after ALTER)
	Vertices []*GraphElement
	Edges    []*GraphElement
}

// GraphElement is one vertex or edge table of a graph.
type GraphElement struct {
	Name   string   // element table name (its alias, or the table's name)
	Table  string   // the table, as the catalog spells it
	Key    []string // key columns: the KEY clause or the primary key
	Labels []*GraphLabel
	// Source and Dest are set for an edge table only.
	Source, Dest *GraphEndpoint
}

// GraphEndpoint is an edge table's SOURCE or DESTINATION: the edge's
// columns Columns equal the vertex table's columns Ref, position by
// position.
type GraphEndpoint struct {
	Vertex  string // element name of the vertex table
	Columns []string
	Ref     []string
}

// GraphLabel is a label of an element table with the properties it
// exposes.
type GraphLabel struct {
	Name  string
	Props []GraphProperty
}

// GraphProperty is a property: a column of the element table, or an
// expression over its columns (Column "" then).
type GraphProperty struct {
	Name   string
	Column string
	Expr   string // SQL text of the expression; the column's name for a column
}

// HasLabel reports whether e has the label named name (any case).
func (e *GraphElement) HasLabel(name string) bool {
	for _, l := range e.Labels {
		if equalFold(l.Name, name) {
			return true
		}
	}
	return false
}

// Property returns e's property named name, looked up through its labels,
// and whether there is one.
func (e *GraphElement) Property(name string) (GraphProperty, bool) {
	for _, l := range e.Labels {
		for _, p := range l.Props {
			if equalFold(p.Name, name) {
				return p, true
			}
		}
	}
	return GraphProperty{}, false
}

// Element returns the vertex or edge table of g named name, or nil.
func (g *Graph) Element(name string) *GraphElement {
	for _, list := range [][]*GraphElement{g.Vertices, g.Edges} {
		for _, e := range list {
			if equalFold(e.Name, name) {
				return e
			}
		}
	}
	return nil
}

// Uses reports whether g is defined over the table named table.
func (g *Graph) Uses(table string) bool {
	for _, list := range [][]*GraphElement{g.Vertices, g.Edges} {
		for _, e := range list {
			if equalFold(e.Table, table) {
				return true
			}
		}
	}
	return false
}

// Graph returns the property graph named name, or nil.
func (c *Catalog) Graph(name string) *Graph {
	return c.graphs[Lower(name)]
}

// PutGraph adds or replaces g.
func (c *Catalog) PutGraph(g *Graph) {
	k := Lower(g.Name)
	if c.graphs == nil {
		c.graphs = map[string]*Graph{}
	}
	c.graphs[k] = g
	c.order(k)
}

// GraphsUsing returns the graphs defined over the table named table, in
// creation order.
func (c *Catalog) GraphsUsing(table string) []*Graph {
	var out []*Graph
	for _, g := range c.graphs {
		if g.Uses(table) {
			out = append(out, g)
		}
	}
	sort.Slice(out, func(i, j int) bool { return c.seq[Lower(out[i].Name)] < c.seq[Lower(out[j].Name)] })
	return out
}
