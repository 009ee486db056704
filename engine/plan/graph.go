package plan

import (
	"fmt"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
)

// GraphDir is the direction a GraphExpand follows its edges in.
type GraphDir uint8

// Expansion directions.
const (
	// GraphOut follows an edge from its Src key to its Dst key (-[e]->).
	GraphOut GraphDir = iota
	// GraphIn follows an edge from its Dst key to its Src key (<-[e]-).
	GraphIn
	// GraphAny follows an edge either way (-[e]-). One step per edge: a
	// self-loop is one step, not two, as the join rewrite
	// ON (src = a AND dst = b) OR (dst = a AND src = b) counts it.
	GraphAny
)

// String is the direction's arrow.
func (d GraphDir) String() string {
	switch d {
	case GraphIn:
		return "<-"
	case GraphAny:
		return "-"
	}
	return "->"
}

// GraphMode selects which paths a GraphExpand produces.
type GraphMode uint8

// Path modes.
const (
	// GraphWalk produces every walk (vertices and edges may repeat) whose
	// length is within [Min, Max]: one row per walk, so parallel edges and
	// cycles multiply rows exactly as a recursive CTE with UNION ALL does.
	GraphWalk GraphMode = iota
	// GraphAnyShortest produces, per start row and reachable end vertex,
	// one walk of the least length within [Min, Max] (ANY SHORTEST).
	GraphAnyShortest
	// GraphAllShortest produces, per start row and reachable end vertex,
	// every walk of that least length (ALL SHORTEST).
	GraphAllShortest
)

// String is the mode's SQL/PGQ name.
func (m GraphMode) String() string {
	switch m {
	case GraphAnyShortest:
		return "ANY SHORTEST"
	case GraphAllShortest:
		return "ALL SHORTEST"
	}
	return "WALK"
}

// GraphExpand is a quantified edge pattern, (a)-[e]->{Min,Max}(b): a
// breadth-first expansion from each input row's start vertex over an edge
// relation.
//
// Contract:
//   - Input is any relation; Start (expressions over Input's columns) is
//     the row's start vertex key. A row whose key has a NULL produces
//     nothing. Input's columns pass through to the output.
//   - Edges is the edge relation (a scan of the edge table, under a
//     Filter for an edge predicate or label, or a UNION ALL of several
//     edge tables projected to the same columns). Src and Dst index its
//     columns: the source and destination vertex keys, equal in number
//     to Start. An edge with a NULL in either key is never followed.
//     Keys compare as SQL values with BINARY collation and no affinity
//     conversion (3 = 3.0, '3' <> 3), as a hash join's keys do.
//   - Dir is the direction (GraphOut, GraphIn, GraphAny); Min and Max
//     bound the number of edges of a path, 0 <= Min <= Max (Max is
//     required: the binder rejects an unbounded quantifier).
//   - Mode is GraphWalk, GraphAnyShortest or GraphAllShortest.
//   - Target, when set (one expression per key column, over Input's
//     columns), keeps only paths ending at that vertex, and lets the
//     shortest modes stop as soon as it is reached; a NULL target
//     produces nothing.
//   - Output: Input's columns, then the end vertex key (len(Start)
//     columns, the values as the last edge of the path holds them, or the
//     start key's for a path of length 0), then the path length
//     (INTEGER); then, if PathVertices, the path's vertex keys and, if
//     PathEdges, the path's edge identities (the EdgeID columns of Edges;
//     the rowid column of a table scan, say), each a JSON array as TEXT
//     (an element per vertex or edge, itself an array when the key has
//     several columns).
//
// OutLookup and InLookup are access paths the optimizer derives from Edges
// (graphLookups); the binder leaves them nil. Each is Edges restricted to
// the edges whose Src (OutLookup) or Dst (InLookup) key equals the key of
// the vertex being expanded, read as OuterRef{Depth: 1, Idx: k}, the way
// an index join's right side reads its left keys. With them the executor
// looks up the edges of the vertices it reaches, each once, instead of
// reading the whole edge relation; it checks the key equality itself, so a
// lookup may return more edges than match.
type GraphExpand struct {
	Input  Node
	Start  []Expr
	Target []Expr
	Edges  Node
	Src    []int
	Dst    []int
	EdgeID []int
	Dir    GraphDir
	Min    int
	Max    int
	Mode   GraphMode
	// PathVertices and PathEdges add the path list columns.
	PathVertices bool
	PathEdges    bool
	OutLookup    Node
	InLookup     Node
	Cols         []Column
}

// Columns implements Node.
func (g *GraphExpand) Columns() []Column { return g.Cols }

// GraphExpandColumns is the output schema of a GraphExpand over input with
// the given start key: the input's columns, the end key columns named
// end_0…, path_length, then the requested path lists.
func GraphExpandColumns(input Node, start []Expr, pathVertices, pathEdges bool) []Column {
	cols := append([]Column{}, input.Columns()...)
	for i, e := range start {
		cols = append(cols, Column{Name: fmt.Sprintf("end_%d", i), Affinity: ExprAffinity(e)})
	}
	cols = append(cols, Column{Name: "path_length", DeclType: "INTEGER", Affinity: types.AffinityInteger, NotNull: true})
	if pathVertices {
		cols = append(cols, Column{Name: "path_vertices", DeclType: "TEXT", Affinity: types.AffinityText, NotNull: true})
	}
	if pathEdges {
		cols = append(cols, Column{Name: "path_edges", DeclType: "TEXT", Affinity: types.AffinityText, NotNull: true})
	}
	return cols
}

// Validate reports a malformed GraphExpand: key widths that disagree,
// column indexes out of range, bounds out of order.
func (g *GraphExpand) Validate() error {
	ne := len(g.Edges.Columns())
	switch {
	case len(g.Start) == 0 || len(g.Src) != len(g.Start) || len(g.Dst) != len(g.Start):
		return fmt.Errorf("graph expansion: start, source and destination keys differ in width")
	case g.Target != nil && len(g.Target) != len(g.Start):
		return fmt.Errorf("graph expansion: target key width differs from the start key's")
	case g.Min < 0 || g.Max < g.Min:
		return fmt.Errorf("graph expansion: bad hop bounds {%d,%d}", g.Min, g.Max)
	case g.PathEdges && len(g.EdgeID) == 0:
		return fmt.Errorf("graph expansion: edge list without edge identity columns")
	}
	for _, c := range append(append(append([]int{}, g.Src...), g.Dst...), g.EdgeID...) {
		if c < 0 || c >= ne {
			return fmt.Errorf("graph expansion: edge column %d out of range", c)
		}
	}
	return nil
}

// graphExpandLabel is the one-line description Format shows.
func graphExpandLabel(g *GraphExpand) string {
	label := fmt.Sprintf("GraphExpand %s %s {%d,%d}", g.Mode, g.Dir, g.Min, g.Max)
	if g.Target != nil {
		label += " +target"
	}
	if g.OutLookup != nil || g.InLookup != nil {
		label += " lookup"
	}
	return label
}

// graphInputs lists a GraphExpand's inputs: Input, Edges, then the lookups
// that are set.
func graphInputs(g *GraphExpand) []Node {
	out := []Node{g.Input, g.Edges}
	if g.OutLookup != nil {
		out = append(out, g.OutLookup)
	}
	if g.InLookup != nil {
		out = append(out, g.InLookup)
	}
	return out
}

// graphLookups gives a GraphExpand whose Edges is a scan of one table
// (under a filter) lookups through the rowid or an index on its Src or
// Dst key, for the directions it follows (and, for a shortest path to a
// target, the other direction too when an index allows it, so the
// executor can search from both ends).
func graphLookups(cat *catalog.Catalog, n Node) Node {
	g, ok := n.(*GraphExpand)
	if !ok || cat == nil || g.OutLookup != nil || g.InLookup != nil {
		return n
	}
	ng := *g
	meets := g.Mode != GraphWalk && g.Target != nil // may search from the target backwards too
	if g.Dir != GraphIn || meets {
		ng.OutLookup = edgeLookup(cat, g.Edges, g.Src)
	}
	if g.Dir != GraphOut || meets {
		ng.InLookup = edgeLookup(cat, g.Edges, g.Dst)
	}
	if (g.Dir != GraphIn && ng.OutLookup == nil) || (g.Dir != GraphOut && ng.InLookup == nil) {
		return n // one direction would read the whole table anyway
	}
	return &ng
}

// edgeLookup is edges restricted to key columns cols = the expanded
// vertex's key, or nil when no rowid or index lookup fits.
func edgeLookup(cat *catalog.Catalog, edges Node, cols []int) Node {
	filter, s := probeable(edges)
	if s == nil {
		return nil
	}
	// A join of the vertex key (left) with the edge keys (right) finds
	// the probe the way an index join does.
	j := &Join{Kind: JoinInner}
	for i, c := range cols {
		col := s.Cols[c]
		j.LeftKeys = append(j.LeftKeys, &ColRef{Idx: i, Affinity: col.Affinity})
		j.RightKeys = append(j.RightKeys, &ColRef{Idx: c, Affinity: col.Affinity})
	}
	probe, _, _ := rowidProbe(j, s)
	if probe == nil {
		probe, _, _ = indexProbe(cat, j, s)
	}
	if probe == nil {
		return nil
	}
	if filter != nil {
		return &Filter{Input: probe, Pred: filter.Pred}
	}
	return probe
}

// pruneGraph marks the columns a GraphExpand reads: the input columns its
// consumer reads plus the key expressions', and the edge keys (and the
// edge identity for an edge list), so an index on (src, dst) covers a
// lookup.
func pruneGraph(g *GraphExpand, need []bool) {
	nin := len(g.Input.Columns())
	var in []bool
	if need != nil {
		in = make([]bool, nin)
		copy(in, need[:min(nin, len(need))])
	}
	pruneColumns(g.Input, union(in, nin, append(append([]Expr{}, g.Start...), g.Target...)...))
	ne := len(g.Edges.Columns())
	edges := make([]bool, ne)
	read := append(append([]int{}, g.Src...), g.Dst...)
	if g.PathEdges {
		read = append(read, g.EdgeID...)
	}
	for _, c := range read {
		edges[c] = true
	}
	for _, e := range []Node{g.Edges, g.OutLookup, g.InLookup} {
		if e != nil {
			pruneColumns(e, append([]bool{}, edges...))
		}
	}
}

// estimateGraph guesses a GraphExpand's rows: rowsPerIndexKey edges per
// vertex and hop (one path per end vertex in the shortest modes, at most
// the edge relation's size), one row per start row with a target.
func estimateGraph(g *GraphExpand) float64 {
	in := EstimateRows(g.Input)
	if g.Target != nil {
		return in
	}
	per := 1.0
	for range min(g.Max, 6) {
		per *= rowsPerIndexKey
	}
	if g.Mode != GraphWalk {
		per = min(per, EstimateRows(g.Edges))
	}
	return in * per
}
